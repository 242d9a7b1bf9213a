import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { tarGzMembers } from '../../support/archive-members.js'
import { exportSettled, importFile, settled } from '../../support/imports.js'
import { serverEach } from '../../support/server.js'
import { plannerAndGuest, plannerTokens } from '../../support/seeds.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Group labels through the API (`lib/api/group_labels.rb`, `lib/api/helpers/label_helpers.rb`,
 * `lib/api/subscriptions.rb`), the projects of the group using them (lists, issues, quick actions),
 * and promoting a project label (`Labels::PromoteService`): GitLab's bodies, who may write, and
 * nothing stored when a request is refused.
 */

const { root: ROOT, planner: PLANNER, guest: GUEST, outsider: OUTSIDER } = plannerTokens
const G = '/api/v4/groups/acme'
const P = '/api/v4/projects/acme%2Fteam%2Fapp'
const seed = plannerAndGuest(`  - { path: acme/team, visibility: private }
projects:
  - path: acme/team/app
    visibility: private
    labels:
      - { name: bug, color: "#d9534f" }
    issues:
      - { title: First, author: pia, labels: [bug] }
  - path: acme/team/web
    visibility: private
    labels:
      - { name: bug, color: "#000000" }
    issues:
      - { title: Web one, author: pia, labels: [bug] }
  - path: acme/site
    visibility: private
  - path: acme/team/docs
    visibility: private
  - path: pia/solo
    visibility: private
    labels:
      - { name: x, color: "#ffffff" }
`)
type Json = Record<string, unknown>
const t = serverEach(seed, () => ({ clock: manualClock() }))

const db = () => inspectDb(t.server.store)
const groupLabels = () =>
  db()
    .prepare('SELECT title, color, description, group_id FROM labels WHERE group_id IS NOT NULL ORDER BY id')
    .all()
const KEYS = ['id', 'name', 'color', 'description', 'description_html', 'text_color', 'subscribed']

describe('POST /groups/:id/labels', () => {
  it('creates a group label with 201 in GitLab key order', async () => {
    const res = await t.http('POST', `${G}/labels`, {
      token: PLANNER,
      json: { name: 'priority::high', color: '#ff0000', description: 'Urgent' },
    })
    expect(res.status).toBe(201)
    const body = res.body as Json
    expect(Object.keys(body)).toEqual(KEYS)
    expect(body).toMatchObject({
      name: 'priority::high',
      color: '#ff0000',
      description: 'Urgent',
      subscribed: false,
    })
    expect(groupLabels()).toEqual([
      { title: 'priority::high', color: '#ff0000', description: 'Urgent', group_id: expect.any(Number) },
    ])
  })

  it('refuses a missing name, a bad color, a taken title and a guest, storing nothing', async () => {
    const missing = await t.http('POST', `${G}/labels`, { token: PLANNER, json: { color: '#fff' } })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ error: 'name is missing' })
    const invalid = await t.http('POST', `${G}/labels`, {
      token: PLANNER,
      json: { name: 'x', color: 'nope' },
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toEqual({ message: { color: ['must be a valid color code'] } })
    await t.http('POST', `${G}/labels`, { token: PLANNER, json: { name: 'dup', color: '#fff' } })
    const taken = await t.http('POST', `${G}/labels`, {
      token: PLANNER,
      json: { name: 'dup', color: '#fff' },
    })
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual({ message: 'Label already exists' })
    // A subgroup sees its parent's label: the title is taken there too.
    const inherited = await t.http('POST', '/api/v4/groups/acme%2Fteam/labels', {
      token: ROOT,
      json: { name: 'dup', color: '#fff' },
    })
    expect(inherited.status).toBe(409)
    const guest = await t.http('POST', `${G}/labels`, { token: GUEST, json: { name: 'g', color: '#fff' } })
    expect(guest.status).toBe(403)
    expect(guest.body).toEqual({ message: '403 Forbidden' })
    const hidden = await t.http('POST', `${G}/labels`, {
      token: OUTSIDER,
      json: { name: 'o', color: '#fff' },
    })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Group Not Found' })
    expect(groupLabels().map((l) => (l as Json).title)).toEqual(['dup'])
  })
})

describe('GET, PUT, DELETE /groups/:id/labels/:name', () => {
  it('reads by id or encoded name, renames with new_name, subscribes and deletes', async () => {
    const made = (
      await t.http('POST', `${G}/labels`, { token: PLANNER, json: { name: 'a b', color: '#fff' } })
    ).body as Json
    const byName = await t.http('GET', `${G}/labels/a%20b`, { token: GUEST })
    expect(byName.status).toBe(200)
    expect(byName.body).toMatchObject({ id: made.id, name: 'a b' })
    // The subgroup reads its parent's label by id (include_ancestor_groups), not with it off.
    const sub = await t.http('GET', `/api/v4/groups/acme%2Fteam/labels/${made.id}`, { token: ROOT })
    expect(sub.status).toBe(200)
    const own = await t.http(
      'GET',
      `/api/v4/groups/acme%2Fteam/labels/${made.id}?include_ancestor_groups=false`,
      {
        token: ROOT,
      },
    )
    expect(own.status).toBe(404)
    expect(own.body).toEqual({ message: '404 Label Not Found' })

    const none = await t.http('PUT', `${G}/labels/${made.id}`, { token: PLANNER, json: {} })
    expect(none.status).toBe(400)
    const renamed = await t.http('PUT', `${G}/labels/${made.id}`, {
      token: PLANNER,
      json: { new_name: 'c', color: '#000' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ id: made.id, name: 'c', color: '#000' })
    const forbidden = await t.http('PUT', `${G}/labels/c`, { token: GUEST, json: { new_name: 'z' } })
    expect(forbidden.status).toBe(403)

    const sub1 = await t.http('POST', `${G}/labels/c/subscribe`, { token: GUEST })
    expect(sub1.status).toBe(201)
    expect(sub1.body).toMatchObject({ subscribed: true })
    expect((await t.http('POST', `${G}/labels/c/subscribe`, { token: GUEST })).status).toBe(304)
    expect((await t.http('POST', `${G}/labels/c/unsubscribe`, { token: GUEST })).status).toBe(201)

    expect((await t.http('DELETE', `${G}/labels/c`, { token: GUEST })).status).toBe(403)
    expect((await t.http('DELETE', `${G}/labels/nope`, { token: PLANNER })).status).toBe(404)
    expect(groupLabels()).toHaveLength(1)
    expect((await t.http('DELETE', `${G}/labels/c`, { token: PLANNER })).status).toBe(204)
    expect(groupLabels()).toEqual([])
  })

  it('edits and deletes by the deprecated forms, the label named in the parameters', async () => {
    const made = (
      await t.http('POST', `${G}/labels`, { token: PLANNER, json: { name: 'old', color: '#fff' } })
    ).body as Json
    const both = await t.http('PUT', `${G}/labels`, {
      token: PLANNER,
      json: { label_id: made.id, name: 'old', new_name: 'x' },
    })
    expect([both.status, both.body]).toEqual([400, { error: 'label_id, name are mutually exclusive' }])
    const edited = await t.http('PUT', `${G}/labels`, {
      token: PLANNER,
      json: { name: 'old', new_name: 'new' },
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ id: made.id, name: 'new' })
    const missing = await t.http('DELETE', `${G}/labels`, { token: PLANNER, json: {} })
    expect([missing.status, missing.body]).toEqual([400, { error: 'name is missing' }])
    expect((await t.http('DELETE', `${G}/labels`, { token: PLANNER, json: { name: 'new' } })).status).toBe(
      204,
    )
    expect(groupLabels()).toEqual([])
  })

  it('lists the group labels with the ancestors, paged and by title', async () => {
    await t.http('POST', `${G}/labels`, { token: ROOT, json: { name: 'zeta', color: '#fff' } })
    await t.http('POST', '/api/v4/groups/acme%2Fteam/labels', {
      token: ROOT,
      json: { name: 'alpha', color: '#fff' },
    })
    const list = await t.http('GET', '/api/v4/groups/acme%2Fteam/labels', { token: ROOT })
    expect(list.status).toBe(200)
    expect((list.body as Json[]).map((l) => l.name)).toEqual(['alpha', 'zeta'])
    expect(list.headers['x-total']).toBe('2')
    const own = await t.http('GET', '/api/v4/groups/acme%2Fteam/labels?include_ancestor_groups=false', {
      token: ROOT,
    })
    expect((own.body as Json[]).map((l) => l.name)).toEqual(['alpha'])
    const below = await t.http('GET', `${G}/labels?include_descendant_groups=true`, { token: ROOT })
    expect((below.body as Json[]).map((l) => l.name)).toEqual(['alpha', 'zeta'])
  })
})

describe('a group label in its projects', () => {
  it('is listed with is_project_label false, set on issues, filtered by, and applied with /label', async () => {
    await t.http('POST', `${G}/labels`, { token: PLANNER, json: { name: 'team', color: '#123456' } })
    const labels = await t.http('GET', `${P}/labels`, { token: PLANNER })
    expect((labels.body as Json[]).map((l) => [l.name, l.is_project_label])).toEqual([
      ['bug', true],
      ['team', false],
    ])
    const own = await t.http('GET', `${P}/labels?include_ancestor_groups=false`, { token: PLANNER })
    expect((own.body as Json[]).map((l) => l.name)).toEqual(['bug'])
    // A project label may not take the group's title.
    const clash = await t.http('POST', `${P}/labels`, {
      token: PLANNER,
      json: { name: 'team', color: '#fff' },
    })
    expect(clash.status).toBe(409)

    const issue = await t.http('POST', `${P}/issues`, {
      token: PLANNER,
      json: { title: 'Two', labels: 'team' },
    })
    expect(issue.status).toBe(201)
    expect((issue.body as Json).labels).toEqual(['team'])
    const groupLabelCount = db().prepare("SELECT COUNT(*) FROM labels WHERE title = 'team'").pluck().get()
    expect(groupLabelCount).toBe(1)
    const counted = await t.http('GET', `${G}/labels?with_counts=true`, { token: PLANNER })
    expect(counted.body).toEqual([
      expect.objectContaining({
        name: 'team',
        open_issues_count: 1,
        closed_issues_count: 0,
        open_merge_requests_count: 0,
      }),
    ])
    expect(Object.keys((counted.body as Json[])[0] as Json).slice(-4)).toEqual([
      'open_issues_count',
      'closed_issues_count',
      'open_merge_requests_count',
      'subscribed',
    ])
    const filtered = await t.http('GET', `${P}/issues?labels=team`, { token: PLANNER })
    expect((filtered.body as Json[]).map((i) => i.title)).toEqual(['Two'])

    const note = await t.http('POST', `${P}/issues/1/notes`, {
      token: PLANNER,
      json: { body: '/label ~team' },
    })
    expect(note.status).toBe(202)
    const first = await t.http('GET', `${P}/issues/1`, { token: PLANNER })
    expect((first.body as Json).labels).toEqual(['bug', 'team'])
  })
})

describe('PUT /projects/:id/labels/:name/promote', () => {
  it("makes the label the group's, merging the same title of the sibling project", async () => {
    const T = '/api/v4/projects/acme%2Fteam%2Fweb'
    const id = db()
      .prepare("SELECT l.id FROM labels l JOIN projects p ON p.id = l.project_id WHERE p.path = 'app'")
      .pluck()
      .get()
    const res = await t.http('PUT', `${P}/labels/bug/promote`, { token: ROOT })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body as Json)).toEqual(KEYS)
    expect(res.body).toMatchObject({ id, name: 'bug', color: '#d9534f' })
    expect(db().prepare("SELECT COUNT(*) FROM labels WHERE title = 'bug'").pluck().get()).toBe(1)
    const web = await t.http('GET', `${T}/issues/1`, { token: ROOT })
    expect((web.body as Json).labels).toEqual(['bug'])
    const listed = await t.http('GET', `${T}/labels`, { token: ROOT })
    expect((listed.body as Json[]).map((l) => [l.id, l.is_project_label])).toEqual([[id, false]])
  })

  it("merges the group's own label of the title too, with its issues and subscribers", async () => {
    // A group label younger than its projects' labels of the same title (GitLab allows that order).
    const TEAM = '/api/v4/groups/acme%2Fteam'
    const older = (
      await t.http('POST', `${TEAM}/labels`, { token: ROOT, json: { name: 'bug', color: '#111111' } })
    ).body as Json
    expect((await t.http('POST', `${TEAM}/labels/bug/subscribe`, { token: GUEST })).status).toBe(201)
    const DOCS = '/api/v4/projects/acme%2Fteam%2Fdocs'
    const filed = await t.http('POST', `${DOCS}/issues`, {
      token: ROOT,
      json: { title: 'Docs', labels: 'bug' },
    })
    expect(filed.status).toBe(201)
    expect(db().prepare('SELECT COUNT(*) FROM issue_labels WHERE label_id = ?').pluck().get(older.id)).toBe(1)
    const res = await t.http('PUT', `${P}/labels/bug/promote`, { token: ROOT })
    expect(res.status).toBe(200)
    const promoted = (res.body as Json).id
    expect(promoted).not.toBe(older.id)
    expect(db().prepare("SELECT id FROM labels WHERE title = 'bug'").pluck().all()).toEqual([promoted])
    expect(db().prepare('SELECT COUNT(*) FROM issue_labels WHERE label_id = ?').pluck().get(promoted)).toBe(3)
    const docs = await t.http('GET', `${DOCS}/issues/1`, { token: ROOT })
    expect((docs.body as Json).labels).toEqual(['bug'])
    const subscribed = await t.http('GET', `${TEAM}/labels/bug`, { token: GUEST })
    expect(subscribed.body).toMatchObject({ id: promoted, subscribed: true })
  })

  it('answers 400 outside a group, 403 without the role, 404 for a missing label, changing nothing', async () => {
    const before = db().prepare('SELECT * FROM labels ORDER BY id').all()
    const site = await t.http('PUT', `${P}/labels/missing/promote`, { token: ROOT })
    expect(site.status).toBe(404)
    expect(site.body).toEqual({ message: '404 Label Not Found' })
    const guest = await t.http('PUT', `${P}/labels/bug/promote`, { token: GUEST })
    expect(guest.status).toBe(403)
    const solo = await t.http('PUT', '/api/v4/projects/pia%2Fsolo/labels/x/promote', { token: PLANNER })
    expect(solo.status).toBe(400)
    expect(solo.body).toEqual({ message: 'Failed to promote project label to group label' })
    expect(db().prepare('SELECT * FROM labels ORDER BY id').all()).toEqual(before)
  })
})

describe('the export of an issue with group labels and a group milestone', () => {
  it('writes them as GitLab does, and an import into the group reuses them', async () => {
    await t.http('POST', `${G}/labels`, { token: ROOT, json: { name: 'team', color: '#123456' } })
    const acmeId = db().prepare("SELECT id FROM namespaces WHERE full_path = 'acme'").pluck().get()
    const milestone = (await t.http('POST', `${G}/milestones`, { token: ROOT, json: { title: 'Q3' } }))
      .body as Json
    await t.http('POST', `${P}/issues`, {
      token: ROOT,
      json: { title: 'Grouped', labels: 'team,bug', milestone_id: milestone.id },
    })
    expect((await t.http('POST', `${P}/export`, { token: ROOT })).status).toBe(202)
    await exportSettled(t, P, ROOT)
    const dl = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
    const archive = Buffer.from(await dl.body.arrayBuffer())
    const files = await tarGzMembers(archive)
    const lines = (name: string) =>
      (files.get(`./tree/project/${name}.ndjson`)?.body ?? '')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Json)
    expect(lines('labels').map((l) => l.title)).toEqual(['bug'])
    expect(lines('milestones')).toEqual([])
    const issue = lines('issues').find((i) => i.title === 'Grouped') as Json
    expect((issue.label_links as Json[]).map((l) => l.label)).toEqual([
      expect.objectContaining({ title: 'bug', type: 'ProjectLabel', group_id: null }),
      expect.objectContaining({
        title: 'team',
        type: 'GroupLabel',
        project_id: null,
        group_id: acmeId,
      }),
    ])
    expect(issue.milestone).toMatchObject({ title: 'Q3', project_id: null, group_id: acmeId })

    const dir = mkdtempSync(join(tmpdir(), 'group-labels-'))
    try {
      const file = join(dir, 'export.tar.gz')
      writeFileSync(file, archive)
      const res = await importFile(t, file, { path: 'copy', namespace: 'acme/team' }, ROOT)
      expect(res.status).toBe(201)
      expect(await settled(t, res.body!.id, ROOT)).toMatchObject({ import_status: 'finished' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const copied = (
      await t.http('GET', '/api/v4/projects/acme%2Fteam%2Fcopy/issues?search=Grouped', { token: ROOT })
    ).body as Json[]
    expect(copied.map((i) => [i.labels, (i.milestone as Json).id])).toEqual([[['bug', 'team'], milestone.id]])
    expect(db().prepare("SELECT COUNT(*) FROM labels WHERE title = 'team'").pluck().get()).toBe(1)
  })
})

describe('reset', () => {
  it('drops the group labels made through the API', async () => {
    await t.http('POST', `${G}/labels`, { token: ROOT, json: { name: 'gone', color: '#fff' } })
    await t.http('PUT', `${P}/labels/bug/promote`, { token: ROOT })
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBeLessThan(300)
    expect(groupLabels()).toEqual([])
    expect(db().prepare("SELECT COUNT(*) FROM labels WHERE title = 'bug'").pluck().get()).toBe(2)
  })
})
