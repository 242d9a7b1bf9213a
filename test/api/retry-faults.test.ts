import { createClient } from '../../src/api/client.js'
import { startServer, type TestServer } from '../support/server.js'
import { aliceWidgets } from '../support/seeds.js'

/*
 * The client's retries against the real server made to fail on demand (POST /-/emulator/faults),
 * each attempt read back from the request log: what GitLab's rate limiter, nginx in front of it and
 * a dropped connection do to a call, and how long the client waited between them.
 */
const seed = aliceWidgets('One')
const ROOT = 'glpat-root-token'
const ROUTE = '/api/v4/projects/:id/issues/:issue_iid'
type Entry = { time: string; status: number | null; actor: string; fault: { action: string } | null }

let t: TestServer
beforeEach(async () => {
  t = await startServer(seed)
})
afterEach(() => t.close())

const attempts = async () =>
  (await t.http('GET', '/-/emulator/requests', { token: ROOT, query: `route=${ROUTE}` })).body as Entry[]

describe('the client against faults of the server', () => {
  it('retries a 429 after its Retry-After, a 502 HTML page and a reset connection, then succeeds', async () => {
    const rules = [
      { route: ROUTE, action: 'status', status: 429, retry_after: 1, times: 1 },
      { route: ROUTE, action: 'status', status: 502, times: 1 },
      { route: ROUTE, action: 'reset', times: 1 },
    ]
    expect((await t.http('POST', '/-/emulator/faults', { token: ROOT, json: rules })).status).toBe(201)
    const client = createClient({
      baseUrl: t.baseUrl,
      token: 'glpat-alice-token',
      retry: { baseDelayMs: 50 },
    })
    try {
      const issue = await client.issues.get('acme/widgets', 1)
      expect(issue.title).toBe('One')
    } finally {
      await client.close()
    }
    const log = await attempts()
    expect(log.map((e) => [e.status, e.fault?.action ?? null, e.actor])).toEqual([
      [429, 'status', 'alice'],
      [502, 'status', 'alice'],
      [null, 'reset', 'alice'],
      [200, null, 'alice'],
    ])
    // The second attempt waited for the second GitLab asked for.
    const [first, second] = log.map((e) => Date.parse(e.time))
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(1000)
    expect((await t.http('GET', '/-/emulator/faults', { token: ROOT })).body).toMatchObject([
      { fired: 1, remaining: 0 },
      { fired: 1, remaining: 0 },
      { fired: 1, remaining: 0 },
    ])
  })

  it('sends a POST that met a 502 or a reset once only: it may have been applied', async () => {
    const rules = [
      { method: 'POST', route: '/api/v4/projects/:id/issues', action: 'status', status: 502, times: 1 },
      { method: 'POST', route: '/api/v4/projects/:id/issues', action: 'reset', times: 1 },
    ]
    expect((await t.http('POST', '/-/emulator/faults', { token: ROOT, json: rules })).status).toBe(201)
    const client = createClient({ baseUrl: t.baseUrl, token: 'glpat-alice-token', retry: { baseDelayMs: 1 } })
    try {
      await expect(client.issues.create('acme/widgets', { title: 'Two' })).rejects.toMatchObject({
        status: 502,
      })
      await expect(client.issues.create('acme/widgets', { title: 'Two' })).rejects.toThrow()
    } finally {
      await client.close()
    }
    const log = (
      await t.http('GET', '/-/emulator/requests', {
        token: ROOT,
        query: `method=POST&route=${encodeURIComponent('/api/v4/projects/:id/issues')}`,
      })
    ).body as Entry[]
    expect(log.map((e) => [e.status, e.fault?.action])).toEqual([
      [502, 'status'],
      [null, 'reset'],
    ])
    const issues = await t.http('GET', '/api/v4/projects/acme%2Fwidgets/issues', { token: ROOT })
    expect((issues.body as unknown[]).length).toBe(1)
  })
})
