import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, GitLabApiError } from '../../src/api/client.js'
import { rateLimitDelayMs } from '../../src/api/poll.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'

let t: TestServer
let clock: ReturnType<typeof manualClock>
let dir: string
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(pipelineSeed, { clock })
  dir = mkdtempSync(join(tmpdir(), 'gla-poll-'))
})
afterEach(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const MARK = 'glpat-mark-token'
const ROOT = 'glpat-root-token'
/** One retry per read (not slept): each read the wait makes costs two requests at most. */
const direct = () => createClient({ baseUrl: t.baseUrl, token: MARK })
type Fault = { action: 'reset' } | { action: 'status'; status: 502 }
const RESET: Fault = { action: 'reset' }
const BAD_GATEWAY: Fault = { action: 'status', status: 502 }
/**
 * The server's faults break the reads of `route` as a load balancer in front of GitLab would:
 * `faults` in turn (a reset connection, nginx's 502 page), once each, then the reads go through.
 */
const through = async (route: string, faults: Fault[], more: object = {}) => {
  const rules = faults.map((fault) => ({ method: 'GET', route, times: 1, ...fault, ...more }))
  const added = await t.http('POST', '/-/emulator/faults', { token: ROOT, json: rules })
  expect(added.status).toBe(201)
  const client = createClient({
    baseUrl: t.baseUrl,
    token: MARK,
    retry: { sleep: async () => undefined, maxRetries: 1 },
  })
  /** The reads of `route` the faults broke, as the request log shows them. */
  const broken = async () => {
    const log = await t.http('GET', '/-/emulator/requests', {
      token: ROOT,
      query: `route=${route}&limit=1000`,
    })
    return (log.body as { status: number | null; fault: { action: string } | null }[])
      .filter((e) => e.fault)
      .map((e) => [e.status, e.fault?.action])
  }
  return { client, broken }
}
/** Two reads broken by resets, two by nginx's 502 page (each read is tried twice by the client). */
const OUTAGE: Fault[] = [RESET, RESET, BAD_GATEWAY, BAD_GATEWAY]
const BROKEN = [
  [null, 'reset'],
  [null, 'reset'],
  [502, 'status'],
  [502, 'status'],
]
const kindsOf = () => {
  const kinds: string[] = []
  return { kinds, onTransientError: (_e: Error, _ms: number, kind: string) => kinds.push(kind) }
}

describe('every wait rides out a load balancer that cuts connections and answers 502', () => {
  it('waitForPipeline ends with the real final status', async () => {
    const p = await createClient({ baseUrl: t.baseUrl }).pipelines.trigger('acme/app', {
      ref: 'main',
      token: MARK_TRIGGER,
    })
    const { client, broken } = await through('/api/v4/projects/:id/pipelines/:pipeline_id', OUTAGE)
    const { kinds, onTransientError } = kindsOf()
    const r = await client.pipelines.waitForPipeline('acme/app', p.id, {
      intervalMs: 200,
      sleep: async (ms) => clock.advance(ms), // the pipeline moves with the server's clock
      now: () => clock.now().getTime(),
      onTransientError,
    })
    expect(r).toMatchObject({ ended: 'final', pipeline: { id: p.id, status: 'success' } })
    expect((await direct().pipelines.get('acme/app', p.id)).status).toBe('success')
    expect(kinds).toHaveLength(2) // once per kind: the reset, then the 502
    expect(kinds[1]).toBe('502')
    expect(await broken()).toEqual(BROKEN)
  })

  it('waitForExport ends finished, and the archive downloads', async () => {
    const { client, broken } = await through('/api/v4/projects/:id/export', OUTAGE)
    await client.projectExports.schedule('acme/app')
    const { kinds, onTransientError } = kindsOf()
    const r = await client.projectExports.waitForExport('acme/app', { intervalMs: 20, onTransientError })
    expect(r).toMatchObject({ ended: 'done', status: 'finished' })
    expect(kinds).toHaveLength(2)
    expect(await broken()).toEqual(BROKEN)
    const saved = await direct().projectExports.downloadTo('acme/app', join(dir, 'app.tar.gz'))
    expect(saved.size).toBeGreaterThan(0)
  })

  it('waitForImport ends finished, and the project exists', async () => {
    const gitlab = direct()
    await gitlab.projectExports.schedule('acme/app')
    await gitlab.projectExports.waitForExport('acme/app', { intervalMs: 20 })
    const file = join(dir, 'app.tar.gz')
    await gitlab.projectExports.downloadTo('acme/app', file)
    const { client, broken } = await through('/api/v4/projects/:id/import', OUTAGE)
    const started = await client.projectImports.fromFile(file, { path: 'copy' })
    const { kinds, onTransientError } = kindsOf()
    const r = await client.projectImports.waitForImport(started, { intervalMs: 20, onTransientError })
    expect(r).toMatchObject({ ended: 'done', record: { id: started.id, import_status: 'finished' } })
    expect(kinds).toHaveLength(2)
    expect(await broken()).toEqual(BROKEN)
    expect((await gitlab.projects.get('mark/copy')).id).toBe(started.id)
  })

  it('a 404 stops the wait at once; a timeout ends it with the last status', async () => {
    const otto = createClient({ baseUrl: t.baseUrl, token: 'glpat-otto-token' })
    const reads: number[] = []
    await expect(
      otto.projectExports.waitForExport('acme/app', {
        intervalMs: 1,
        onTransientError: () => reads.push(1),
      }),
    ).rejects.toMatchObject({ status: 404 })
    expect(reads).toEqual([])
    const p = await createClient({ baseUrl: t.baseUrl }).pipelines.trigger('acme/app', {
      ref: 'main',
      token: MARK_TRIGGER,
    })
    // One read, then GitLab is gone: every later read meets nginx's 502 page.
    const { client } = await through('/api/v4/projects/:id/pipelines/:pipeline_id', [BAD_GATEWAY], {
      after: 1,
      times: undefined, // no bound
    })
    const r = await client.pipelines.waitForPipeline('acme/app', p.id, {
      intervalMs: 100,
      timeoutMs: 1000,
      sleep: async (ms) => clock.advance(ms),
      now: () => clock.now().getTime(),
    })
    expect(r).toMatchObject({ ended: 'timeout', pipeline: { id: p.id, status: 'created' } })
  })
})

describe('rateLimitDelayMs', () => {
  const limited = (timing: Record<string, string>) =>
    new GitLabApiError(429, 'GET', '/projects/1/export/download', {}, undefined, timing)
  it('honours Retry-After and RateLimit-Reset, else waits for the next minute by the answer’s Date', () => {
    const now = Date.parse('2026-03-01T10:00:17.500Z')
    expect(rateLimitDelayMs(limited({ 'retry-after': '7' }), now)).toBe(7000)
    expect(rateLimitDelayMs(limited({ 'ratelimit-reset': String(Math.floor(now / 1000) + 20) }), now)).toBe(
      19_500,
    )
    // GitLab's clock said 10:00:59: its window ends in one second, whatever the local clock says.
    expect(rateLimitDelayMs(limited({ date: 'Sun, 01 Mar 2026 10:00:59 GMT' }), now)).toBe(1000 + 1000)
    expect(rateLimitDelayMs(limited({}), now)).toBe(42_500 + 1000)
  })
})
