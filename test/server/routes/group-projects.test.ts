import { createClient, collect } from '../../../src/api/client.js'
import { startServer, type TestServer } from '../../support/server.js'

const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: alice, token: glpat-alice-token }
  - { username: bob, token: glpat-bob-token }
groups:
  - { path: acme, visibility: public, members: { alice: maintainer } }
  - { path: acme/platform, visibility: private }
  - { path: hidden, visibility: private }
projects:
  - { path: acme/widgets, visibility: private }
  - { path: acme/gadgets, visibility: public, archived: true }
  - { path: acme/internal-tool, visibility: internal }
  - { path: acme/platform/api, visibility: private }
  - { path: acme/platform/web, visibility: public }
  - { path: hidden/secret, visibility: private }
`
type Json = Record<string, unknown>
let t: TestServer
beforeAll(async () => {
  t = await startServer(seed)
})
afterAll(() => t.close())

const paths = async (group: string, query = '', token?: string) => {
  const res = await t.http('GET', `/api/v4/groups/${encodeURIComponent(group)}/projects`, { query, token })
  expect(res.status).toBe(200)
  return (res.body as Json[]).map((p) => p.path_with_namespace).sort()
}

describe('GET /groups/:id/projects', () => {
  it("lists the group's own projects, or its subtree with include_subgroups", async () => {
    expect(await paths('acme', '', 'glpat-alice-token')).toEqual([
      'acme/gadgets',
      'acme/internal-tool',
      'acme/widgets',
    ])
    expect(await paths('acme', 'include_subgroups=true', 'glpat-alice-token')).toEqual([
      'acme/gadgets',
      'acme/internal-tool',
      'acme/platform/api',
      'acme/platform/web',
      'acme/widgets',
    ])
  })

  it('shows only what the caller may read: public anonymously, internal to users, private to members', async () => {
    expect(await paths('acme', 'include_subgroups=true')).toEqual(['acme/gadgets', 'acme/platform/web'])
    expect(await paths('acme', 'include_subgroups=true', 'glpat-bob-token')).toEqual([
      'acme/gadgets',
      'acme/internal-tool',
      'acme/platform/web',
    ])
    const hidden = await t.http('GET', '/api/v4/groups/hidden/projects', { token: 'glpat-bob-token' })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Group Not Found' }])
    expect(await paths('hidden', '', 'glpat-root-token')).toEqual(['hidden/secret'])
  })

  it('filters archived and visibility, orders and paginates with GitLab headers', async () => {
    expect(await paths('acme', 'archived=false', 'glpat-alice-token')).toEqual([
      'acme/internal-tool',
      'acme/widgets',
    ])
    expect(await paths('acme', 'archived=true', 'glpat-alice-token')).toEqual(['acme/gadgets'])
    expect(await paths('acme', 'visibility=internal', 'glpat-alice-token')).toEqual(['acme/internal-tool'])
    const res = await t.http('GET', '/api/v4/groups/acme/projects', {
      token: 'glpat-alice-token',
      query: 'order_by=path&sort=asc&per_page=2',
    })
    expect((res.body as Json[]).map((p) => p.path)).toEqual(['gadgets', 'internal-tool'])
    expect(res.headers).toMatchObject({ 'x-total': '3', 'x-total-pages': '2', 'x-next-page': '2' })
    const bad = await t.http('GET', '/api/v4/groups/acme/projects', { query: 'order_by=stars' })
    expect([bad.status, bad.body]).toEqual([400, { error: 'order_by does not have a valid value' }])
  })

  it('the typed client follows the pages', async () => {
    const gitlab = createClient({ baseUrl: t.baseUrl, token: 'glpat-alice-token' })
    const all = await collect(gitlab.groups.projects('acme', { include_subgroups: true }, { perPage: 2 }))
    expect(all.map((p) => p.path_with_namespace).sort()).toHaveLength(5)
    await gitlab.close()
  })
})
