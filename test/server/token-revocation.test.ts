import { startServer, type TestServer } from '../support/server.js'
import { manualClock } from '../support/pipeline-seed.js'
import { inspectDb } from '../../src/server/store/inspect.js'

/*
 * Token owners are remembered between requests (src/server/store/users.ts): a token revoked or
 * given a past expiry date, a user blocked, must still be refused on the very next request, also
 * on a list the response cache has answered before.
 */
const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice, token: glpat-alice-token }
groups:
  - path: acme
    name: ACME
    members: { alice: developer }
projects:
  - path: acme/app
    visibility: private
    issues:
      - { title: First }
`
const LIST = '/api/v4/projects/acme%2Fapp/issues'
const UNAUTHORIZED = { status: 401, body: { message: '401 Unauthorized' } }

let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(seed, { clock })
})
afterEach(() => t.close())

const list = async () => {
  const res = await t.http('GET', LIST, { token: 'glpat-alice-token' })
  return { status: res.status, body: res.status === 200 ? 'issues' : res.body }
}
const sql = (text: string) => inspectDb(t.server.store).prepare(text).run()
const ALICE = "user_id = (SELECT id FROM users WHERE username = 'alice')"

it.each([
  ['a revoked token', `UPDATE personal_access_tokens SET revoked = 1 WHERE ${ALICE}`],
  [
    'a token that expired',
    `UPDATE personal_access_tokens SET expires_at = '2026-02-28T00:00:00.000Z' WHERE ${ALICE}`,
  ],
  ['a blocked user', "UPDATE users SET state = 'blocked' WHERE username = 'alice'"],
])('refuses %s on the next request, even on a list answered before', async (_what, change) => {
  expect(await list()).toEqual({ status: 200, body: 'issues' })
  expect(await list()).toEqual({ status: 200, body: 'issues' })
  sql(change)
  expect(await list()).toEqual(UNAUTHORIZED)
})

it('refuses a token once its expiry time passes, with nothing written in between', async () => {
  sql(`UPDATE personal_access_tokens SET expires_at = '2026-03-01T10:00:05.000Z' WHERE ${ALICE}`)
  expect(await list()).toEqual({ status: 200, body: 'issues' })
  clock.advance(10_000)
  expect(await list()).toEqual(UNAUTHORIZED)
})

it('lets a token in again once it is restored', async () => {
  expect(await list()).toEqual({ status: 200, body: 'issues' })
  sql("UPDATE users SET state = 'blocked' WHERE username = 'alice'")
  expect(await list()).toEqual(UNAUTHORIZED)
  sql("UPDATE users SET state = 'active' WHERE username = 'alice'")
  expect(await list()).toEqual({ status: 200, body: 'issues' })
})
