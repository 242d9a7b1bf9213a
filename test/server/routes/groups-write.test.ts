import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverEach, startServer } from '../../support/server.js'
import { namespaceId } from '../../support/store-rows.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Groups written through the API (`lib/api/groups.rb`, app/services/groups/*): create, edit and
 * delete, with GitLab's statuses and bodies, and nothing stored when a request is refused.
 */

const ROOT = 'glpat-root-token'
const OWEN = 'glpat-owen-token'
const MIA = 'glpat-mia-token'
const DEV = 'glpat-dev-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: owen, name: Owen, token: ${OWEN} }
  - { username: mia, name: Mia, token: ${MIA} }
  - { username: dev, name: Dev, token: ${DEV} }
groups:
  - { path: acme, name: ACME, members: { owen: owner, mia: maintainer, dev: developer } }
  - { path: acme/platform, name: Platform }
  - { path: closed, members: { owen: owner } }
  - { path: open, visibility: public, members: { owen: owner } }
projects:
  - path: acme/platform/api
    issues:
      - { title: First, author: owen }
  - path: acme/app
  - { path: open/site, visibility: public }
`
type Json = Record<string, unknown>
const t = serverEach(seed, () => ({ clock: manualClock('2026-03-01T10:00:00.000Z') }))

const db = () => inspectDb(t.server.store)
const groupRows = () =>
  db().prepare('SELECT id, path, full_path, name, parent_id, visibility FROM namespaces ORDER BY id').all()
const projectPaths = () => db().prepare('SELECT full_path FROM projects ORDER BY id').pluck().all()
const idOf = (fullPath: string) => namespaceId(t.server.store, fullPath)
const create = async (json: Json, token = OWEN) => {
  const res = await t.http('POST', '/api/v4/groups', { token, json })
  expect(res.status).toBe(201)
  return res.body as Json
}

describe('POST /groups', () => {
  it('creates a top-level group, its creator an Owner, and answers GroupDetail', async () => {
    const body = await create({ name: 'Tools', path: 'tools', description: 'Shared tools' })
    const id = idOf('tools')
    expect(body).toEqual({
      id,
      web_url: `${t.baseUrl}/groups/tools`,
      name: 'Tools',
      path: 'tools',
      description: 'Shared tools',
      visibility: 'private',
      full_name: 'Tools',
      full_path: 'tools',
      created_at: '2026-03-01T10:00:00.000Z',
      parent_id: null,
      avatar_url: null,
      marked_for_deletion_on: null,
      shared_with_groups: [],
    })
    expect(
      db()
        .prepare("SELECT access_level FROM members WHERE source_type = 'namespace' AND source_id = ?")
        .all(id),
    ).toEqual([{ access_level: 50 }])
    const read = await t.http('GET', '/api/v4/groups/tools', { token: OWEN })
    expect(read.body).toEqual(body)
    const listed = await t.http('GET', '/api/v4/groups', { token: OWEN, query: 'search=tool' })
    expect((listed.body as Json[]).map((g) => g.full_path)).toEqual(['tools'])
  })

  it('creates a subgroup under parent_id for the parent group Maintainers, with its full path and name', async () => {
    const body = await create({ name: 'Web', path: 'web', parent_id: idOf('acme') }, MIA)
    expect(body).toMatchObject({
      full_path: 'acme/web',
      full_name: 'ACME / Web',
      parent_id: idOf('acme'),
      web_url: `${t.baseUrl}/groups/acme/web`,
    })
    // Maintainer of acme by inheritance, Owner of the new group by membership.
    const edit = await t.http('PUT', '/api/v4/groups/acme%2Fweb', { token: MIA, json: { description: 'x' } })
    expect(edit.status).toBe(200)
  })

  it('refuses callers who may not create: 401 anonymous, 403 Developers of the parent and users without can_create_group', async () => {
    const before = groupRows()
    const anonymous = await t.http('POST', '/api/v4/groups', { json: { name: 'X', path: 'xx' } })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' })
    const developer = await t.http('POST', '/api/v4/groups', {
      token: DEV,
      json: { name: 'X', path: 'xx', parent_id: idOf('acme') },
    })
    expect(developer.status).toBe(403)
    expect(developer.body).toEqual({ message: '403 Forbidden' })
    const off = await t.http('PUT', `/api/v4/users/${userId('dev')}`, {
      token: ROOT,
      json: { can_create_group: false },
    })
    expect(off.status).toBe(200)
    const topLevel = await t.http('POST', '/api/v4/groups', { token: DEV, json: { name: 'X', path: 'xx' } })
    expect(topLevel.status).toBe(403)
    expect(topLevel.body).toEqual({ message: '403 Forbidden' })
    // A parent the caller cannot see is 404, as find_group! answers.
    const hidden = await t.http('POST', '/api/v4/groups', {
      token: MIA,
      json: { name: 'X', path: 'xx', parent_id: idOf('closed') },
    })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Group Not Found' })
    expect(groupRows()).toEqual(before)
  })

  it('lets administrators create anywhere', async () => {
    await create({ name: 'Inside', path: 'inside', parent_id: idOf('closed') }, ROOT)
    expect(idOf('closed/inside')).toBeGreaterThan(0)
  })

  it("answers missing parameters with Grape's 400", async () => {
    const res = await t.http('POST', '/api/v4/groups', { token: OWEN, json: { name: 'Only name' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'path is missing' })
    const bad = await t.http('POST', '/api/v4/groups', {
      token: OWEN,
      json: { name: 'X', path: 'xx', visibility: 'secret' },
    })
    expect(bad.body).toEqual({ error: 'visibility does not have a valid value' })
  })

  it('answers invalid, reserved and taken paths as GitLab: Failed to save group with the errors hash', async () => {
    const before = groupRows()
    const refused = async (json: Json, message: string) => {
      const res = await t.http('POST', '/api/v4/groups', { token: OWEN, json })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message })
    }
    await refused({ name: 'A', path: 'ACME' }, 'Failed to save group {:path=>["has already been taken"]}')
    await refused(
      { name: 'Platform', path: 'platform', parent_id: idOf('acme') },
      'Failed to save group {:name=>["has already been taken"], :path=>["has already been taken"]}',
    )
    await refused(
      { name: 'App', path: 'app', parent_id: idOf('acme') },
      'Failed to save group {:path=>["has already been taken"]}',
    )
    await refused(
      { name: 'Bad', path: '-bad' },
      `Failed to save group {:path=>["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."]}`,
    )
    await refused(
      { name: 'Admin', path: 'admin' },
      'Failed to save group {:path=>["admin is a reserved name"]}',
    )
    await refused(
      { name: 'A', path: 'a' },
      'Failed to save group {:path=>["is too short (minimum is 2 characters)"]}',
    )
    await refused({ name: '', path: 'empty-name' }, `Failed to save group {:name=>["can't be blank"]}`)
    await refused(
      { name: 'Pub', path: 'pub', parent_id: idOf('acme'), visibility: 'public' },
      'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}',
    )
    expect(groupRows()).toEqual(before)
  })
})

const userId = (username: string) =>
  (db().prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number }).id

describe('PUT /groups/:id', () => {
  it('renames a group: the paths of its subgroups and projects follow', async () => {
    const res = await t.http('PUT', `/api/v4/groups/${idOf('acme')}`, {
      token: OWEN,
      json: { name: 'Acme Corp', path: 'acme-corp', description: 'New' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: 'Acme Corp',
      path: 'acme-corp',
      full_path: 'acme-corp',
      description: 'New',
    })
    expect(projectPaths()).toEqual(['acme-corp/platform/api', 'acme-corp/app', 'open/site'])
    const sub = await t.http('GET', '/api/v4/groups/acme-corp%2Fplatform', { token: OWEN })
    expect(sub.body).toMatchObject({ full_path: 'acme-corp/platform', full_name: 'Acme Corp / Platform' })
    const issues = await t.http('GET', '/api/v4/projects/acme-corp%2Fplatform%2Fapi/issues', { token: OWEN })
    expect((issues.body as Json[]).map((i) => i.web_url)).toEqual([
      `${t.baseUrl}/acme-corp/platform/api/-/issues/1`,
    ])
    expect((await t.http('GET', '/api/v4/groups/acme', { token: OWEN })).status).toBe(404)
  })

  it('refuses Maintainers (403), hidden groups (404), and invalid values with the validation hash, changing nothing', async () => {
    const before = groupRows()
    const maintainer = await t.http('PUT', `/api/v4/groups/${idOf('acme')}`, {
      token: MIA,
      json: { name: 'X' },
    })
    expect(maintainer.status).toBe(403)
    expect(maintainer.body).toEqual({ message: '403 Forbidden' })
    const hidden = await t.http('PUT', '/api/v4/groups/closed', { token: MIA, json: { name: 'X' } })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Group Not Found' })
    const taken = await t.http('PUT', '/api/v4/groups/open', { token: OWEN, json: { path: 'closed' } })
    expect(taken.status).toBe(400)
    expect(taken.body).toEqual({ message: { path: ['has already been taken'] } })
    const projects = await t.http('PUT', '/api/v4/groups/open', {
      token: OWEN,
      json: { visibility: 'internal' },
    })
    expect(projects.status).toBe(400)
    expect(projects.body).toEqual({
      message: {
        visibility_level: [
          'internal is not allowed since this group contains projects with higher visibility.',
        ],
      },
    })
    const above = await t.http('PUT', '/api/v4/groups/acme%2Fplatform', {
      token: OWEN,
      json: { visibility: 'internal' },
    })
    expect(above.body).toEqual({
      message: {
        visibility_level: ['internal is not allowed since the parent group has a private visibility.'],
      },
    })
    await t.http('PUT', '/api/v4/groups/acme', { token: OWEN, json: { visibility: 'public' } })
    await t.http('PUT', '/api/v4/groups/acme%2Fplatform', { token: OWEN, json: { visibility: 'public' } })
    const below = await t.http('PUT', '/api/v4/groups/acme', { token: OWEN, json: { visibility: 'private' } })
    expect(below.status).toBe(400)
    expect(below.body).toEqual({
      message: {
        visibility_level: ['private is not allowed since there are sub-groups with higher visibility.'],
      },
    })
    expect(groupRows()).toEqual(
      before.map((g) =>
        ['acme', 'acme/platform'].includes((g as Json).full_path as string)
          ? { ...(g as Json), visibility: 'public' }
          : g,
      ),
    )
  })
})

describe('DELETE /groups/:id', () => {
  it('18.x marks the group for deletion and renames it; a second delete is 400; permanently_remove removes a subgroup and all below it', async () => {
    const platform = idOf('acme/platform')
    const marked = await t.http('DELETE', `/api/v4/groups/${platform}`, { token: OWEN })
    expect(marked.status).toBe(202)
    expect(marked.body).toEqual({ message: '202 Accepted' })
    const read = await t.http('GET', `/api/v4/groups/${platform}`, { token: OWEN })
    expect(read.body).toMatchObject({
      marked_for_deletion_on: '2026-03-01',
      path: `platform-deletion_scheduled-${platform}`,
      name: `Platform-deletion_scheduled-${platform}`,
      full_path: `acme/platform-deletion_scheduled-${platform}`,
    })
    expect(projectPaths()).toContain(`acme/platform-deletion_scheduled-${platform}/api`)
    const again = await t.http('DELETE', `/api/v4/groups/${platform}`, { token: OWEN })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ message: 'Group has been already marked for deletion' })
    const wrongPath = await t.http('DELETE', `/api/v4/groups/${platform}`, {
      token: OWEN,
      query: 'permanently_remove=true&full_path=acme/platform',
    })
    expect(wrongPath.status).toBe(400)
    expect(wrongPath.body).toEqual({
      message: '`full_path` is incorrect. You must enter the complete path for the subgroup.',
    })
    const gone = await t.http('DELETE', `/api/v4/groups/${platform}`, {
      token: OWEN,
      query: `permanently_remove=true&full_path=${encodeURIComponent(`acme/platform-deletion_scheduled-${platform}`)}`,
    })
    expect(gone.status).toBe(202)
    expect((await t.http('GET', `/api/v4/groups/${platform}`, { token: OWEN })).status).toBe(404)
    expect(projectPaths()).toEqual(['acme/app', 'open/site'])
    expect(db().prepare('SELECT COUNT(*) FROM issues').pluck().get()).toBe(0)
    expect(
      db()
        .prepare("SELECT COUNT(*) FROM members WHERE source_type = 'namespace' AND source_id = ?")
        .pluck()
        .get(platform),
    ).toBe(0)
  })

  it('refuses permanently_remove on unmarked and top-level groups, and non-Owners', async () => {
    const before = groupRows()
    const unmarked = await t.http('DELETE', '/api/v4/groups/acme%2Fplatform', {
      token: OWEN,
      query: 'permanently_remove=true&full_path=acme/platform',
    })
    expect(unmarked.body).toEqual({ message: 'Group must be marked for deletion first.' })
    const top = await t.http('DELETE', '/api/v4/groups/open', {
      token: OWEN,
      query: 'permanently_remove=true',
    })
    expect(top.status).toBe(400)
    expect(top.body).toEqual({ message: '`permanently_remove` option is only available for subgroups.' })
    const maintainer = await t.http('DELETE', '/api/v4/groups/acme', { token: MIA })
    expect(maintainer.status).toBe(403)
    expect(groupRows()).toEqual(before)
  })

  it('deletes at once, with everything below, on CE before 18.0', async () => {
    const old = await startServer(seed, { gitlabVersion: '17.11.0', edition: 'ce' })
    try {
      const res = await old.http('DELETE', '/api/v4/groups/acme', { token: OWEN })
      expect(res.status).toBe(202)
      const rows = inspectDb(old.server.store)
        .prepare('SELECT full_path FROM namespaces WHERE kind = ?')
        .pluck()
      expect(rows.all('group')).toEqual(['closed', 'open'])
      expect(inspectDb(old.server.store).prepare('SELECT full_path FROM projects').pluck().all()).toEqual([
        'open/site',
      ])
      const read = await old.http('GET', '/api/v4/groups/open', { token: OWEN })
      expect(read.body).not.toHaveProperty('marked_for_deletion_on')
    } finally {
      await old.close()
    }
  })
  it('marks the group on EE before 18.0 too, as licensed adjourned deletion does, and shows marked_for_deletion_on', async () => {
    const old = await startServer(seed, {
      gitlabVersion: '17.11.0',
      edition: 'ee',
      clock: manualClock('2026-03-01T10:00:00.000Z'),
    })
    try {
      const before = await old.http('GET', '/api/v4/groups/open', { token: OWEN })
      expect(before.body).toMatchObject({ marked_for_deletion_on: null })
      const res = await old.http('DELETE', '/api/v4/groups/acme', { token: OWEN })
      expect(res.status).toBe(202)
      const acme = await old.http(
        'GET',
        '/api/v4/groups/acme-deletion_scheduled-' +
          String(
            (
              inspectDb(old.server.store)
                .prepare("SELECT id FROM namespaces WHERE path LIKE 'acme-%'")
                .get() as { id: number }
            ).id,
          ),
        { token: OWEN },
      )
      expect(acme.status).toBe(200)
      expect(acme.body).toMatchObject({ marked_for_deletion_on: '2026-03-01' })
      expect(inspectDb(old.server.store).prepare('SELECT COUNT(*) FROM projects').pluck().get()).toBe(3)
    } finally {
      await old.close()
    }
  })
})

describe('reset', () => {
  it('removes groups made through the API and brings back the seed', async () => {
    const before = groupRows()
    await create({ name: 'Tools', path: 'tools' })
    await t.http('DELETE', '/api/v4/groups/acme%2Fplatform', { token: OWEN })
    const res = await t.http('POST', '/-/emulator/reset', { token: ROOT })
    expect(res.status).toBeLessThan(300)
    expect(groupRows()).toEqual(before)
    expect(db().prepare('SELECT COUNT(*) FROM group_deletion_schedules').pluck().get()).toBe(0)
  })
})

describe('--data', () => {
  it('keeps groups made, marked and shared through the API across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-groups-'))
    try {
      const first = await startServer(seed, { data: dir, clock: manualClock('2026-03-01T10:00:00.000Z') })
      const made = await first.http('POST', '/api/v4/groups', {
        token: OWEN,
        json: { name: 'Kept', path: 'kept' },
      })
      expect(made.status).toBe(201)
      const id = (made.body as Json).id as number
      await first.http('POST', '/api/v4/groups/open/share', {
        token: OWEN,
        json: { group_id: id, group_access: 30 },
      })
      expect((await first.http('DELETE', '/api/v4/groups/kept', { token: OWEN })).status).toBe(202)
      await first.close()
      const second = await startServer(seed, { data: dir, clock: manualClock('2026-03-01T10:00:00.000Z') })
      try {
        const read = await second.http('GET', `/api/v4/groups/${id}`, { token: OWEN })
        expect(read.body).toMatchObject({
          full_path: `kept-deletion_scheduled-${id}`,
          marked_for_deletion_on: '2026-03-01',
        })
        const open = await second.http('GET', '/api/v4/groups/open', { token: OWEN })
        expect((open.body as Json).shared_with_groups).toMatchObject([
          { group_id: id, group_access_level: 30 },
        ])
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
