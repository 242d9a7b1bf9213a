import { startServer, type TestServer } from '../../support/server.js'

/* One namespace and whether a path is taken (`lib/api/namespaces.rb`). */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const OTTO = 'glpat-otto-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: alice, token: ${ALICE} }
  - { username: otto, token: ${OTTO} }
groups:
  - { path: acme, visibility: public, members: { alice: developer } }
  - { path: acme/sub, visibility: private }
  - { path: acme1, visibility: private }
`
let t: TestServer
beforeAll(async () => {
  t = await startServer(seed)
})
afterAll(() => t.close())

/** One answer, without its X-Request-Id (each answer has its own): what two reads can compare. */
const get = async (path: string, token?: string, query?: string) => {
  const res = await t.http('GET', `/api/v4/namespaces/${path}`, {
    ...(token ? { token } : {}),
    ...(query ? { query } : {}),
  })
  const { 'x-request-id': requestId, ...headers } = res.headers
  expect(requestId).toMatch(/^[0-9A-Z]{26}$/)
  return { ...res, headers }
}

describe('GET /namespaces/:id', () => {
  it('shows a group to its members (inherited too) and a user namespace to its user, by id or path', async () => {
    const sub = await get('acme%2Fsub', ALICE)
    expect(sub).toMatchObject({
      status: 200,
      body: {
        name: 'sub',
        path: 'sub',
        kind: 'group',
        full_path: 'acme/sub',
        web_url: `${t.baseUrl}/groups/acme/sub`,
      },
    })
    const { id } = sub.body as { id: number }
    expect(await get(String(id), ALICE)).toEqual(sub)
    expect(await get('alice', ALICE)).toMatchObject({
      status: 200,
      body: { kind: 'user', full_path: 'alice' },
    })
    expect(await get('otto', ROOT)).toMatchObject({ status: 200, body: { kind: 'user' } })
  })

  it("answers 404 Namespace Not Found to non-members, even of a public group, and for others' user namespaces", async () => {
    const missing = { status: 404, body: { message: '404 Namespace Not Found' } }
    expect(await get('acme', OTTO)).toMatchObject(missing)
    expect(await get('alice', OTTO)).toMatchObject(missing)
    expect(await get('nope', OTTO)).toMatchObject(missing)
    expect(await get('999999', ROOT)).toMatchObject(missing)
    expect(await get('acme')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } })
  })
})

describe('GET /namespaces/:namespace/exists', () => {
  it('says whether the path is taken at the top level (any case) and suggests a free one', async () => {
    expect(await get('ACME/exists', OTTO)).toMatchObject({
      status: 200,
      body: { exists: true, suggests: ['ACME2'] },
    })
    expect(await get('free/exists', OTTO)).toMatchObject({
      status: 200,
      body: { exists: false, suggests: [] },
    })
    // `sub` exists under acme only.
    expect((await get('sub/exists', OTTO)).body).toEqual({ exists: false, suggests: [] })
    const acme = (await get('acme', ROOT)).body as { id: number }
    expect((await get('sub/exists', OTTO, `parent_id=${acme.id}`)).body).toEqual({
      exists: true,
      suggests: ['sub1'],
    })
    expect(await get('sub/exists', OTTO, 'parent_id=x')).toMatchObject({
      status: 400,
      body: { error: 'parent_id is invalid' },
    })
    expect(await get('acme/exists')).toMatchObject({ status: 401 })
  })
})
