import { inspectDb } from '../../../src/server/store/inspect.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { serverEach, startServer } from '../../support/server.js'

/*
 * The Events API (`lib/api/events.rb`, `lib/api/project_events.rb`): what the server records where
 * GitLab's `EventCreateService` does, and who may list it.
 */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // owner of acme
const RITA = 'glpat-rita-token' // reporter of acme/app
const GUS = 'glpat-gus-token' // guest of acme/app
const OTTO = 'glpat-otto-token' // outsider
const APP = '/api/v4/projects/acme%2Fapp'
const SECRET = '/api/v4/projects/acme%2Fsecret'
type Json = Record<string, unknown>

const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, token: ${ALICE} }
  - { username: rita, token: ${RITA} }
  - { username: gus, token: ${GUS} }
  - { username: otto, token: ${OTTO} }
groups:
  - path: acme
    visibility: public
    members: { alice: owner }
projects:
  - path: acme/app
    visibility: public
    files: { README.md: hi }
    members: { rita: reporter, gus: guest }
  - path: acme/secret
    visibility: private
    files: { README.md: hi }
    members: { gus: guest }
`

let clock: ReturnType<typeof manualClock>
const t = serverEach(seed, () => ({ clock: (clock = manualClock('2026-03-01T10:00:00.000Z')) }))

const ok = async (method: string, path: string, json?: Json, token = ALICE) => {
  const res = await t.http(method, path, { token, ...(json ? { json } : {}) })
  expect(res.status).toBeLessThan(300)
  return res.body as Json
}
/** `token` '' is anonymous. */
const events = async (path: string, token = ALICE) => {
  const res = await t.http('GET', path, token ? { token } : {})
  expect(res.status).toBe(200)
  return res.body as Json[]
}
const summary = (list: Json[]) => list.map((e) => `${e.action_name} ${e.target_type ?? '-'}`)
const eventRows = () => inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM events').pluck().get()

describe('recorded events', () => {
  it('a project created: `created`, the project its target (18.4 on), in GitLab key order', async () => {
    const project = await ok('POST', '/api/v4/projects', { name: 'Mine' })
    const [event, ...rest] = await events(`/api/v4/projects/${project.id as number}/events`)
    expect(rest).toEqual([])
    expect(Object.keys(event!)).toEqual([
      'id',
      'project_id',
      'action_name',
      'target_id',
      'target_iid',
      'target_type',
      'author_id',
      'target_title',
      'created_at',
      'author',
      'imported',
      'imported_from',
      'author_username',
    ])
    expect(event).toMatchObject({
      project_id: project.id,
      action_name: 'created',
      target_id: project.id,
      target_iid: project.id,
      target_type: 'Project',
      target_title: 'Mine',
      created_at: '2026-03-01T10:00:00.000Z',
      author: { username: 'alice', name: 'Alice' },
      imported: false,
      imported_from: 'none',
      author_username: 'alice',
    })
  })

  it('an issue opened, closed and reopened (`opened`, `closed`, `opened`), newest first', async () => {
    const issue = await ok('POST', `${APP}/issues`, { title: 'Broken' })
    await ok('PUT', `${APP}/issues/${issue.iid as number}`, { state_event: 'close' })
    await ok('PUT', `${APP}/issues/${issue.iid as number}`, { state_event: 'reopen' })
    await ok('PUT', `${APP}/issues/${issue.iid as number}`, { title: 'Still broken' })
    const list = await events(`${APP}/events`)
    expect(summary(list)).toEqual(['opened Issue', 'closed Issue', 'opened Issue'])
    expect(list[0]).toMatchObject({
      target_id: issue.id,
      target_iid: issue.iid,
      target_title: 'Still broken',
      author_username: 'alice',
    })
    // `reopened` is its own action, named `opened` as GitLab's `action_name` does.
    expect(summary(await events(`${APP}/events?action=reopened`))).toEqual(['opened Issue'])
    expect(summary(await events(`${APP}/events?action=created`))).toEqual(['opened Issue'])
  })

  // The state the edit's answer shows is what decides the event (the row is not read again).
  it("an edit's description commands close and reopen (`/close`, `/reopen`); other commands record no move", async () => {
    const issue = await ok('POST', `${APP}/issues`, { title: 'Commands' })
    const iid = issue.iid as number
    expect(await ok('PUT', `${APP}/issues/${iid}`, { description: 'Done\n/close' })).toMatchObject({
      state: 'closed',
    })
    await ok('PUT', `${APP}/issues/${iid}`, { description: 'Again\n/reopen' })
    await ok('PUT', `${APP}/issues/${iid}`, { description: 'Labelled\n/label ~bug' })
    expect(summary(await events(`${APP}/events?sort=asc`))).toEqual([
      'opened Issue',
      'closed Issue',
      'opened Issue',
    ])
  })

  it('a move opens the new issue and closes the original', async () => {
    const issue = await ok('POST', `${APP}/issues`, { title: 'Wanders' })
    const secret = await ok('GET', SECRET)
    const moved = await ok('POST', `${APP}/issues/${issue.iid as number}/move`, { to_project_id: secret.id })
    expect(summary(await events(`${APP}/events`))).toEqual(['closed Issue', 'opened Issue'])
    const [opened] = await events(`${SECRET}/events`)
    expect(opened).toMatchObject({ action_name: 'opened', target_id: moved.id, target_iid: moved.iid })
  })

  it('a project initialized with a README: `created`, then `pushed new` of its default branch', async () => {
    const project = await ok('POST', '/api/v4/projects', { name: 'Readme', initialize_with_readme: true })
    const list = await events(`/api/v4/projects/${project.id as number}/events?sort=asc`)
    expect(list.map((e) => e.action_name)).toEqual(['created', 'pushed new'])
    expect(list[1]!.push_data).toMatchObject({
      commit_count: 1,
      action: 'created',
      ref: 'main',
      commit_from: null,
      commit_title: 'Initial commit',
    })
  })

  it('a comment: `commented on` the note, with the note; a thread`s is a DiscussionNote; system notes make none', async () => {
    const issue = await ok('POST', `${APP}/issues`, { title: 'Talk' })
    const iid = issue.iid as number
    const note = await ok('POST', `${APP}/issues/${iid}/notes`, { body: 'First' }, RITA)
    await ok('POST', `${APP}/issues/${iid}/discussions`, { body: 'A thread' })
    // A label change makes a system note; a note of quick actions only closes the issue.
    await ok('PUT', `${APP}/issues/${iid}`, { labels: 'bug' })
    await ok('POST', `${APP}/issues/${iid}/notes`, { body: '/close' })
    const list = await events(`${APP}/events?sort=asc`)
    expect(summary(list)).toEqual([
      'opened Issue',
      'commented on Note',
      'commented on DiscussionNote',
      'closed Issue',
    ])
    const comment = list[1]!
    expect(comment).toMatchObject({
      action_name: 'commented on',
      target_id: note.id,
      target_iid: note.id,
      target_type: 'Note',
      target_title: 'Talk',
      author_username: 'rita',
      note: { id: note.id, body: 'First', noteable_type: 'Issue', noteable_iid: iid, system: false },
    })
    expect(Object.keys(comment).indexOf('note')).toBe(Object.keys(comment).indexOf('created_at') + 1)
    // `target_type=note` is `Note` alone, as GitLab's finder.
    expect(summary(await events(`${APP}/events?target_type=note`))).toEqual(['commented on Note'])
  })

  it('a comment on a commit: `commented on` a Note (a line`s a LegacyDiffNote), titled as its commit, shown to those who read code', async () => {
    const made = await ok('POST', `${SECRET}/repository/commits`, {
      branch: 'main',
      commit_message: 'Change the readme\n\nWhy',
      actions: [{ action: 'update', file_path: 'README.md', content: 'hello\n' }],
    })
    const sha = made.id as string
    const plain = `${SECRET}/repository/commits/${sha}/comments`
    await ok('POST', plain, { note: 'Nice' })
    await ok('POST', plain, { note: 'This line', path: 'README.md', line: 1 })
    const list = await events(`${SECRET}/events?action=commented&sort=asc`)
    expect(summary(list)).toEqual(['commented on Note', 'commented on LegacyDiffNote'])
    expect(list[0]).toMatchObject({
      target_iid: list[0]!.target_id,
      target_title: 'Change the readme',
      author_username: 'alice',
      note: {
        type: null,
        body: 'Nice',
        noteable_id: null,
        noteable_type: 'Commit',
        noteable_iid: null,
        system: false,
      },
    })
    expect(list[1]!.note).toMatchObject({ type: 'LegacyDiffNote', body: 'This line' })
    // `target_type=note` is `Note` alone, on a commit as on an issue.
    expect(summary(await events(`${SECRET}/events?target_type=note`))).toEqual(['commented on Note'])
    // A guest of the private project may not read its code (`commit_note?`: `download_code`).
    expect(await events(`${SECRET}/events?action=commented`, GUS)).toEqual([])
    // Our comments on commits and on issues are numbered apart: an issue note with the same id is not it.
    const issue = await ok('POST', `${APP}/issues`, { title: 'Talk' })
    await ok('POST', `${APP}/issues/${issue.iid as number}/notes`, { body: 'On the issue' })
    expect(summary(await events(`${APP}/events?action=commented`))).toEqual(['commented on Note'])
    expect((await events(`${SECRET}/events?action=commented`))[1]!.note).toMatchObject({ body: 'Nice' })
  })

  it('a project milestone opened, closed, reopened and destroyed; once gone its events are shown to nobody', async () => {
    const m = await ok('POST', `${APP}/milestones`, { title: 'v1' })
    await ok('PUT', `${APP}/milestones/${m.id as number}`, { state_event: 'close' })
    await ok('PUT', `${APP}/milestones/${m.id as number}`, { state_event: 'activate' })
    const list = await events(`${APP}/events?target_type=milestone`)
    expect(summary(list)).toEqual(['opened Milestone', 'closed Milestone', 'opened Milestone'])
    expect(list[0]).toMatchObject({ target_id: m.id, target_iid: m.iid, target_title: 'v1' })
    await ok('DELETE', `${APP}/milestones/${m.id as number}`)
    // GitLab pages first and drops what the caller may not see after: X-Total counts them.
    const res = await t.http('GET', `${APP}/events?target_type=milestone`, { token: ALICE })
    expect(res.body).toEqual([])
    expect(res.headers['x-total']).toBe('4')
    expect((await events(`${APP}/events?action=destroyed`)).length).toBe(0)
  })

  it('a member joined and left a project, the member the author; group memberships record none', async () => {
    const otto = (await ok('GET', '/api/v4/users?username=otto'))[0 as never] as Json
    await ok('POST', `${APP}/members`, { user_id: otto.id, access_level: 30 })
    await ok('DELETE', `${APP}/members/${otto.id as number}`)
    await ok('POST', '/api/v4/groups/acme/members', { user_id: otto.id, access_level: 10 })
    const list = await events(`${APP}/events`)
    const app = await ok('GET', APP)
    expect(list.map((e) => [e.action_name, e.author_username, e.target_type, e.target_id])).toEqual([
      ['left', 'otto', 'Project', app.id],
      ['joined', 'otto', 'Project', app.id],
    ])
    expect(list[0]).toMatchObject({ target_iid: app.id, target_title: 'app' })
    // `target_type=project` lists the project's own events, no push among them (`Event.for_project`).
    await ok('POST', `${APP}/repository/branches`, { branch: 'b', ref: 'main' })
    expect(summary(await events(`${APP}/events?target_type=project`))).toEqual([
      'left Project',
      'joined Project',
    ])
  })

  it('a membership removed once expired: `removed due to membership expiration from` (`expired`)', async () => {
    const otto = (await ok('GET', '/api/v4/users?username=otto'))[0 as never] as Json
    await ok('POST', `${APP}/members`, { user_id: otto.id, access_level: 30, expires_at: '2026-03-02' })
    const rita = (await ok('GET', '/api/v4/users?username=rita'))[0 as never] as Json
    // The day it expires it counts as expired from its start (`Expirable#expired?`).
    clock.advance(24 * 3600 * 1000)
    await ok('DELETE', `${APP}/members/${otto.id as number}`)
    await ok('DELETE', `${APP}/members/${rita.id as number}`)
    const list = await events(`${APP}/events`)
    expect(list.map((e) => [e.action_name, e.author_username, e.target_type])).toEqual([
      ['left', 'rita', 'Project'],
      ['removed due to membership expiration from', 'otto', 'Project'],
      ['joined', 'otto', 'Project'],
    ])
    expect(summary(await events(`${APP}/events?action=expired`))).toEqual([
      'removed due to membership expiration from Project',
    ])
  })

  it('before 18.4 project events have no target, and `target_type=project` finds none', async () => {
    const old = await startServer(seed, { gitlabVersion: '18.3.0', clock: manualClock() })
    try {
      const made = await old.http('POST', '/api/v4/projects', { token: ALICE, json: { name: 'Old' } })
      const id = (made.body as Json).id as number
      const res = await old.http('GET', `/api/v4/projects/${id}/events`, { token: ALICE })
      expect(res.body).toMatchObject([
        { action_name: 'created', target_id: null, target_iid: null, target_type: null, target_title: null },
      ])
      const filtered = await old.http('GET', `/api/v4/projects/${id}/events?target_type=project`, {
        token: ALICE,
      })
      expect(filtered.body).toEqual([])
    } finally {
      await old.close()
    }
  })

  it('a group member removed leaves the projects below too: `left` there, unless skip_subresources', async () => {
    const otto = (await ok('GET', '/api/v4/users?username=otto'))[0 as never] as Json
    await ok('POST', `${APP}/members`, { user_id: otto.id, access_level: 30 })
    await ok('POST', '/api/v4/groups/acme/members', { user_id: otto.id, access_level: 10 })
    await ok('DELETE', `/api/v4/groups/acme/members/${otto.id as number}?skip_subresources=true`)
    expect(summary(await events(`${APP}/events`))).toEqual(['joined Project'])
    await ok('POST', '/api/v4/groups/acme/members', { user_id: otto.id, access_level: 10 })
    await ok('DELETE', `/api/v4/groups/acme/members/${otto.id as number}`)
    expect(summary(await events(`${APP}/events`))).toEqual(['left Project', 'joined Project'])
  })

  it('pushes through the API: `pushed to`, `pushed new` and `deleted`, with their push_data', async () => {
    const before = ((await ok('GET', `${APP}/repository/commits/main`)) as Json).id
    const commit = await ok('POST', `${APP}/repository/files/docs%2Fa.md`, {
      branch: 'main',
      content: 'a',
      commit_message: 'Add the docs\n\nWith a body',
    })
    await ok('POST', `${APP}/repository/branches?branch=feature&ref=main`)
    await ok('DELETE', `${APP}/repository/branches/feature`)
    await ok('POST', `${APP}/repository/tags`, { tag_name: 'v1', ref: 'main' })
    const list = await events(`${APP}/events?action=pushed&sort=asc`)
    expect(list.map((e) => e.action_name)).toEqual(['pushed to', 'pushed new', 'deleted', 'pushed new'])
    const after = ((await ok('GET', `${APP}/repository/commits/main`)) as Json).id
    expect(commit.branch).toBe('main')
    expect(list[0]).toMatchObject({
      target_id: null,
      target_type: null,
      push_data: {
        commit_count: 1,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: before,
        commit_to: after,
        ref: 'main',
        commit_title: 'Add the docs',
        ref_count: null,
      },
    })
    expect(Object.keys(list[0]!).slice(-2)).toEqual(['push_data', 'author_username'])
    expect(list[1]!.push_data).toEqual({
      commit_count: 0,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: after,
      ref: 'feature',
      commit_title: null,
      ref_count: null,
    })
    expect(list[2]!.push_data).toMatchObject({ action: 'removed', commit_from: after, commit_to: null })
    expect(list[3]!.push_data).toMatchObject({
      commit_count: 1,
      action: 'created',
      ref_type: 'tag',
      ref: 'v1',
      commit_title: 'Add the docs',
    })
  })

  it('the commit title is the first line, stripped and cut at 70 characters', async () => {
    await ok('POST', `${APP}/repository/files/b.md`, {
      branch: 'main',
      content: 'b',
      commit_message: `  ${'x'.repeat(80)}  \nbody`,
    })
    const [push] = await events(`${APP}/events?action=pushed`)
    expect((push!.push_data as Json).commit_title).toBe(`${'x'.repeat(67)}...`)
  })

  it('a project deleted takes its events along (marked for deletion first, then removed)', async () => {
    const project = await ok('POST', '/api/v4/projects', { name: 'Gone' })
    const path = `/api/v4/projects/${project.id as number}`
    expect(eventRows()).toBe(1)
    await ok('DELETE', path)
    expect(eventRows()).toBe(1)
    const marked = await ok('GET', path)
    const fullPath = encodeURIComponent(marked.path_with_namespace as string)
    await ok('DELETE', `${path}?permanently_remove=true&full_path=${fullPath}`)
    expect(eventRows()).toBe(0)
  })
  it('a user deleted takes their events along (GitLab moves none to the ghost user)', async () => {
    const otto = (await ok('GET', '/api/v4/users?username=otto'))[0 as never] as Json
    await ok('POST', `${APP}/members`, { user_id: otto.id, access_level: 30 })
    await ok('POST', `${APP}/issues`, { title: 'By otto' }, OTTO)
    expect(eventRows()).toBe(2)
    await ok('DELETE', `/api/v4/users/${otto.id as number}`, undefined, ROOT)
    expect(eventRows()).toBe(0)
  })
})

describe('who sees what', () => {
  it('a confidential issue`s events only to those who may read it; pushes of a private project only to Reporters', async () => {
    await ok('POST', `${APP}/issues`, { title: 'Open' })
    await ok('POST', `${APP}/issues`, { title: 'Hush', confidential: true })
    await ok('POST', `${SECRET}/repository/files/c.md`, { branch: 'main', content: 'c', commit_message: 'c' })
    expect((await events(`${APP}/events`, RITA)).map((e) => e.target_title)).toEqual(['Hush', 'Open'])
    const res = await t.http('GET', `${APP}/events`, { token: GUS })
    expect((res.body as Json[]).map((e) => e.target_title)).toEqual(['Open'])
    expect(res.headers['x-total']).toBe('2')
    expect((await events(`${APP}/events`, '')).map((e) => e.target_title)).toEqual(['Open'])
    // The private project 404s to outsiders, as every project route.
    const hidden = await t.http('GET', `${SECRET}/events`, { token: OTTO })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Project Not Found' })
    expect((await events(`${SECRET}/events`, ROOT)).map((e) => e.action_name)).toEqual(['pushed to'])
    // A guest of the private project reads it, but not its code (`download_code`).
    const guest = await t.http('GET', `${SECRET}/events`, { token: GUS })
    expect(guest.body).toEqual([])
    expect(guest.headers['x-total']).toBe('1')
  })

  it('an internal note`s comment only to Reporters and up', async () => {
    const issue = await ok('POST', `${APP}/issues`, { title: 'Notes' })
    await ok('POST', `${APP}/issues/${issue.iid as number}/notes`, { body: 'Inside', internal: true })
    const commented = async (token: string) =>
      (await events(`${APP}/events?action=commented`, token)).map((e) => (e.note as Json).body)
    expect(await commented(RITA)).toEqual(['Inside'])
    expect(await commented(GUS)).toEqual([])
    expect(await commented('')).toEqual([])
  })

  it('GET /users/:id/events: the user`s events in projects the caller may see, by id or username', async () => {
    await ok('POST', `${APP}/issues`, { title: 'Public' })
    await ok('POST', `${SECRET}/issues`, { title: 'Private' })
    expect((await events('/api/v4/users/alice/events', OTTO)).map((e) => e.target_title)).toEqual(['Public'])
    expect((await events('/api/v4/users/alice/events', ROOT)).map((e) => e.target_title)).toEqual([
      'Private',
      'Public',
    ])
    const alice = (await ok('GET', '/api/v4/user')) as Json
    expect((await events(`/api/v4/users/${alice.id as number}/events`, '')).length).toBe(1)
    expect(await events('/api/v4/users/rita/events', OTTO)).toEqual([])
    const missing = await t.http('GET', '/api/v4/users/nobody/events', { token: OTTO })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ message: '404 User Not Found' })
  })

  it('a private profile`s events only to the user and administrators', async () => {
    await ok('POST', `${APP}/issues`, { title: 'Mine' })
    const alice = (await ok('GET', '/api/v4/user')) as Json
    await ok('PUT', `/api/v4/users/${alice.id as number}`, { private_profile: true }, ROOT)
    expect(await events('/api/v4/users/alice/events', OTTO)).toEqual([])
    expect((await events('/api/v4/users/alice/events', ALICE)).length).toBe(1)
    expect((await events('/api/v4/users/alice/events', ROOT)).length).toBe(1)
  })

  it('GET /events: the caller`s own (401 anonymous); scope=all every event of their projects', async () => {
    await ok('POST', `${APP}/issues`, { title: 'By alice' })
    await ok('POST', `${APP}/issues`, { title: 'By rita' }, RITA)
    const anonymous = await t.http('GET', '/api/v4/events')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' })
    expect((await events('/api/v4/events', RITA)).map((e) => e.target_title)).toEqual(['By rita'])
    expect((await events('/api/v4/events?scope=all', RITA)).map((e) => e.target_title)).toEqual([
      'By rita',
      'By alice',
    ])
    // otto is a member of nothing: scope=all lists nothing.
    expect(await events('/api/v4/events?scope=all', OTTO)).toEqual([])
  })
})

describe('filters and pages', () => {
  it('refuses an unknown action or target type, or a date it cannot read, with Grape`s 400', async () => {
    const bad = await t.http('GET', `${APP}/events?action=opened&target_type=epic_thing&before=soon`, {
      token: ALICE,
    })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({
      error: 'action does not have a valid value, target_type does not have a valid value, before is invalid',
    })
  })

  it('before and after are dates, each exclusive; sort and offset pages with GitLab`s headers', async () => {
    await ok('POST', `${APP}/issues`, { title: 'Day 1' })
    clock.advance(86_400_000)
    await ok('POST', `${APP}/issues`, { title: 'Day 2' })
    clock.advance(86_400_000)
    await ok('POST', `${APP}/issues`, { title: 'Day 3' })
    const titles = async (query: string) =>
      (await events(`${APP}/events?${query}`)).map((e) => e.target_title)
    expect(await titles('after=2026-03-01')).toEqual(['Day 3', 'Day 2'])
    expect(await titles('before=2026-03-02')).toEqual(['Day 1'])
    expect(await titles('after=2026-03-01&before=2026-03-03')).toEqual(['Day 2'])
    expect(await titles('before=2026-03-01')).toEqual([])
    // Grape's Date keeps the day as written: a time and zone with it are dropped, not converted.
    expect(await titles('before=2026-03-02T23:00:00-05:00')).toEqual(['Day 1'])
    const dated = await t.http('GET', `${APP}/events?after=Mar 1, 2026&per_page=1`, { token: ALICE })
    expect(dated.headers.link).toContain(
      'after=2026-03-01&id=acme%2Fapp&page=2&per_page=1&sort=desc>; rel="next"',
    )
    expect(await titles('sort=asc')).toEqual(['Day 1', 'Day 2', 'Day 3'])
    const page = await t.http('GET', `${APP}/events?per_page=1&page=2`, { token: ALICE })
    expect((page.body as Json[]).map((e) => e.target_title)).toEqual(['Day 2'])
    expect(page.headers).toMatchObject({
      'x-total': '3',
      'x-total-pages': '3',
      'x-next-page': '3',
      'x-prev-page': '1',
    })
    expect(page.headers.link).toContain('/events?id=acme%2Fapp&page=3&per_page=1&sort=desc>; rel="next"')
  })
})
