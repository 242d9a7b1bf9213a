import { collect, createClient, GitLabApiError, GitLabResponseError } from '../../src/api/client.js'
import { apiRoot, type Send } from '../../src/api/transport.js'
import { undiciSend } from '../../src/api/undici-send.js'
import { fakeBody } from './fake-send.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../support/pipeline-seed.js'
import { serverEach } from '../support/server.js'

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

/** Sleeping moves the server's clock instead of waiting: the wait runs at full speed. */
const sleeper = () => {
  const slept: number[] = []
  return {
    slept,
    sleep: async (ms: number) => {
      slept.push(ms)
      clock.advance(ms)
    },
  }
}
const client = (token?: string, send?: Send) =>
  createClient({ baseUrl: t.baseUrl, token, send, retry: { sleep: async () => undefined, maxRetries: 1 } })

describe('pipelines client', () => {
  it('triggers with the token in the form body and variables, reads, lists and lists jobs', async () => {
    const seen: string[] = []
    const base = undiciSend(apiRoot(t.baseUrl))
    const spy: Send = (req) => (seen.push(`${req.path} ${String(req.body)}`), base(req))
    const p = await client(undefined, spy).pipelines.trigger('acme/app', {
      ref: 'develop',
      token: MARK_TRIGGER,
      variables: { A: '1', 'B C': 'x&y' },
    })
    expect(p).toMatchObject({ status: 'created', ref: 'develop', source: 'trigger' })
    expect(seen[0]).toBe(
      `/projects/acme%2Fapp/trigger/pipeline ref=develop&token=${MARK_TRIGGER}&variables%5BA%5D=1&variables%5BB+C%5D=x%26y`,
    )
    const mark = client('glpat-mark-token')
    expect((await mark.pipelines.get('acme/app', p.id)).id).toBe(p.id)
    expect((await collect(mark.pipelines.list('acme/app'))).map((x) => x.id)).toEqual([p.id])
    expect((await collect(mark.pipelines.jobs('acme/app', p.id))).map((j) => j.name).sort()).toEqual([
      'build',
      'test',
    ])
    expect(await mark.pipelines.variables('acme/app', p.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'B C', value: 'x&y' })]),
    )
  })

  it('waitForPipeline follows the statuses to success, backing off while nothing changes', async () => {
    const p = await client().pipelines.trigger('acme/app', { ref: 'main', token: MARK_TRIGGER })
    const changes: string[] = []
    const { slept, sleep } = sleeper()
    const r = await client('glpat-mark-token').pipelines.waitForPipeline('acme/app', p.id, {
      intervalMs: 200,
      sleep,
      now: () => clock.now().getTime(),
      onChange: (x) => changes.push(x.status),
    })
    expect(r).toMatchObject({ ended: 'final', pipeline: { status: 'success' } })
    expect(changes).toEqual(['created', 'pending', 'running', 'success'])
    expect(Math.max(...slept)).toBeGreaterThan(200)
    expect(Math.max(...slept)).toBeLessThanOrEqual(800)
  })

  it('returns at the timeout, and rides out 503s and 429s; a trigger token of another project is refused', async () => {
    const manual = await client()
      .pipelines.trigger('acme/manual', { ref: 'main', token: MARK_TRIGGER })
      .catch((e) => e)
    expect(manual).toBeInstanceOf(GitLabApiError) // the token belongs to acme/app
    const p = await client().pipelines.trigger('acme/app', { ref: 'main', token: MARK_TRIGGER })
    const { sleep } = sleeper()
    const stopped = await client('glpat-mark-token').pipelines.waitForPipeline('acme/app', p.id, {
      intervalMs: 100,
      timeoutMs: 300,
      sleep: async () => undefined, // the server's clock stands still: the pipeline stays created
    })
    expect(stopped).toMatchObject({ ended: 'timeout', pipeline: { status: 'created' } })

    let broken = 4
    const base = undiciSend(apiRoot(t.baseUrl))
    const flaky: Send = async (req) => {
      if (req.method === 'GET' && broken-- > 0)
        return { status: broken % 2 ? 503 : 429, headers: { 'retry-after': '0' }, body: fakeBody('') }
      return base(req)
    }
    const transient: string[] = []
    const r = await client('glpat-mark-token', flaky).pipelines.waitForPipeline('acme/app', p.id, {
      intervalMs: 100,
      sleep,
      now: () => clock.now().getTime(),
      onTransientError: (e) => transient.push((e as GitLabApiError).status.toString()),
    })
    expect(r.pipeline.status).toBe('success')
    expect(transient.length).toBeGreaterThan(0)
  })

  it('stops on 404 and on abort; cancel and retry', async () => {
    const p = await client().pipelines.trigger('acme/app', { ref: 'main', token: MARK_TRIGGER })
    await expect(
      client('glpat-otto-token').pipelines.waitForPipeline('acme/app', p.id),
    ).rejects.toMatchObject({
      status: 404,
    })
    const controller = new AbortController()
    controller.abort(new Error('job cancelled'))
    await expect(
      client('glpat-mark-token').pipelines.waitForPipeline('acme/app', p.id, { signal: controller.signal }),
    ).rejects.toThrow('job cancelled')
    const mark = client('glpat-mark-token')
    expect((await mark.pipelines.cancel('acme/app', p.id)).status).toBe('canceled')
    expect((await mark.pipelines.retry('acme/app', p.id)).status).not.toBe('canceled')
  })

  it('remove deletes a pipeline as an administrator; a Maintainer is refused (403)', async () => {
    const p = await client().pipelines.trigger('acme/app', { ref: 'main', token: MARK_TRIGGER })
    await expect(client('glpat-mark-token').pipelines.remove('acme/app', p.id)).rejects.toMatchObject({
      status: 403,
    })
    await expect(client('glpat-root-token').pipelines.remove('acme/app', p.id)).resolves.toBeUndefined()
    await expect(client('glpat-root-token').pipelines.get('acme/app', p.id)).rejects.toMatchObject({
      status: 404,
    })
  })
})

describe('jobs client with a CI/CD job token', () => {
  it('jobs.current() reads the running job the token belongs to; a personal token gets 404 Job Not Found', async () => {
    const p = await client().pipelines.trigger('acme/app', { ref: 'main', token: MARK_TRIGGER })
    clock.advance(1000)
    const view = await t.http('GET', `/-/emulator/projects/acme%2Fapp/pipelines/${p.id}`, {
      token: 'glpat-root-token',
    })
    const running = (view.body as { jobs: { status: string; token: string; id: number }[] }).jobs.find(
      (j) => j.status === 'running',
    )!
    const asJob = createClient({ baseUrl: t.baseUrl, token: running.token, tokenType: 'job' })
    const job = await asJob.jobs.current()
    expect(job).toMatchObject({ id: running.id, status: 'running', pipeline: { id: p.id } })
    expect(await asJob.jobs.get('acme/app', running.id)).toEqual(job)
    const err = await client('glpat-mark-token')
      .jobs.current()
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitLabApiError)
    expect(err).toMatchObject({ status: 404, gitlabMessage: '404 Job Not Found' })
  })
})

describe('pipelines client with validate', () => {
  /** The real server's answers, with `status` rewritten as a proxy or a newer GitLab might send it. */
  const tampered: Send = async (req) => {
    const res = await undiciSend(apiRoot(t.baseUrl))(req)
    if (req.method !== 'GET' || !/\/pipelines\/\d+$/.test(req.path)) return res
    const record = JSON.parse(await res.body.text()) as Record<string, unknown>
    return { ...res, body: fakeBody(JSON.stringify({ ...record, status: 'exploded' })) }
  }

  it('checks a pipeline answer against its schema: a bad status is a GitLabResponseError', async () => {
    const p = await client().pipelines.trigger('acme/app', { ref: 'main', token: MARK_TRIGGER })
    const strict = createClient({
      baseUrl: t.baseUrl,
      token: 'glpat-mark-token',
      send: tampered,
      validate: true,
    })
    const err = await strict.pipelines.get('acme/app', p.id).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitLabResponseError)
    expect((err as Error).message).toMatch(
      `GET /projects/acme%2Fapp/pipelines/${p.id}: unexpected response: /status`,
    )
    const loose = createClient({ baseUrl: t.baseUrl, token: 'glpat-mark-token', send: tampered })
    expect(await loose.pipelines.get('acme/app', p.id)).toMatchObject({ id: p.id, status: 'exploded' })
    const honest = createClient({ baseUrl: t.baseUrl, token: 'glpat-mark-token', validate: true })
    expect(await honest.pipelines.get('acme/app', p.id)).toMatchObject({ id: p.id, status: 'created' })
    expect(await honest.pipelines.variables('acme/app', p.id)).toEqual([
      expect.objectContaining({ key: 'TRIGGER_PAYLOAD', variable_type: 'file' }),
    ])
    expect(await honest.pipelines.cancel('acme/app', p.id)).toMatchObject({ id: p.id, status: 'canceled' })
  })
})

describe('triggers client', () => {
  it('creates, reads, lists, updates and removes trigger tokens', async () => {
    const mark = client('glpat-mark-token')
    const created = await mark.triggers.create('acme/app', 'from the client')
    expect(created.token).toMatch(/^glptt-[0-9a-f]{40}$/)
    expect((await mark.triggers.get('acme/app', created.id)).description).toBe('from the client')
    expect((await collect(mark.triggers.list('acme/app'))).map((x) => x.id)).toContain(created.id)
    expect((await mark.triggers.update('acme/app', created.id, 'renamed')).description).toBe('renamed')
    await mark.triggers.remove('acme/app', created.id)
    await expect(mark.triggers.get('acme/app', created.id)).rejects.toMatchObject({ status: 404 })
  })
})
