import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Projects changed through the API (lib/api/projects.rb): `PUT /projects/:id`, archive and unarchive,
 * `DELETE /projects/:id` per release (`Projects::MarkForDeletionService`, `permanently_remove`), and
 * `GET /users/:user_id/projects`. Refused requests change nothing.
 */

const ROOT = 'glpat-root-token'
const OWEN = 'glpat-owen-token'
const MAY = 'glpat-may-token'
const DEV = 'glpat-dev-token'
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: owen, name: Owen, token: ${OWEN} }
  - { username: may, name: May, token: ${MAY} }
  - { username: dev, name: Dev, token: ${DEV} }
groups:
  - { path: acme, name: ACME, visibility: public, members: { owen: owner, may: maintainer, dev: developer } }
projects:
  - path: acme/widgets
    name: Widgets
    visibility: private
    branches: [main, stable]
    issues:
      - { title: One, author: dev }
    triggers:
      - { description: ci, owner: owen }
  - path: acme/gadgets
    name: Gadgets
    visibility: public
  - path: acme/legacy
    name: "Legacy: v1!"
  - path: owen/private-tool
    visibility: private
  - path: owen/public-tool
    visibility: public
`
type Json = Record<string, unknown>
let t: TestServer
const start = async (options: { edition?: 'ce' | 'ee'; gitlabVersion?: string } = {}) => {
  t = await startServer(seed, { clock: manualClock('2026-03-01T10:00:00.000Z'), ...options })
}
afterEach(() => t.close())

const db = () => inspectDb(t.server.store)
const projectRows = () => db().prepare('SELECT * FROM projects ORDER BY id').all()
const W = '/api/v4/projects/acme%2Fwidgets'

describe('PUT /projects/:id', () => {
  beforeEach(() => start())

  it('edits name, path, description, topics and default branch for a Maintainer', async () => {
    const res = await t.http('PUT', W, {
      token: MAY,
      json: {
        name: 'Widgets 2',
        path: 'widgets-2',
        description: 'New',
        topics: 'a,b',
        default_branch: 'stable',
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: 'Widgets 2',
      path: 'widgets-2',
      path_with_namespace: 'acme/widgets-2',
      name_with_namespace: 'ACME / Widgets 2',
      description: 'New',
      topics: ['a', 'b'],
      default_branch: 'stable',
    })
    expect((await t.http('GET', '/api/v4/projects/acme%2Fwidgets-2', { token: MAY })).status).toBe(200)
    const issue = await t.http('GET', '/api/v4/projects/acme%2Fwidgets-2/issues/1', { token: MAY })
    expect(issue.body).toMatchObject({ references: { full: 'acme/widgets-2#1' } })
  })

  it.each([
    ['a Developer', DEV, { description: 'x' }, 403, { message: '403 Forbidden' }],
    ['a Maintainer changing visibility', MAY, { visibility: 'public' }, 403, { message: '403 Forbidden' }],
    [
      'no attribute',
      MAY,
      {},
      400,
      { error: expect.stringContaining('are missing, at least one parameter must be provided') },
    ],
    [
      'a taken name',
      MAY,
      { name: 'Gadgets' },
      400,
      {
        message: { 'project_namespace.name': ['has already been taken'], name: ['has already been taken'] },
      },
    ],
    ['a taken path', MAY, { path: 'gadgets' }, 400, { message: { path: ['has already been taken'] } }],
    [
      'a branch that does not exist',
      MAY,
      { default_branch: 'nope' },
      400,
      {
        message: "Could not set the default branch. Do you have a branch named 'HEAD' in your repository?",
      },
    ],
  ])('refuses %s and changes nothing', async (_what, token, json, status, body) => {
    const before = projectRows()
    const res = await t.http('PUT', W, { token, json })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
    expect(projectRows()).toEqual(before)
  })

  it('checks only the name and path that change (a seeded name GitLab would refuse stays editable)', async () => {
    const res = await t.http('PUT', '/api/v4/projects/acme%2Flegacy', {
      token: MAY,
      json: { description: 'ok' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Legacy: v1!', description: 'ok' })
    const renamed = await t.http('PUT', '/api/v4/projects/acme%2Flegacy', {
      token: MAY,
      json: { name: 'Still: bad' },
    })
    expect(renamed.status).toBe(400)
    expect(renamed.body).toEqual({
      message: {
        name: [
          "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.",
        ],
      },
    })
  })

  it('lets an Owner change visibility, within the group', async () => {
    const res = await t.http('PUT', W, { token: OWEN, json: { visibility: 'internal' } })
    expect(res.body).toMatchObject({ visibility: 'internal' })
  })

  it('answers 404 to those who cannot see the project', async () => {
    const res = await t.http('PUT', '/api/v4/projects/owen%2Fprivate-tool', {
      token: MAY,
      json: { name: 'x' },
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Project Not Found' })
  })
})

describe('archive and unarchive', () => {
  beforeEach(() => start())

  it('archives for an Owner (201 with the project), refuses issue creation, and unarchives', async () => {
    const res = await t.http('POST', `${W}/archive`, { token: OWEN })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ archived: true, path_with_namespace: 'acme/widgets' })
    const issue = await t.http('POST', `${W}/issues`, { token: OWEN, json: { title: 'No' } })
    expect(issue.status).toBe(403)
    expect(issue.body).toEqual({ message: '403 Forbidden' })
    const again = await t.http('POST', `${W}/unarchive`, { token: OWEN })
    expect(again.status).toBe(201)
    expect(again.body).toMatchObject({ archived: false })
    expect((await t.http('POST', `${W}/issues`, { token: OWEN, json: { title: 'Yes' } })).status).toBe(201)
  })

  it('refuses a Maintainer with 403', async () => {
    const res = await t.http('POST', `${W}/archive`, { token: MAY })
    expect(res.status).toBe(403)
    expect(db().prepare("SELECT archived FROM projects WHERE full_path = 'acme/widgets'").get()).toEqual({
      archived: 0,
    })
  })
})

/** Rows of every table that holds a project's things, for the project. */
const leftOf = (id: number) =>
  Object.fromEntries(
    [
      ['issues', 'project_id'],
      ['triggers', 'project_id'],
      ['project_refs', 'project_id'],
      ['labels', 'project_id'],
      ['project_settings', 'project_id'],
      ['project_exports', 'project_id'],
      ['pipelines', 'project_id'],
    ].map(([table, column]) => [
      table,
      (db().prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).get(id) as { n: number }).n,
    ]),
  )

describe('DELETE /projects/:id', () => {
  it('marks the project for deletion on 18.x (CE too), then removes it with permanently_remove', async () => {
    await start({ edition: 'ce' })
    const id = (
      db().prepare("SELECT id FROM projects WHERE full_path = 'acme/widgets'").get() as { id: number }
    ).id
    const res = await t.http('DELETE', W, { token: OWEN })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ message: '202 Accepted' })
    const marked = await t.http('GET', `/api/v4/projects/${id}`, { token: OWEN })
    expect(marked.body).toMatchObject({
      name: `Widgets-deletion_scheduled-${id}`,
      path_with_namespace: `acme/widgets-deletion_scheduled-${id}`,
      marked_for_deletion_at: '2026-03-01',
      marked_for_deletion_on: '2026-03-01',
      archived: false,
    })
    const twice = await t.http('DELETE', `/api/v4/projects/${id}`, { token: OWEN })
    expect(twice.status).toBe(400)
    expect(twice.body).toEqual({ message: 'Project has been already marked for deletion' })
    const wrong = await t.http('DELETE', `/api/v4/projects/${id}`, {
      token: OWEN,
      query: 'permanently_remove=true&full_path=acme/widgets',
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({
      message: '`full_path` is incorrect. You must enter the complete path for the project.',
    })
    const gone = await t.http('DELETE', `/api/v4/projects/${id}`, {
      token: OWEN,
      query: `permanently_remove=true&full_path=${encodeURIComponent(`acme/widgets-deletion_scheduled-${id}`)}`,
    })
    expect(gone.status).toBe(202)
    expect((await t.http('GET', `/api/v4/projects/${id}`, { token: OWEN })).status).toBe(404)
    expect(leftOf(id)).toEqual({
      issues: 0,
      triggers: 0,
      project_refs: 0,
      labels: 0,
      project_settings: 0,
      project_exports: 0,
      pipelines: 0,
    })
    const members = db().prepare(
      "SELECT COUNT(*) AS n FROM members WHERE source_type = 'project' AND source_id = ?",
    )
    expect(members.get(id)).toEqual({ n: 0 })
    expect(db().prepare('PRAGMA foreign_key_check').all()).toEqual([])
  })

  it('refuses permanently_remove of a project not marked', async () => {
    await start()
    const res = await t.http('DELETE', W, {
      token: OWEN,
      query: 'permanently_remove=true&full_path=acme/widgets',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: 'Project must be marked for deletion first.' })
  })

  it('removes at once on CE before 18.0, with its export file', async () => {
    await start({ edition: 'ce', gitlabVersion: '17.11.0' })
    const id = (
      db().prepare("SELECT id FROM projects WHERE full_path = 'acme/widgets'").get() as { id: number }
    ).id
    expect((await t.http('POST', `${W}/export`, { token: OWEN })).status).toBe(202)
    let file: string | null = null
    for (let i = 0; i < 100 && !file; i++) {
      await new Promise((r) => setTimeout(r, 50))
      file = (
        db().prepare('SELECT file FROM project_exports WHERE project_id = ?').get(id) as {
          file: string | null
        }
      )?.file
    }
    expect(file).toBeTruthy()
    const { existsSync } = await import('node:fs')
    expect(existsSync(file!)).toBe(true)
    const res = await t.http('DELETE', W, { token: OWEN })
    expect(res.status).toBe(202)
    expect((await t.http('GET', W, { token: OWEN })).status).toBe(404)
    expect(existsSync(file!)).toBe(false)
    expect(leftOf(id)).toMatchObject({ issues: 0, triggers: 0, project_exports: 0 })
  })

  it('refuses a Maintainer (403) and hidden projects (404), changing nothing', async () => {
    await start()
    const before = projectRows()
    const res = await t.http('DELETE', W, { token: MAY })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
    const hidden = await t.http('DELETE', '/api/v4/projects/owen%2Fprivate-tool', { token: MAY })
    expect(hidden.status).toBe(404)
    expect(projectRows()).toEqual(before)
  })
})

describe('GET /users/:user_id/projects', () => {
  beforeEach(() => start())

  it("lists the user's personal projects the caller can see, by id or username", async () => {
    const own = await t.http('GET', '/api/v4/users/owen/projects', { token: OWEN })
    expect(own.status).toBe(200)
    expect((own.body as Json[]).map((p) => p.path_with_namespace)).toEqual([
      'owen/public-tool',
      'owen/private-tool',
    ])
    expect(own.headers['x-total']).toBe('2')
    const owenId = (db().prepare("SELECT id FROM users WHERE username = 'owen'").get() as { id: number }).id
    const other = await t.http('GET', `/api/v4/users/${owenId}/projects`, { token: MAY })
    expect((other.body as Json[]).map((p) => p.path_with_namespace)).toEqual(['owen/public-tool'])
    const anonymous = await t.http('GET', '/api/v4/users/owen/projects', { query: 'simple=true' })
    expect(anonymous.body).toEqual([expect.not.objectContaining({ _links: expect.anything() })])
    const paged = await t.http('GET', '/api/v4/users/owen/projects', {
      token: ROOT,
      query: 'per_page=1&order_by=name&sort=asc',
    })
    expect((paged.body as Json[]).map((p) => p.path)).toEqual(['private-tool'])
    expect(paged.headers['x-next-page']).toBe('2')
  })

  it('answers 404 for an unknown user', async () => {
    const res = await t.http('GET', '/api/v4/users/nobody/projects', { token: ROOT })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 User Not Found' })
  })
})
