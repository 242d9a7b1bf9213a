import { startServer, type TestServer } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Personal access tokens through the API (`lib/api/personal_access_tokens.rb`, `lib/api/users.rb`):
 * made by administrators, listed, read, revoked and rotated by their owners; a token made here
 * authenticates at once, with its scopes and expiry, and is stored only as its digest.
 */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: alice, token: ${ALICE} }
  - { username: bob }
projects:
  - path: alice/notes
    issues:
      - { title: One, author: alice }
`
type Json = Record<string, unknown>
let t: TestServer
const clock = { t: Date.parse('2026-03-01T10:00:00.000Z'), now: () => new Date(clock.t) }
beforeEach(async () => {
  clock.t = Date.parse('2026-03-01T10:00:00.000Z')
  t = await startServer(seed, { clock })
})
afterEach(() => t.close())

const db = () => inspectDb(t.server.store)
const idOf = (username: string) =>
  (db().prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number }).id
const tokenCount = () =>
  (db().prepare('SELECT COUNT(*) AS n FROM personal_access_tokens').get() as { n: number }).n
const make = async (username: string, json: Json) => {
  const res = await t.http('POST', `/api/v4/users/${idOf(username)}/personal_access_tokens`, {
    token: ROOT,
    json,
  })
  expect(res.status).toBe(201)
  return res.body as Json & { id: number; token: string }
}

describe('POST /users/:user_id/personal_access_tokens', () => {
  it("reads expires_at as Ruby's Date.parse: a date-time's date as written (go-gitlab sends a time)", async () => {
    const made = await make('bob', {
      name: 'go',
      scopes: ['api'],
      expires_at: '2026-04-01T23:30:00.123456789-05:00',
    })
    expect(made.expires_at).toBe('2026-04-01')
    const imp = await t.http('POST', `/api/v4/users/${idOf('bob')}/impersonation_tokens`, {
      token: ROOT,
      json: { name: 'go', scopes: ['api'], expires_at: '2026-04-02T07:25:37.5Z' },
    })
    expect([imp.status, (imp.body as Json).expires_at]).toEqual([201, '2026-04-02'])
  })

  it('answers the token once, stores only its digest, and the token authenticates at once', async () => {
    const made = await make('bob', { name: 'ci', scopes: ['api'], expires_at: '2026-04-01' })
    expect(made).toEqual({
      id: made.id,
      name: 'ci',
      revoked: false,
      created_at: '2026-03-01T10:00:00.000Z',
      description: null,
      scopes: ['api'],
      user_id: idOf('bob'),
      last_used_at: null,
      active: true,
      expires_at: '2026-04-01',
      token: expect.stringMatching(/^glpat-[\w-]{20}$/),
    })
    const stored = db().prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(made.id) as Json
    expect(JSON.stringify(stored)).not.toContain(made.token)
    expect(await t.http('GET', '/api/v4/user', { token: made.token })).toMatchObject({
      status: 200,
      body: { username: 'bob' },
    })
    expect(
      await t.http('GET', `/api/v4/personal_access_tokens/${made.id}`, { token: made.token }),
    ).toMatchObject({
      status: 200,
      body: { id: made.id, name: 'ci' },
    })
    expect(
      (await t.http('GET', `/api/v4/personal_access_tokens/${made.id}`, { token: made.token })).body,
    ).not.toHaveProperty('token')
  })

  it('expires in 365 days by default; a token stops working on its expiry date', async () => {
    const made = await make('bob', { name: 'default', scopes: 'api,read_user' })
    expect(made).toMatchObject({ expires_at: '2027-03-01', scopes: ['api', 'read_user'] })
    const short = await make('bob', { name: 'short', scopes: ['api'], expires_at: '2026-03-02' })
    expect((await t.http('GET', '/api/v4/user', { token: short.token })).status).toBe(200)
    clock.t = Date.parse('2026-03-02T00:00:00.000Z')
    expect(await t.http('GET', '/api/v4/user', { token: short.token })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    })
    expect(await t.http('GET', `/api/v4/personal_access_tokens/${short.id}`, { token: ROOT })).toMatchObject({
      body: { active: false },
    })
  })

  it('enforces scopes: read_api reads only, read_user only the users API', async () => {
    const reader = await make('alice', { name: 'r', scopes: ['read_api'] })
    expect(
      (await t.http('GET', '/api/v4/projects/alice%2Fnotes/issues', { token: reader.token })).status,
    ).toBe(200)
    const refused = await t.http('POST', '/api/v4/projects/alice%2Fnotes/issues', {
      token: reader.token,
      json: { title: 'No' },
    })
    expect(refused).toMatchObject({
      status: 403,
      body: {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      },
    })
    expect(refused.headers['www-authenticate']).toContain('error="insufficient_scope"')
    const userOnly = await make('alice', { name: 'u', scopes: ['read_user'] })
    expect((await t.http('GET', '/api/v4/user', { token: userOnly.token })).status).toBe(200)
    expect(
      await t.http('GET', '/api/v4/projects/alice%2Fnotes/issues', { token: userOnly.token }),
    ).toMatchObject({
      status: 403,
      body: { error: 'insufficient_scope', scope: 'api read_api' },
    })
    expect(db().prepare("SELECT COUNT(*) AS n FROM issues WHERE title = 'No'").get()).toEqual({ n: 0 })
  })

  it('refuses: 401 anonymous, 403 non-administrators, 404 unknown user, 400 bad scopes or date; nothing stored', async () => {
    const before = tokenCount()
    const post = (json: Json, token?: string, user = idOf('bob')) =>
      t.http('POST', `/api/v4/users/${user}/personal_access_tokens`, { ...(token ? { token } : {}), json })
    expect(await post({ name: 'x', scopes: ['api'] })).toMatchObject({ status: 401 })
    expect(await post({ name: 'x', scopes: ['api'] }, ALICE)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect(await post({ name: 'x', scopes: ['api'] }, ROOT, 9999)).toMatchObject({
      status: 404,
      body: { message: '404 User Not Found' },
    })
    expect(await post({ name: 'x', scopes: ['everything'] }, ROOT)).toMatchObject({
      status: 400,
      body: { error: 'scopes does not have a valid value' },
    })
    expect(await post({}, ROOT)).toMatchObject({
      status: 400,
      body: { error: 'name is missing, scopes is missing' },
    })
    expect(await post({ name: 'x', scopes: ['api'], expires_at: '2026-02-30' }, ROOT)).toMatchObject({
      status: 400,
      body: { error: 'expires_at is invalid' },
    })
    expect(tokenCount()).toBe(before)
  })
})

describe('/personal_access_tokens', () => {
  it('lists the caller’s own; administrators anyone’s or user_id’s', async () => {
    const bobs = await make('bob', { name: 'b', scopes: ['api'] })
    const alices = await make('alice', { name: 'a', scopes: ['api'] })
    const own = await t.http('GET', '/api/v4/personal_access_tokens', { token: alices.token })
    expect((own.body as Json[]).map((x) => x.user_id)).toEqual([idOf('alice'), idOf('alice')])
    expect(own.headers['x-total']).toBe('2')
    const ofBob = await t.http('GET', '/api/v4/personal_access_tokens', {
      token: ROOT,
      query: `user_id=${idOf('bob')}`,
    })
    expect(ofBob.body).toEqual([expect.objectContaining({ id: bobs.id, name: 'b' })])
    expect(
      await t.http('GET', '/api/v4/personal_access_tokens', {
        token: ALICE,
        query: `user_id=${idOf('bob')}`,
      }),
    ).toMatchObject({ status: 401 })
    expect(
      await t.http('GET', '/api/v4/personal_access_tokens', { token: ROOT, query: 'user_id=9999' }),
    ).toMatchObject({
      status: 404,
    })
  })

  it('self: reads, rotates and revokes the token the request carries', async () => {
    const made = await make('bob', { name: 'mine', scopes: ['api'] })
    expect(await t.http('GET', '/api/v4/personal_access_tokens/self', { token: made.token })).toMatchObject({
      status: 200,
      body: { id: made.id, name: 'mine' },
    })
    const rotated = await t.http('POST', '/api/v4/personal_access_tokens/self/rotate', { token: made.token })
    expect(rotated).toMatchObject({
      status: 200,
      body: { name: 'mine', scopes: ['api'], expires_at: '2026-03-08', active: true, revoked: false },
    })
    const fresh = (rotated.body as { token: string; id: number }).token
    expect(fresh).not.toBe(made.token)
    expect((await t.http('GET', '/api/v4/user', { token: made.token })).status).toBe(401)
    expect(await t.http('DELETE', '/api/v4/personal_access_tokens/self', { token: fresh })).toMatchObject({
      status: 204,
      text: '',
    })
    expect((await t.http('GET', '/api/v4/user', { token: fresh })).status).toBe(401)
  })

  it("hides others' tokens (404), revokes one's own and an administrator anyone's, and refuses twice", async () => {
    const bobs = await make('bob', { name: 'b', scopes: ['api'] })
    expect(await t.http('GET', `/api/v4/personal_access_tokens/${bobs.id}`, { token: ALICE })).toMatchObject({
      status: 404,
      body: { message: '404 Not Found' },
    })
    expect(
      await t.http('POST', `/api/v4/personal_access_tokens/${bobs.id}/rotate`, { token: ALICE }),
    ).toMatchObject({
      status: 404,
    })
    expect(
      await t.http('DELETE', `/api/v4/personal_access_tokens/${bobs.id}`, { token: ALICE }),
    ).toMatchObject({
      status: 400,
    })
    expect((await t.http('GET', '/api/v4/user', { token: bobs.token })).status).toBe(200)
    expect(
      await t.http('DELETE', `/api/v4/personal_access_tokens/${bobs.id}`, { token: ROOT }),
    ).toMatchObject({
      status: 204,
    })
    expect((await t.http('GET', '/api/v4/user', { token: bobs.token })).status).toBe(401)
    expect(
      await t.http('POST', `/api/v4/personal_access_tokens/${bobs.id}/rotate`, { token: ROOT }),
    ).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - token already revoked' },
    })
    expect(await t.http('DELETE', '/api/v4/personal_access_tokens/9999', { token: ROOT })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    })
  })
})

it('reset() drops the tokens made through the API: they stop authenticating', async () => {
  const made = await make('bob', { name: 'ci', scopes: ['api'] })
  await t.server.reset()
  expect((await t.http('GET', '/api/v4/user', { token: made.token })).status).toBe(401)
  expect(db().prepare('SELECT COUNT(*) AS n FROM personal_access_token_details').get()).toEqual({ n: 0 })
})
