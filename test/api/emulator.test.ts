import { collect, createClient, GitLabApiError, type GitLabClient } from '../../src/api/client.js'
import { startServer, type RunningServer } from '../../src/server/start/start-server.js'
import { MARK_TRIGGER, pipelineSeed } from '../support/pipeline-seed.js'
import { scripted } from './fake-send.js'
import { request as undiciRequest } from 'undici'

/*
 * client.emulator against the real server on port 0, as a suite that runs `serve` in another
 * process reaches it: over HTTP only, each control and a refusal of each.
 */
const START = '2030-01-01T00:00:00.000Z'
const ROOT = 'glpat-root-token'

let gitlab: RunningServer
let client: GitLabClient
beforeAll(async () => {
  gitlab = await startServer({ seed: pipelineSeed, frozenAt: START })
  // `/api/v4` in the base URL is accepted: the controls still go to the server root. Every answer is
  // checked against the schema its method declares.
  client = createClient({
    baseUrl: `${gitlab.url}/api/v4/`,
    token: ROOT,
    retry: { maxRetries: 0 },
    validate: true,
  })
})
beforeEach(async () => {
  await gitlab.reset()
  gitlab.clearFaults()
  gitlab.clearRequests()
})
afterAll(async () => {
  await client.close()
  await gitlab.close()
})

/** The GitLabApiError a call rejects with, as `[status, body]`. */
async function refusal(call: Promise<unknown>): Promise<[number, unknown]> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(err instanceof GitLabApiError)) throw new Error(`expected a GitLabApiError, got ${String(err)}`)
  return [err.status, err.body]
}

const trigger = (project: string) => client.pipelines.trigger(project, { ref: 'main', token: MARK_TRIGGER })
const issueTitles = async (project: string) =>
  (await collect(client.issues.list(project))).map((i) => i.title).sort()

describe('client.emulator', () => {
  it('seed adds YAML text or an object, refuses a bad or repeated one, and reset takes it all back', async () => {
    await client.emulator.seed('projects:\n  - path: acme/app\n    issues: [{ title: From YAML }]\n')
    const more = { projects: [{ path: 'acme/app', issues: [{ title: 'From JSON' }] }] }
    await client.emulator.seed(more)
    expect(await issueTitles('acme/app')).toEqual(['From JSON', 'From YAML'])
    const [status, body] = await refusal(client.emulator.seed({ projects: [{ path: 'nowhere/app' }] }))
    expect([status, String((body as { message: string }).message)]).toEqual([
      400,
      expect.stringContaining('nowhere'),
    ])
    const [again, why] = await refusal(client.emulator.seed(more))
    expect([again, (why as { message: string }).message]).toEqual([
      409,
      expect.stringContaining('already has'),
    ])
    await client.emulator.reset()
    expect(await issueTitles('acme/app')).toEqual([])
  })

  it('is for administrators: 401 without a token, 403 for others', async () => {
    const anonymous = createClient({ baseUrl: gitlab.url })
    const mark = createClient({ baseUrl: gitlab.url, token: 'glpat-mark-token' })
    try {
      expect((await refusal(anonymous.emulator.reset()))[0]).toBe(401)
      expect(await refusal(mark.emulator.faults())).toEqual([403, { message: '403 Forbidden' }])
    } finally {
      await anonymous.close()
      await mark.close()
    }
  })

  it('setPipelineStatus drives a pipeline there; a bad status is 400, an unknown pipeline 404', async () => {
    const { id } = await trigger('acme/app')
    const forced = await client.emulator.setPipelineStatus('acme/app', id, 'failed')
    expect([forced.id, forced.status]).toEqual([id, 'failed'])
    expect((await client.pipelines.get('acme/app', id)).status).toBe('failed')
    const [status, body] = await refusal(
      client.emulator.setPipelineStatus('acme/app', id, 'finished' as 'failed'),
    )
    expect([status, body]).toEqual([400, { error: 'status does not have a valid value' }])
    expect((await refusal(client.emulator.setPipelineStatus('acme/app', 99_999, 'success')))[0]).toBe(404)
  })

  it('pipeline shows the pipeline and its jobs, a running one with the job token it runs with; 404 for none', async () => {
    const { id } = await trigger('acme/app')
    const first = await client.emulator.pipeline('acme/app', id)
    expect(first.pipeline).toMatchObject({ id, status: 'created' })
    expect(first.jobs.map((j) => [j.name, j.retried, j.token])).toEqual([
      ['build', false, null],
      ['test', false, null],
    ])
    let running: { id: number; token: string | null } | undefined
    for (let step = 0; step < 20 && !running; step++) {
      await client.emulator.clock.advance(0.5)
      running = (await client.emulator.pipeline('acme/app', id)).jobs.find((j) => j.status === 'running')
    }
    expect(running?.token).toEqual(expect.any(String))
    // The token is the job's own: `GET /job` answers it.
    const job = await undiciRequest(`${gitlab.url}/api/v4/job`, {
      headers: { 'job-token': running?.token as string },
    })
    expect([job.statusCode, ((await job.body.json()) as { id: number }).id]).toEqual([200, running?.id])
    expect(await refusal(client.emulator.pipeline('acme/app', 99_999))).toEqual([
      404,
      { message: '404 Not found' },
    ])
  })

  it('requests reads the log filtered, every page unless limit, and clearRequests empties it', async () => {
    for (let i = 0; i < 105; i++) await client.version()
    await client.projects.get('acme/app').catch(() => undefined)
    const all = await client.emulator.requests({ route: '/api/v4/version' })
    expect(all).toHaveLength(105) // more than one page of 100
    expect(new Set(all.map((e) => `${e.method} ${e.status} ${e.actor}`))).toEqual(new Set(['GET 200 root']))
    const two = await client.emulator.requests({ route: '/api/v4/version', limit: 2 })
    expect(two.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id))
    expect(await client.emulator.requests({ path: '/api/v4/projects/**' })).toHaveLength(1)
    expect(await refusal(client.emulator.requests({ status: 'abc' }))).toEqual([
      400,
      { error: 'status does not have a valid value' },
    ])
    await client.emulator.clearRequests()
    expect(await client.emulator.requests()).toEqual([])
  })

  it('fault adds a rule that fires, faults lists its counts, removeFault and clearFaults remove', async () => {
    const rule = await client.emulator.fault({
      route: '/api/v4/version',
      action: 'status',
      status: 503,
      times: 1,
    })
    expect(rule).toMatchObject({ action: 'status', status: 503, times: 1, fired: 0, remaining: 1 })
    expect((await refusal(client.version()))[0]).toBe(503)
    expect(await client.emulator.faults()).toEqual([expect.objectContaining({ id: rule.id, fired: 1 })])
    await client.emulator.removeFault(rule.id)
    expect(await refusal(client.emulator.removeFault(rule.id))).toEqual([
      404,
      { message: '404 Fault Not Found' },
    ])
    await client.emulator.fault({ action: 'delay', ms: 1, path: '/nothing' })
    await client.emulator.clearFaults()
    expect(await client.emulator.faults()).toEqual([])
  })

  it('fault takes a list in one call: the rules as kept, in order; one bad rule adds none of them', async () => {
    const rules = await client.emulator.fault([
      { route: '/api/v4/version', action: 'status', status: 503, times: 1 },
      { route: '/api/v4/user', action: 'status', status: 429, times: 1 },
    ])
    expect(rules.map((r) => [r.route, r.status, r.fired])).toEqual([
      ['/api/v4/version', 503, 0],
      ['/api/v4/user', 429, 0],
    ])
    expect((await refusal(client.version()))[0]).toBe(503)
    expect((await refusal(client.users.current()))[0]).toBe(429)
    await client.emulator.clearFaults()
    expect(
      await refusal(
        client.emulator.fault([{ action: 'status', status: 500, path: '/x' }, { action: 'delay' }]),
      ),
    ).toEqual([400, { message: 'faults[1].ms is missing (action delay)' }])
    expect(await client.emulator.faults()).toEqual([])
  })

  it('fault: a rule the server refuses is its 400 and message, and nothing is added', async () => {
    expect(await refusal(client.emulator.fault({ action: 'delay' }))).toEqual([
      400,
      { message: 'ms is missing (action delay)' },
    ])
    expect(await client.emulator.faults()).toEqual([])
  })

  it('clock: state and now, advance moves pipelines, set back is 409, a bad move 400', async () => {
    expect(await client.emulator.clock.state()).toEqual({ now: START, frozen: true })
    const { id } = await trigger('acme/app')
    const moved = await client.emulator.clock.advance(3600)
    expect(moved.clock).toEqual({ now: '2030-01-01T01:00:00.000Z', frozen: true })
    expect(moved.ran.pipeline_moves).toBeGreaterThan(0)
    expect((await client.pipelines.get('acme/app', id)).status).toBe('success')
    const [status, body] = await refusal(client.emulator.clock.set(new Date(START)))
    expect([status, (body as { message: string }).message]).toEqual([
      409,
      expect.stringContaining('the clock never goes back'),
    ])
    expect(await refusal(client.emulator.clock.advance(-1))).toEqual([400, { error: 'seconds is invalid' }])
    await client.emulator.clock.set('2030-01-02T00:00:00Z')
    expect((await client.emulator.clock.now()).toISOString()).toBe('2030-01-02T00:00:00.000Z')
    expect((await client.emulator.clock.unfreeze()).clock.frozen).toBe(false)
    expect((await client.emulator.clock.freeze()).clock.frozen).toBe(true)
  })

  it('settle runs pipelines to their end; a manual one is 409 with what is pending, a bad timeout 400', async () => {
    const { id } = await trigger('acme/app')
    const settled = await client.emulator.settle({ timeoutSeconds: 30 })
    expect(settled.ran.pipeline_moves).toBeGreaterThan(0)
    expect((await client.pipelines.get('acme/app', id)).status).toBe('success')
    // A pipeline forced to running cannot finish on its own.
    const stuck = await trigger('acme/app')
    await client.emulator.setPipelineStatus('acme/app', stuck.id, 'running')
    const [status, body] = await refusal(client.emulator.settle())
    expect(status).toBe(409)
    expect(body).toMatchObject({ pending: { pipelines: [expect.objectContaining({ status: 'running' })] } })
    expect(await refusal(client.emulator.settle({ timeoutSeconds: 301 }))).toEqual([
      400,
      { error: 'timeout is invalid' },
    ])
  })

  it('snapshot, snapshots, restore and removeSnapshot; taken 409, bad name 400, none 404', async () => {
    await client.issues.create('acme/app', { title: 'Saved' })
    const saved = await client.emulator.snapshot('world')
    expect(saved).toMatchObject({ name: 'world', created_at: START })
    expect((await refusal(client.emulator.snapshot('world')))[0]).toBe(409)
    expect((await client.emulator.snapshot('world', { replace: true })).name).toBe('world')
    await client.emulator.reset()
    expect(await issueTitles('acme/app')).toEqual([])
    expect((await client.emulator.restore('world')).rows).toBe(saved.rows)
    expect(await issueTitles('acme/app')).toEqual(['Saved'])
    expect((await client.emulator.snapshots()).map((s) => s.name)).toEqual(['world'])
    expect(await refusal(client.emulator.snapshot('no good'))).toEqual([400, { error: 'name is invalid' }])
    await client.emulator.removeSnapshot('world')
    expect(await refusal(client.emulator.restore('world'))).toEqual([
      404,
      { message: '404 Snapshot Not Found' },
    ])
  })

  it('reaches a `send` given to the client with paths below the server root', async () => {
    const { send, calls } = scripted([{ status: 204 }])
    const faked = createClient({ baseUrl: 'https://gitlab.example.com/gitlab', token: 'glpat-x', send })
    await faked.emulator.clearFaults()
    expect(calls.map((c) => `${c.method} ${c.path} ${c.headers['private-token']}`)).toEqual([
      'DELETE /-/emulator/faults glpat-x',
    ])
  })

  it("settle stretches the client's per-attempt timeout past the server's wait, and keeps none as none", async () => {
    const answer = { status: 200, body: '{}', headers: { 'content-type': 'application/json' } }
    const { send, calls } = scripted([answer, answer, answer])
    const baseUrl = 'https://gitlab.example.com'
    await createClient({ baseUrl, send, timeoutMs: 5000 }).emulator.settle({ timeoutSeconds: 60 })
    await createClient({ baseUrl, send, timeoutMs: 120_000 }).emulator.settle()
    await createClient({ baseUrl, send, timeoutMs: 0 }).emulator.settle({ timeoutSeconds: 60 })
    expect(calls.map((c) => [c.timeoutMs, String(c.body)])).toEqual([
      [90_000, '{"timeout":60}'],
      [120_000, '{}'],
      [0, '{"timeout":60}'],
    ])
  })
})
