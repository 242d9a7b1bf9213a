import { serverEach } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Projects made through the API (`POST /projects`, `POST /projects/user/:user_id`; lib/api/projects.rb,
 * app/services/projects/create_service.rb): where, who may, names and paths, GitLab's refusals, and
 * nothing stored when a request is refused.
 */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const DEV = 'glpat-dev-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, token: ${ALICE} }
  - { username: dev, name: Dev, token: ${DEV} }
groups:
  - { path: acme, name: ACME, visibility: internal, members: { alice: maintainer, dev: developer } }
  - { path: hidden, visibility: private }
projects:
  - path: acme/widgets
    name: Widgets
`
type Json = Record<string, unknown>
const t = serverEach(seed, () => ({ clock: manualClock('2026-03-01T10:00:00.000Z') }))

const db = () => inspectDb(t.server.store)
const projectRows = () => db().prepare('SELECT full_path, name FROM projects ORDER BY id').all()
const idOf = (table: string, column: string, value: string) =>
  (db().prepare(`SELECT id FROM ${table} WHERE ${column} = ?`).get(value) as { id: number }).id
const post = (json: Json, token = ALICE) => t.http('POST', '/api/v4/projects', { token, json })

describe('POST /projects', () => {
  it("creates a private project in the caller's namespace, its owner an Owner member", async () => {
    const res = await post({ name: 'My Tool' })
    expect(res.status).toBe(201)
    const body = res.body as Json
    expect(body).toMatchObject({
      name: 'My Tool',
      path: 'my-tool',
      path_with_namespace: 'alice/my-tool',
      name_with_namespace: 'Alice / My Tool',
      visibility: 'private',
      default_branch: 'main',
      namespace: { kind: 'user', full_path: 'alice' },
      archived: false,
      topics: [],
      shared_with_groups: [],
      marked_for_deletion_at: null,
      web_url: `${t.baseUrl}/alice/my-tool`,
      created_at: '2026-03-01T10:00:00.000Z',
    })
    expect(body).not.toHaveProperty('permissions')
    const members = db()
      .prepare("SELECT user_id, access_level FROM members WHERE source_type = 'project' AND source_id = ?")
      .all(body.id)
    expect(members).toEqual([{ user_id: idOf('users', 'username', 'alice'), access_level: 50 }])
    const read = await t.http('GET', '/api/v4/projects/alice%2Fmy-tool', { token: ALICE })
    expect(read.body).toMatchObject({ id: body.id, permissions: { project_access: { access_level: 50 } } })
  })

  it('derives a name from a path and keeps a name that is a path already', async () => {
    expect((await post({ path: 'tool_1' })).body).toMatchObject({ name: 'tool_1', path: 'tool_1' })
    expect((await post({ name: 'plain.name' })).body).toMatchObject({
      name: 'plain.name',
      path: 'plain.name',
    })
    expect((await post({ name: 'Ça va -- Été' })).body).toMatchObject({ path: 'ca-va-ete' })
  })

  it('creates in a group where the caller is Maintainer, with topics, description and visibility', async () => {
    const res = await post({
      name: 'Gadgets',
      namespace_id: idOf('namespaces', 'full_path', 'acme'),
      description: 'Small things',
      visibility: 'internal',
      topics: ['tools', ' tools', 'cli'],
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      // A name with a path's form is the path as it is (`set_project_name_from_path`).
      path_with_namespace: 'acme/Gadgets',
      description: 'Small things',
      visibility: 'internal',
      topics: ['tools', 'cli'],
      tag_list: ['tools', 'cli'],
    })
    const members = db().prepare("SELECT * FROM members WHERE source_type = 'project' AND source_id = ?")
    expect(members.all((res.body as Json).id)).toEqual([])
  })

  it('sets feature access levels, a level winning over its legacy boolean', async () => {
    const res = await post({
      name: 'Features',
      issues_access_level: 'private',
      issues_enabled: false,
      merge_requests_enabled: false,
      jobs_enabled: false,
    })
    expect(res.body).toMatchObject({
      issues_enabled: true,
      issues_access_level: 'private',
      merge_requests_enabled: false,
      merge_requests_access_level: 'disabled',
      jobs_enabled: false,
      builds_access_level: 'disabled',
      wiki_enabled: true,
      wiki_access_level: 'enabled',
    })
    const off = await t.http('PUT', `/api/v4/projects/${(res.body as Json).id}`, {
      token: ALICE,
      json: { issues_access_level: 'disabled' },
    })
    expect(off.body).toMatchObject({
      issues_enabled: false,
      issues_access_level: 'disabled',
      jobs_enabled: false,
    })
    const issue = await t.http('POST', `/api/v4/projects/${(res.body as Json).id}/issues`, {
      token: ALICE,
      json: { title: 'No issues here' },
    })
    expect(issue.status).toBe(403)
  })

  it('makes a first commit on the default branch with initialize_with_readme', async () => {
    const res = await post({ name: 'Readme', initialize_with_readme: true, default_branch: 'trunk' })
    expect(res.body).toMatchObject({ default_branch: 'trunk' })
    const refs = db()
      .prepare('SELECT kind, name, sha FROM project_refs WHERE project_id = ?')
      .all((res.body as Json).id)
    expect(refs).toEqual([{ kind: 'branch', name: 'trunk', sha: expect.stringMatching(/^[0-9a-f]{40}$/) }])
    const commit = db()
      .prepare('SELECT type FROM git_objects WHERE sha = ?')
      .get((refs[0] as Json).sha)
    expect(commit).toEqual({ type: 'commit' })
  })

  it('gives issues iids from 1 in a new project', async () => {
    const id = ((await post({ name: 'Fresh' })).body as Json).id
    const issue = await t.http('POST', `/api/v4/projects/${id}/issues`, {
      token: ALICE,
      json: { title: 'First' },
    })
    expect(issue.status).toBe(201)
    expect(issue.body).toMatchObject({ iid: 1, project_id: id })
  })

  it.each([
    [
      'neither name nor path',
      {},
      400,
      { error: 'name, path are missing, at least one parameter must be provided' },
    ],
    [
      'a taken name and path',
      { name: 'Widgets', namespace_id: 'acme' },
      400,
      {
        message: {
          'project_namespace.name': ['has already been taken'],
          name: ['has already been taken'],
          path: ['has already been taken'],
        },
      },
    ],
    [
      'a taken path',
      { name: 'Other', path: 'WIDGETS', namespace_id: 'acme' },
      400,
      {
        message: { path: ['has already been taken'] },
      },
    ],
    ['a reserved path', { path: 'badges' }, 400, { message: { path: ['badges is a reserved name'] } }],
    [
      'an invalid path',
      { name: 'x', path: '-x.git' },
      400,
      {
        message: {
          path: [
            "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
          ],
        },
      },
    ],
    [
      'a visibility above the group',
      { name: 'Loud', namespace_id: 'acme', visibility: 'public' },
      400,
      {
        message: { visibility_level: ['public is not allowed in a internal group.'] },
      },
    ],
    [
      'a group where the caller is Developer',
      { name: 'Nope', namespace_id: 'acme' },
      400,
      {
        message: { namespace: ['is not valid'] },
      },
      DEV,
    ],
    [
      'a private group the caller cannot see',
      { name: 'Nope', namespace_id: 'hidden' },
      400,
      {
        message: { namespace: ['is not valid'] },
      },
    ],
    [
      'a namespace that does not exist',
      { name: 'Nope', namespace_id: 9999 },
      400,
      {
        message: { namespace: ['is not valid'] },
      },
    ],
    [
      'an unknown visibility',
      { name: 'Nope', visibility: 'secret' },
      400,
      {
        error: 'visibility does not have a valid value',
      },
    ],
  ])('refuses %s and stores nothing', async (_what, json, status, body, token = ALICE) => {
    const input = { ...json } as Json
    if (typeof input.namespace_id === 'string')
      input.namespace_id = idOf('namespaces', 'full_path', input.namespace_id)
    const before = projectRows()
    const res = await post(input, token)
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
    expect(projectRows()).toEqual(before)
  })

  it('refuses anonymous callers with 401', async () => {
    const res = await t.http('POST', '/api/v4/projects', { json: { name: 'x' } })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: '401 Unauthorized' })
  })

  it("refuses a personal project past the user's projects_limit, in GitLab's words", async () => {
    const alice = idOf('users', 'username', 'alice')
    db().prepare('INSERT INTO user_profiles (user_id, projects_limit) VALUES (?, 1)').run(alice)
    expect((await post({ name: 'One' })).status).toBe(201)
    const before = projectRows()
    const res = await post({ name: 'Two' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({
      error: ['Your project limit is 1 projects! Please contact your administrator to increase it'],
    })
    // A group project does not count against it.
    expect((await post({ name: 'Two', namespace_id: idOf('namespaces', 'full_path', 'acme') })).status).toBe(
      201,
    )
    db().prepare('UPDATE user_profiles SET projects_limit = 0 WHERE user_id = ?').run(alice)
    expect((await post({ name: 'Three' })).body).toEqual({
      error: ['Personal project creation is not allowed. Please contact your administrator with questions'],
    })
    expect(projectRows().length).toBe(before.length + 1)
  })
})

describe('POST /projects/user/:user_id', () => {
  it("creates in the user's namespace for an administrator", async () => {
    const alice = idOf('users', 'username', 'alice')
    const res = await t.http('POST', `/api/v4/projects/user/${alice}`, {
      token: ROOT,
      json: { name: 'For Alice' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ path_with_namespace: 'alice/for-alice', creator_id: alice })
  })

  it('refuses others (403), an unknown user (404) and a missing name (400)', async () => {
    const alice = idOf('users', 'username', 'alice')
    const before = projectRows()
    const mine = await t.http('POST', `/api/v4/projects/user/${alice}`, { token: ALICE, json: { name: 'X' } })
    expect(mine.status).toBe(403)
    expect(mine.body).toEqual({ message: '403 Forbidden' })
    const nobody = await t.http('POST', '/api/v4/projects/user/9999', { token: ROOT, json: { name: 'X' } })
    expect(nobody.status).toBe(404)
    expect(nobody.body).toEqual({ message: '404 User Not Found' })
    const unnamed = await t.http('POST', `/api/v4/projects/user/${alice}`, {
      token: ROOT,
      json: { path: 'x' },
    })
    expect(unnamed.status).toBe(400)
    expect(unnamed.body).toEqual({ error: 'name is missing' })
    expect(projectRows()).toEqual(before)
  })
})

describe('reset', () => {
  it('removes projects made through the API and everything under them', async () => {
    const id = ((await post({ name: 'Gone', initialize_with_readme: true, topics: ['x'] })).body as Json).id
    await t.http('POST', `/api/v4/projects/${id}/issues`, { token: ALICE, json: { title: 'One' } })
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBeLessThan(300)
    expect(projectRows()).toEqual([{ full_path: 'acme/widgets', name: 'Widgets' }])
    expect(db().prepare('SELECT COUNT(*) AS n FROM project_settings').get()).toEqual({ n: 0 })
    const gone = await t.http('GET', `/api/v4/projects/${id}`, { token: ALICE })
    expect(gone.status).toBe(404)
  })
})
