import { startServer, type TestServer } from '../../support/server.js'
import { snapshotStore } from '../../support/fuzz-store.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Sudo (`lib/api/helpers.rb`, `sudo!`): an administrator's token with the `sudo` scope runs a
 * request as the user the `Sudo` header or `sudo` parameter names (an id or a username).
 */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, token: ${ALICE} }
  - { username: bob, name: Bob }
projects:
  - path: alice/notes
    visibility: private
    issues:
      - { title: One, author: alice }
`
type Json = Record<string, unknown>
let t: TestServer
const clock = { now: () => new Date('2026-03-01T10:00:00.000Z') }
beforeEach(async () => {
  t = await startServer(seed, { clock })
})
afterEach(() => t.close())

const db = () => inspectDb(t.server.store)
const idOf = (username: string) =>
  (db().prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number }).id
const adminToken = async (scopes: string[]) => {
  const res = await t.http('POST', `/api/v4/users/${idOf('root')}/personal_access_tokens`, {
    token: ROOT,
    json: { name: 'admin', scopes },
  })
  expect(res.status).toBe(201)
  return (res.body as { token: string }).token
}

describe('Sudo', () => {
  it('runs as the user the header or the parameter names, by username or id', async () => {
    expect(await t.http('GET', '/api/v4/user', { token: ROOT, headers: { sudo: 'alice' } })).toMatchObject({
      status: 200,
      body: { username: 'alice', is_admin: false },
    })
    expect(await t.http('GET', '/api/v4/user', { token: ROOT, query: `sudo=${idOf('bob')}` })).toMatchObject({
      status: 200,
      body: { username: 'bob' },
    })
    // A username is found case-insensitively, as GitLab's by_username.
    expect(await t.http('GET', '/api/v4/user', { token: ROOT, headers: { sudo: 'ALICE' } })).toMatchObject({
      status: 200,
      body: { username: 'alice' },
    })
    // The parameter wins over the header.
    expect(
      await t.http('GET', '/api/v4/user', { token: ROOT, query: 'sudo=bob', headers: { sudo: 'alice' } }),
    ).toMatchObject({ body: { username: 'bob' } })
    // In a JSON body, and the request has the user's rights: bob cannot see alice's private project.
    const made = await t.http('POST', '/api/v4/projects/alice%2Fnotes/issues', {
      token: ROOT,
      json: { title: 'As Alice', sudo: 'alice' },
    })
    expect(made).toMatchObject({ status: 201, body: { author: { username: 'alice' } } })
    // The administrator's own answer (a cached list) is not bob's.
    expect((await t.http('GET', '/api/v4/projects/alice%2Fnotes/issues', { token: ROOT })).status).toBe(200)
    expect(
      await t.http('GET', '/api/v4/projects/alice%2Fnotes/issues', { token: ROOT, headers: { sudo: 'bob' } }),
    ).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
  })

  it('takes a token with the sudo scope, and refuses one without it', async () => {
    const withSudo = await adminToken(['api', 'sudo'])
    expect(
      await t.http('GET', '/api/v4/user', { token: withSudo, headers: { sudo: 'alice' } }),
    ).toMatchObject({ status: 200, body: { username: 'alice' } })
    const apiOnly = await adminToken(['api'])
    const refused = await t.http('GET', '/api/v4/user', { token: apiOnly, headers: { sudo: 'alice' } })
    expect(refused).toMatchObject({
      status: 403,
      body: {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'sudo',
      },
    })
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer realm="", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="sudo"',
    )
    // Without a Sudo the same token works as its administrator.
    expect(await t.http('GET', '/api/v4/user', { token: apiOnly })).toMatchObject({
      body: { username: 'root' },
    })
  })

  it("answers GitLab's refusals and changes nothing", async () => {
    const before = snapshotStore(db(), ['token_last_used'])
    const post = (headers: Record<string, string>, token?: string) =>
      t.http('POST', '/api/v4/projects/alice%2Fnotes/issues', {
        ...(token ? { token } : {}),
        headers,
        json: { title: 'Refused' },
      })
    expect(await post({ sudo: 'bob' }, ALICE)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Must be admin to use sudo' },
    })
    expect(await post({ sudo: 'nobody' }, ROOT)).toMatchObject({
      status: 404,
      body: { message: "404 User with ID or username 'nobody' Not Found" },
    })
    expect(await post({ sudo: '9999' }, ROOT)).toMatchObject({
      status: 404,
      body: { message: "404 User with ID or username '9999' Not Found" },
    })
    expect(await post({ sudo: 'alice' })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    })
    expect(snapshotStore(db(), ['token_last_used'])).toEqual(before)
    expect(db().prepare("SELECT COUNT(*) AS n FROM issues WHERE title = 'Refused'").get()).toEqual({ n: 0 })
  })
})

describe('impersonation tokens', () => {
  const base = () => `/api/v4/users/${idOf('alice')}/impersonation_tokens`
  const make = async (json: Json) => {
    const res = await t.http('POST', base(), { token: ROOT, json })
    expect(res.status).toBe(201)
    return res.body as Json & { id: number; token: string }
  }

  it('an administrator makes one; it signs in as the user, and is listed, read and revoked', async () => {
    const made = await make({ name: 'support', scopes: ['api'], expires_at: '2026-12-01' })
    expect(Object.keys(made)).toEqual([
      'id',
      'name',
      'revoked',
      'created_at',
      'description',
      'scopes',
      'user_id',
      'last_used_at',
      'active',
      'expires_at',
      'last_used_ips',
      'impersonation',
      'token',
    ])
    expect(made).toMatchObject({
      name: 'support',
      scopes: ['api'],
      user_id: idOf('alice'),
      active: true,
      impersonation: true,
      last_used_ips: [],
    })
    expect(await t.http('GET', '/api/v4/user', { token: made.token })).toMatchObject({
      status: 200,
      body: { username: 'alice' },
    })
    const listed = await t.http('GET', base(), { token: ROOT })
    expect(listed).toMatchObject({ status: 200, body: [expect.objectContaining({ id: made.id })] })
    expect(listed.body as Json[]).not.toContainEqual(expect.objectContaining({ token: expect.anything() }))
    expect(await t.http('GET', `${base()}/${made.id}`, { token: ROOT })).toMatchObject({
      status: 200,
      body: { id: made.id, impersonation: true },
    })
    expect((await t.http('DELETE', `${base()}/${made.id}`, { token: ROOT })).status).toBe(204)
    expect((await t.http('GET', '/api/v4/user', { token: made.token })).status).toBe(401)
    expect((await t.http('GET', base(), { token: ROOT, query: 'state=active' })).body).toEqual([])
    expect((await t.http('GET', base(), { token: ROOT, query: 'state=inactive' })).body).toEqual([
      expect.objectContaining({ id: made.id, revoked: true, active: false }),
    ])
    // A personal access token of the user is no impersonation token.
    expect((await t.http('GET', base(), { token: ROOT, query: 'state=all' })).body).toHaveLength(1)
  })

  it("is not its user's to list, read or revoke (PersonalAccessTokenPolicy's is_owner)", async () => {
    const made = await make({ name: 'support', scopes: ['api'], expires_at: '2026-12-01' })
    const listed = (await t.http('GET', '/api/v4/personal_access_tokens', { token: ALICE })).body as Json[]
    expect(listed.map((x) => x.id)).not.toContain(made.id)
    expect(listed).toHaveLength(1) // alice's seeded token
    expect(
      ((await t.http('GET', '/api/v4/personal_access_tokens', { token: ROOT })).body as Json[]).map(
        (x) => x.id,
      ),
    ).toContain(made.id)
    expect(await t.http('GET', `/api/v4/personal_access_tokens/${made.id}`, { token: ALICE })).toMatchObject({
      status: 404,
    })
    expect(
      await t.http('DELETE', `/api/v4/personal_access_tokens/${made.id}`, { token: ALICE }),
    ).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Not permitted to revoke' },
    })
    expect((await t.http('GET', '/api/v4/user', { token: made.token })).status).toBe(200)
  })

  it('refuses: 401 anonymous, 403 non-administrators, 404 user or token, 400 model errors; nothing stored', async () => {
    const before = snapshotStore(db(), ['token_last_used'])
    const ok = { name: 'x', scopes: ['api'], expires_at: '2026-12-01' }
    expect(await t.http('POST', base(), { json: ok })).toMatchObject({ status: 401 })
    expect(await t.http('POST', base(), { token: ALICE, json: ok })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect(await t.http('GET', base(), { token: ALICE })).toMatchObject({ status: 403 })
    expect(
      await t.http('POST', '/api/v4/users/9999/impersonation_tokens', { token: ROOT, json: ok }),
    ).toMatchObject({ status: 404, body: { message: '404 User Not Found' } })
    expect(await t.http('GET', `${base()}/9999`, { token: ROOT })).toMatchObject({
      status: 404,
      body: { message: '404 Impersonation Token Not Found' },
    })
    expect(await t.http('POST', base(), { token: ROOT, json: { ...ok, scopes: [] } })).toMatchObject({
      status: 400,
      body: { message: { scopes: ["can't be blank"] } },
    })
    expect(await t.http('POST', base(), { token: ROOT, json: { ...ok, scopes: ['all'] } })).toMatchObject({
      status: 400,
      body: { message: { scopes: ['can only contain available scopes'] } },
    })
    expect(await t.http('POST', base(), { token: ROOT, json: { name: 'x', scopes: ['api'] } })).toMatchObject(
      {
        status: 400,
        body: { message: { expires_at: ["can't be blank"] } },
      },
    )
    expect(await t.http('POST', base(), { token: ROOT, json: { scopes: ['api'] } })).toMatchObject({
      status: 400,
      body: { error: 'name is missing' },
    })
    expect(snapshotStore(db(), ['token_last_used'])).toEqual(before)
  })
})

describe('POST /user/personal_access_tokens', () => {
  it('makes the caller a k8s_proxy token expiring tomorrow, which cannot call the API', async () => {
    const res = await t.http('POST', '/api/v4/user/personal_access_tokens', {
      token: ALICE,
      json: { name: 'kube', scopes: ['k8s_proxy'] },
    })
    expect(res.status).toBe(201)
    const made = res.body as Json & { token: string }
    expect(made).toMatchObject({ name: 'kube', scopes: ['k8s_proxy'], user_id: idOf('alice'), active: true })
    expect(made.expires_at).toBe('2026-03-02')
    expect(await t.http('GET', '/api/v4/user', { token: made.token })).toMatchObject({
      status: 403,
      body: { error: 'insufficient_scope' },
    })
  })

  it('refuses other scopes and anonymous callers; nothing stored', async () => {
    const count = () => db().prepare('SELECT COUNT(*) AS n FROM personal_access_tokens').get()
    const before = count()
    expect(
      await t.http('POST', '/api/v4/user/personal_access_tokens', {
        token: ALICE,
        json: { name: 'x', scopes: ['api'] },
      }),
    ).toMatchObject({ status: 400, body: { error: 'scopes does not have a valid value' } })
    expect(
      await t.http('POST', '/api/v4/user/personal_access_tokens', {
        json: { name: 'x', scopes: ['k8s_proxy'] },
      }),
    ).toMatchObject({ status: 401 })
    expect(count()).toEqual(before)
  })
})
