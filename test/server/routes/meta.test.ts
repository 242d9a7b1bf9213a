import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

const ROOT = 'glpat-root-token'
let t: TestServer
beforeAll(async () => {
  t = await startServer(widgetsSeed, { gitlabVersion: '17.11.2' })
})
afterAll(() => t.close())

describe('the calls clients make first', () => {
  it('GET /version needs a user and reports the release and edition', async () => {
    expect((await t.http('GET', '/api/v4/version')).status).toBe(401)
    const res = await t.http('GET', '/api/v4/version', { token: ROOT })
    expect(res.body).toMatchObject({ version: '17.11.2-ee', enterprise: true })
  })

  it('GET /projects/:id by path and id, with the caller permissions', async () => {
    const res = await t.http('GET', '/api/v4/projects/acme%2Fwidgets', { token: 'glpat-bob-token' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      path_with_namespace: 'acme/widgets',
      name_with_namespace: 'ACME / Widgets',
      visibility: 'private',
      namespace: { full_path: 'acme', kind: 'group' },
      open_issues_count: 4,
      permissions: { project_access: { access_level: 30 }, group_access: null },
      web_url: `${t.baseUrl}/acme/widgets`,
    })
    const id = (res.body as { id: number }).id
    expect((await t.http('GET', `/api/v4/projects/${id}`, { token: ROOT })).body).toMatchObject({ id })
    const hidden = await t.http('GET', '/api/v4/projects/acme%2Fwidgets', { token: 'glpat-carol-token' })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Project Not Found' })
  })

  it('GET /groups/:id for nested groups', async () => {
    const res = await t.http('GET', '/api/v4/groups/acme%2Fplatform', { token: ROOT })
    expect(res.body).toMatchObject({
      full_path: 'acme/platform',
      full_name: 'ACME / Platform',
      visibility: 'private',
    })
  })

  it('unknown routes and API v3 answer as GitLab does', async () => {
    const unknown = await t.http('GET', '/api/v4/nothing/here', { token: ROOT })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: '404 Not Found' })
    expect((await t.http('GET', '/api/v3/projects')).status).toBe(410)
  })

  it('health checks answer like GitLab', async () => {
    expect((await t.http('GET', '/-/health')).text).toBe('GitLab OK')
    expect((await t.http('GET', '/-/liveness')).body).toEqual({ status: 'ok' })
    expect((await t.http('GET', '/-/readiness')).body).toMatchObject({ status: 'ok' })
  })

  it('publishes an OpenAPI document built from the route schemas', async () => {
    const res = await t.http('GET', '/api/v4/openapi.json')
    const doc = res.body as {
      openapi: string
      paths: Record<string, Record<string, { parameters: { name: string }[] }>>
    }
    expect(doc.openapi).toBe('3.1.0')
    const list = doc.paths['/projects/{id}/issues']?.get
    expect(list?.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['id', 'labels', 'not', 'order_by', 'per_page']),
    )
    expect(doc.paths['/projects/{id}/issues/{issue_iid}']).toHaveProperty('put')
  })

  it('answers a body that is not JSON in Grape words, an empty one as no parameters, and never a 500', async () => {
    const path = '/api/v4/projects/acme%2Fwidgets/issues'
    const headers = { 'content-type': 'application/json' }
    const bad = await t.http('POST', path, { token: ROOT, headers, form: '{"title": ' })
    expect(bad.status).toBe(400)
    expect((bad.body as { error: string }).error).toContain('message body does not match declared format')
    const empty = await t.http('POST', path, { token: ROOT, headers, form: '' })
    expect(empty.body).toEqual({ error: 'title is missing' })
    const xml = await t.http('POST', path, {
      token: ROOT,
      headers: { 'content-type': 'text/xml' },
      form: '<x/>',
    })
    expect(xml.status).toBe(415)
    const list = await t.http('GET', path, { token: ROOT })
    expect(list.headers['x-total']).toBe('5')
  })

  it('POST /-/emulator/seed adds to a running instance (administrators only)', async () => {
    const more =
      'users: [{ username: root }, { username: dave, token: glpat-dave-token }]\nprojects: [{ path: dave/notes, issues: [{ title: Hello, author: dave }] }]\n'
    const denied = await t.http('POST', '/-/emulator/seed', {
      token: 'glpat-bob-token',
      headers: { 'content-type': 'application/yaml' },
      form: more,
    })
    expect(denied.status).toBe(403)
    const ok = await t.http('POST', '/-/emulator/seed', {
      token: ROOT,
      headers: { 'content-type': 'application/yaml' },
      form: more,
    })
    expect(ok.body).toEqual({ message: 'seeded' })
    expect(ok.status).toBe(201)
    const issues = await t.http('GET', '/api/v4/projects/dave%2Fnotes/issues', { token: 'glpat-dave-token' })
    expect((issues.body as { title: string }[]).map((i) => i.title)).toEqual(['Hello'])
    const bad = await t.http('POST', '/-/emulator/seed', {
      token: ROOT,
      json: { users: [{ name: 'no username' }] },
    })
    expect(bad.status).toBe(400)
    expect((bad.body as { message: string }).message).toContain('users[0]')
  })
})
