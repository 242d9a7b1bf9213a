import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { manualClock } from '../support/pipeline-seed.js'
import { tokens } from '../support/seeds.js'
import { startServer, type TestServer } from '../support/server.js'
import { pagesSeed } from './seed.js'

/** The pages' sessions: they end after a week or when their user is blocked; a changed cookie names nobody. */
let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(pagesSeed, { clock })
})
afterEach(() => t.close())

const SECRET = '/acme/platform/secret'
const signIn = async (token: string) => {
  const res = await t.http('POST', '/users/sign_in', { form: `token=${token}` })
  expect(res.status).toBe(303)
  return /_gitlab_session=([^;]+)/.exec(res.headers['set-cookie']!)![1]!
}
const visit = async (value: string) =>
  (await t.http('GET', SECRET, { headers: { cookie: `_gitlab_session=${value}` } })).status

it('ends a session a week after it began', async () => {
  const session = await signIn(tokens.developer)
  clock.advance(7 * 24 * 3600 * 1000 - 1000)
  expect(await visit(session)).toBe(200)
  clock.advance(1000)
  expect(await visit(session)).toBe(404)
})

it('ends a session when its user is blocked', async () => {
  const session = await signIn(tokens.developer)
  const dana = (await t.http('GET', '/api/v4/users', { token: tokens.root, query: 'username=dana' }))
    .body as {
    id: number
  }[]
  expect((await t.http('POST', `/api/v4/users/${dana[0]!.id}/block`, { token: tokens.root })).status).toBe(
    201,
  )
  expect(await visit(session)).toBe(404)
})

it('names nobody when the user, the expiry or the signature was changed', async () => {
  const session = await signIn(tokens.developer)
  const [id, expires, nonce, mac] = session.split('.') as [string, string, string, string]
  const value = `${id}.${expires}.${nonce}`
  expect(await visit(session)).toBe(200)
  expect(await visit(`1.${expires}.${nonce}.${mac}`)).toBe(404)
  expect(await visit(`${id}.${Number(expires) + 3600}.${nonce}.${mac}`)).toBe(404)
  expect(await visit(`${value}.${mac.slice(1)}`)).toBe(404)
  expect(await visit(value)).toBe(404)
  expect(Number(id)).toBeGreaterThan(1)
})

it('refuses a token that may not read the API (read_user only)', async () => {
  const made = await t.http('POST', '/api/v4/users/2/personal_access_tokens', {
    token: tokens.root,
    json: { name: 'profile only', scopes: ['read_user'], expires_at: '2026-12-31' },
  })
  expect(made.status).toBe(201)
  const res = await t.http('POST', '/users/sign_in', {
    form: `token=${(made.body as { token: string }).token}`,
  })
  expect(res.status).toBe(401)
  expect(res.headers['set-cookie']).toBeUndefined()
})

it('keeps a session across a restart of a --data directory (its key is in the secrets file)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gla-pages-'))
  try {
    const first = await startServer(pagesSeed, { data: dir })
    const res = await first.http('POST', '/users/sign_in', { form: `token=${tokens.developer}` })
    const cookie = /_gitlab_session=[^;]+/.exec(res.headers['set-cookie']!)![0]
    await first.close()
    const second = await startServer(pagesSeed, { data: dir })
    try {
      expect((await second.http('GET', SECRET, { headers: { cookie } })).status).toBe(200)
      expect((await second.http('GET', SECRET)).status).toBe(404)
    } finally {
      await second.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
