import { request } from 'undici'
import { buildServer, type GitLabServer } from '../../src/server/start/build-server.js'
import { parseSeed } from '../../src/server/seed/parse.js'
import { startServer, type TestServer } from '../support/server.js'
import { inspectDb } from '../../src/server/store/inspect.js'
import {
  DEFAULT_ROOT_TOKEN,
  startServer as startPublic,
  type RunningServer,
} from '../../src/server/start/start-server.js'

/*
 * A web page the developer visits must not write to the local emulator (CSRF: forms and
 * `text/plain` fetches need no CORS preflight) nor read it under its own name (DNS rebinding).
 */
const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
projects:
  - { path: root/proj, visibility: public, issues: [ { title: First, author: root } ] }
`
const MALLORY_SEED = 'users:\n  - { username: mallory, admin: true, token: glpat-mallory }\n'
const CSRF =
  /^403 Forbidden - cross-(origin POST from 'http:\/\/evil\.example'|site POST) refused \(CSRF protection\)/
const issueCount = (t: TestServer) =>
  (inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM issues').get() as { n: number }).n

describe('state-changing requests from a browser', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startServer(seed)
  })
  afterAll(() => t.close())

  it('a cross-origin text/plain POST to /-/emulator/seed: 403, no administrator created', async () => {
    const res = await t.http('POST', '/-/emulator/seed', {
      query: 'private_token=glpat-root-token',
      headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
      form: MALLORY_SEED,
    })
    expect(res.status).toBe(403)
    expect((res.body as { message: string }).message).toMatch(CSRF)
    expect(t.server.store.users.byUsername('mallory')).toBeUndefined()
  })

  it('a cross-site form POST with private_token creates no issue, Origin or only Sec-Fetch-Site', async () => {
    const before = issueCount(t)
    for (const headers of <Record<string, string>[]>[
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const res = await t.http('POST', '/api/v4/projects/root%2Fproj/issues', {
        form: 'private_token=glpat-root-token&title=pwned',
        headers,
      })
      expect(res.status).toBe(403)
      expect(res.headers['content-type']).toBe('application/json')
    }
    for (const method of ['PUT', 'DELETE']) {
      const res = await t.http(method, '/api/v4/projects/root%2Fproj/issues/1', {
        query: 'private_token=glpat-root-token&title=renamed',
        headers: { origin: 'http://evil.example' },
      })
      expect(res.status).toBe(403)
    }
    expect(issueCount(t)).toBe(before)
    expect(t.server.store.issues.byIid(t.server.store.projects.byPath('root/proj')!.id, 1)!.title).toBe(
      'First',
    )
  })

  it('the same origin, and clients that send no Origin (private_token in the query), still write', async () => {
    const own = await t.http('POST', '/api/v4/projects/root%2Fproj/issues', {
      form: 'private_token=glpat-root-token&title=from the same origin',
      headers: { origin: t.baseUrl, 'sec-fetch-site': 'same-origin' },
    })
    expect(own.status).toBe(201)
    const cli = await t.http('POST', '/api/v4/projects/root%2Fproj/issues', {
      query: 'private_token=glpat-root-token&title=from a script',
    })
    expect(cli.status).toBe(201)
    const seeded = await t.http('POST', '/-/emulator/seed', {
      query: 'private_token=glpat-root-token',
      headers: { 'content-type': 'text/plain' },
      form: MALLORY_SEED,
    })
    expect(seeded.status).toBe(201)
  })

  it('cross-origin reads are not refused (the browser keeps their answers from the page)', async () => {
    const res = await t.http('GET', '/api/v4/projects/root%2Fproj/issues', {
      headers: { origin: 'http://evil.example' },
    })
    expect(res.status).toBe(200)
  })
})

describe('Host header (DNS rebinding)', () => {
  const get = (url: string, host: string) =>
    request(`${url}/api/v4/projects/root%2Fproj/issues`, { headers: { host } }).then(async (res) => ({
      status: res.statusCode,
      body: (await res.body.json()) as unknown,
    }))

  it('on loopback: its address, localhost names and the base URL host pass; others get 403 first', async () => {
    const t = await startServer(seed, { baseUrl: 'https://gitlab.example.test/' })
    try {
      const port = new URL(t.baseUrl).port
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'gitlab.example.test'])
        expect((await get(t.baseUrl, host)).status).toBe(200)
      const evil = await get(t.baseUrl, `evil.example:${port}`)
      expect(evil).toEqual({
        status: 403,
        body: {
          message: `403 Forbidden - Host 'evil.example:${port}' is not allowed (DNS rebinding protection); start the server with --allowed-host to allow it`,
        },
      })
      // Refused before any route: the same for a path that does not exist, and for a write.
      const missing = await request(`${t.baseUrl}/nowhere`, { headers: { host: 'evil.example' } })
      expect(missing.statusCode).toBe(403)
      await missing.body.dump()
      const write = await request(`${t.baseUrl}/-/emulator/seed?private_token=glpat-root-token`, {
        method: 'POST',
        headers: { host: 'evil.example', 'content-type': 'text/plain' },
        body: MALLORY_SEED,
      })
      expect(write.statusCode).toBe(403)
      await write.body.dump()
      expect(t.server.store.users.byUsername('mallory')).toBeUndefined()
    } finally {
      await t.close()
    }
  })

  it('allowedHosts adds names', async () => {
    const t = await startServer(seed, { allowedHosts: ['emulator.internal'] })
    try {
      expect((await get(t.baseUrl, 'emulator.internal')).status).toBe(200)
      expect((await get(t.baseUrl, 'Emulator.Internal.:8080')).status).toBe(200)
      expect((await get(t.baseUrl, 'other.internal')).status).toBe(403)
    } finally {
      await t.close()
    }
  })

  describe('listening on 0.0.0.0', () => {
    let server: GitLabServer
    afterEach(() => server.close())
    const start = async (allowedHosts?: string[]) => {
      server = await buildServer({ seed: parseSeed(seed, 'seed.yaml'), allowedHosts })
      const url = await server.listen({ host: '0.0.0.0', port: 0 })
      return url
    }

    it("a name passes only when listed (a container's service name too); IP addresses and localhost pass", async () => {
      const url = await start()
      const port = new URL(url).port
      for (const host of ['gitlab-emulator:8080', 'gitlab', `evil.example:${port}`])
        expect((await get(url, host)).status).toBe(403)
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, '10.1.2.3:8080', '[fd00::1]:8080'])
        expect((await get(url, host)).status).toBe(200)
    })

    it('with allowedHosts, only those names and localhost pass', async () => {
      const url = await start(['gitlab-emulator'])
      expect((await get(url, 'gitlab-emulator:8080')).status).toBe(200)
      expect((await get(url, 'localhost')).status).toBe(200)
      expect((await get(url, 'evil.example')).status).toBe(403)
    })
  })
})

/*
 * Off loopback (the container, the serve action's `host: 0.0.0.0`) with the built-in seed: a
 * rebinding page (foreign Host, matching Origin) read every user's email with the well-known token,
 * created an administrator with a text/plain seed POST and reset the instance.
 */
describe('the built-in seed off loopback', () => {
  let running: RunningServer
  let port: string
  beforeAll(async () => {
    running = await startPublic({ host: '0.0.0.0', port: 0 })
    port = new URL(running.url).port
  })
  afterAll(() => running.close())
  const call = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const res = await request(`${running.url}${path}`, { method, headers, body })
    return { status: res.statusCode, body: (await res.body.json()) as { message?: string } }
  }

  it("root's token is a random one, which works; the well-known one is refused", async () => {
    expect(running.token).toMatch(/^glpat-[\w-]{20}$/)
    expect(running.token).not.toBe(DEFAULT_ROOT_TOKEN)
    expect(await call('GET', '/api/v4/user', { 'private-token': running.token! })).toMatchObject({
      status: 200,
      body: { username: 'root' },
    })
    expect(await call('GET', '/api/v4/users', { 'private-token': DEFAULT_ROOT_TOKEN })).toEqual({
      status: 401,
      body: { message: '401 Unauthorized' },
    })
    expect(
      (await call('GET', '/api/v4/user', { 'private-token': 'glpat-emulator-alice-token' })).status,
    ).toBe(401)
  })

  it('a rebinding page reads nothing, seeds no administrator and resets nothing, even with the token', async () => {
    const rebound = { host: `evil.example:${port}`, origin: `http://evil.example:${port}` }
    const users = await call('GET', '/api/v4/users', { ...rebound, 'private-token': running.token! })
    expect(users.status).toBe(403)
    expect(users.body.message).toMatch(/Host 'evil\.example:\d+' is not allowed \(DNS rebinding protection\)/)
    const seeded = await call(
      'POST',
      `/-/emulator/seed?private_token=${running.token!}`,
      { ...rebound, 'content-type': 'text/plain' },
      MALLORY_SEED,
    )
    expect(seeded.status).toBe(403)
    expect(running.server.store.users.byUsername('mallory')).toBeUndefined()
    const before = running.server.store.changeCount()
    const reset = await call('POST', `/-/emulator/reset?private_token=${running.token!}`, rebound)
    expect(reset.status).toBe(403)
    expect(running.server.store.changeCount()).toBe(before)
  })

  it('a cross-origin text/plain seed POST under an allowed Host is refused too', async () => {
    const seeded = await call(
      'POST',
      `/-/emulator/seed?private_token=${running.token!}`,
      { host: `127.0.0.1:${port}`, origin: 'http://evil.example', 'content-type': 'text/plain' },
      MALLORY_SEED,
    )
    expect(seeded.status).toBe(403)
    expect(seeded.body.message).toMatch(CSRF)
    expect(running.server.store.users.byUsername('mallory')).toBeUndefined()
  })
})
