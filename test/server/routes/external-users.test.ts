import { startServer, type TestServer } from '../../support/server.js'
import { externalUsersSeed } from '../../support/seeds.js'

/*
 * External users (`User#external?`): internal projects and groups are hidden from them unless they are
 * members (`internal_access` in app/policies/project_policy.rb, `Project.public_or_visible_to_user`);
 * public ones stay visible. A normal signed-in user sees the internal ones.
 */

const ROOT = 'glpat-root-token'
const OUT = 'glpat-ext-out-token' // extout: made external, no member
const IN = 'glpat-ext-in-token' // extin: made external, Reporter of corp/member
const BOB = 'glpat-bob-token' // normal user, no member
type Json = Record<string, unknown>

let t: TestServer
beforeAll(async () => {
  t = await startServer(externalUsersSeed)
  for (const username of ['extout', 'extin']) {
    const [user] = (await t.http('GET', '/api/v4/users', { token: ROOT, query: `username=${username}` }))
      .body as Json[]
    const res = await t.http('PUT', `/api/v4/users/${user!.id as number}`, {
      token: ROOT,
      json: { external: true },
    })
    expect(res.status).toBe(200)
  }
})
afterAll(() => t.close())

const paths = async (token: string, url: string, query = ''): Promise<string[]> => {
  const res = await t.http('GET', url, { token, query })
  expect([url, res.status]).toEqual([url, 200])
  return (res.body as Json[]).map((p) => p.path_with_namespace as string).sort()
}
const issueTitles = async (token: string, url: string): Promise<string[]> => {
  const res = await t.http('GET', url, { token, query: 'scope=all' })
  expect([url, res.status]).toEqual([url, 200])
  return (res.body as Json[]).map((i) => i.title as string).sort()
}
const status = async (token: string, url: string) => (await t.http('GET', url, { token })).status

describe('external users and internal projects and groups', () => {
  it('reads: an external non-member gets 404 for internal projects and groups, public ones stay readable', async () => {
    const urls = [
      '/api/v4/projects/corp%2Fshared',
      '/api/v4/projects/corp%2Fshared/issues/1',
      '/api/v4/projects/corp%2Fmember',
      '/api/v4/groups/corp',
      '/api/v4/projects/pub%2Fopen',
      '/api/v4/groups/pub',
    ]
    const all = (token: string) => Promise.all(urls.map((u) => status(token, u)))
    expect(await all(OUT)).toEqual([404, 404, 404, 404, 200, 200])
    expect(await all(IN)).toEqual([404, 404, 200, 200, 200, 200])
    expect(await all(BOB)).toEqual([200, 200, 200, 200, 200, 200])
    const res = await t.http('GET', '/api/v4/projects/corp%2Fshared', { token: OUT })
    expect(res.body).toEqual({ message: '404 Project Not Found' })
  })

  it('GET /projects and a group’s projects list only public ones and those the external user is a member of', async () => {
    expect(await paths(OUT, '/api/v4/projects')).toEqual(['pub/open'])
    expect(await paths(IN, '/api/v4/projects')).toEqual(['corp/member', 'pub/open'])
    expect(await paths(BOB, '/api/v4/projects')).toEqual(['corp/member', 'corp/shared', 'pub/open'])
    expect(await paths(OUT, '/api/v4/projects', 'search=shared')).toEqual([])
    expect(await paths(IN, '/api/v4/groups/corp/projects')).toEqual(['corp/member'])
    expect(await paths(BOB, '/api/v4/groups/corp/projects')).toEqual(['corp/member', 'corp/shared'])
  })

  it('GET /groups leaves out internal groups the external user has nothing in', async () => {
    const groups = async (token: string) =>
      ((await t.http('GET', '/api/v4/groups', { token, query: 'all_available=true' })).body as Json[])
        .map((g) => g.full_path as string)
        .sort()
    expect(await groups(OUT)).toEqual(['pub'])
    expect(await groups(IN)).toEqual(['corp', 'pub'])
    expect(await groups(BOB)).toEqual(['corp', 'pub'])
  })

  it('issues across projects come only from projects the external user may read', async () => {
    expect(await issueTitles(OUT, '/api/v4/issues')).toEqual(['Open issue'])
    expect(await issueTitles(IN, '/api/v4/issues')).toEqual(['Member issue', 'Open issue'])
    expect(await issueTitles(BOB, '/api/v4/issues')).toEqual(['Member issue', 'Open issue', 'Shared issue'])
    expect(await issueTitles(IN, '/api/v4/groups/corp/issues')).toEqual(['Member issue'])
    expect(await issueTitles(BOB, '/api/v4/groups/corp/issues')).toEqual(['Member issue', 'Shared issue'])
  })
})
