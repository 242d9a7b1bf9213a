import { inspectDb } from '../../../src/server/store/inspect.js'
import { manualClock, pipelineSeed, triggerPipeline } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer (main is protected: Maintainers push)
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // outsider
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

// A reporter, and a public project where an outsider sees the code but is no member.
const seed = pipelineSeed
  .replace(
    '  - { username: otto,',
    '  - { username: rita, name: Rita Reporter, token: glpat-rita-token }\n  - { username: otto,',
  )
  .replace('members: { mark: maintainer,', 'members: { rita: reporter, mark: maintainer,')
const RITA = 'glpat-rita-token'
let clock: ReturnType<typeof manualClock>
const t = serverEach(seed, () => ({ clock: (clock = manualClock()) }))

const headSha = async (ref = 'main') =>
  ((await t.http('GET', `${APP}/repository/commits/${ref}`, { token: ROOT })).body as Json).id as string
/** `token` '' is anonymous. */
const post = (sha: string, json: Json, token = MARK) =>
  t.http('POST', `${APP}/statuses/${sha}`, { token, json })
const list = (sha: string, query = '', token = MARK) =>
  t.http('GET', `${APP}/repository/commits/${sha}/statuses${query}`, { token })
const rows = () => inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM commit_statuses').pluck().get()
const pipelineCount = () => inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM pipelines').pluck().get()

describe('POST /projects/:id/statuses/:sha', () => {
  it('makes an external pipeline for a commit without one, and the status in its external stage (201)', async () => {
    const sha = await headSha()
    const res = await post(sha, {
      state: 'pending',
      ref: 'main',
      context: 'ci/lint',
      target_url: 'https://ci.example.com/1',
      description: 'Queued',
      coverage: 81.5,
      // No parameter of GitLab's: a posted status never may fail.
      allow_failure: true,
    })
    expect(res.status).toBe(201)
    const status = res.body as Json
    expect(Object.keys(status)).toEqual([
      'id',
      'sha',
      'ref',
      'status',
      'name',
      'target_url',
      'description',
      'created_at',
      'started_at',
      'finished_at',
      'allow_failure',
      'coverage',
      'pipeline_id',
      'author',
    ])
    expect(status).toMatchObject({
      sha,
      ref: 'main',
      status: 'pending',
      name: 'ci/lint',
      target_url: 'https://ci.example.com/1',
      description: 'Queued',
      started_at: null,
      finished_at: null,
      allow_failure: false,
      coverage: 81.5,
      author: expect.objectContaining({ username: 'mark' }),
    })
    const pipeline = (
      await t.http('GET', `${APP}/pipelines/${status.pipeline_id as number}`, { token: MARK })
    ).body as Json
    expect(pipeline).toMatchObject({ source: 'external', sha, ref: 'main', status: 'pending' })
    // Not a job: the jobs API never shows it.
    expect(
      (await t.http('GET', `${APP}/pipelines/${pipeline.id as number}/jobs`, { token: MARK })).body,
    ).toEqual([])
    expect((await t.http('GET', `${APP}/jobs`, { token: MARK })).body).toEqual([])
    for (const [method, path] of [
      ['GET', `jobs/${status.id as number}`],
      ['POST', `jobs/${status.id as number}/retry`],
      ['POST', `jobs/${status.id as number}/cancel`],
    ] as const) {
      const job = await t.http(method, `${APP}/${path}`, { token: MARK })
      expect([path, job.status, job.body]).toEqual([path, 404, { message: '404 Not found' }])
    }
    // The emulator runs no posted status: a pipeline waiting on one cannot settle.
    const settle = await t.http('POST', '/-/emulator/settle', { token: ROOT })
    expect(settle.status).toBe(409)
    expect((settle.body as Json).pending).toMatchObject({
      pipelines: [{ id: pipeline.id, status: 'pending' }],
    })
  })

  it('moves the open status of the name: running, then success; the pipeline follows', async () => {
    const sha = await headSha()
    const first = (await post(sha, { state: 'running', ref: 'main' })).body as Json
    expect(first).toMatchObject({ status: 'running', name: 'default', finished_at: null })
    expect(first.started_at).not.toBeNull()
    const running = await t.http('GET', `${APP}/pipelines/${first.pipeline_id as number}`, { token: MARK })
    expect(running.body).toMatchObject({ status: 'running', started_at: first.started_at })
    clock.advance(5000)
    const done = (await post(sha, { state: 'success', ref: 'main', description: 'All good' })).body as Json
    expect(done).toMatchObject({ id: first.id, status: 'success', description: 'All good' })
    expect(done.finished_at).not.toBeNull()
    const pipelines = (await t.http('GET', `${APP}/pipelines`, { token: MARK })).body as Json[]
    expect(pipelines).toEqual([expect.objectContaining({ id: first.pipeline_id, status: 'success' })])
    // A finished status is not moved: the next post of the name makes a new one; the old one is retried.
    const again = (await post(sha, { state: 'failed', ref: 'main' })).body as Json
    expect(again.id).not.toBe(first.id)
    expect(again.pipeline_id).toBe(first.pipeline_id)
    const latest = (await list(sha)).body as Json[]
    expect(latest.map((s) => [s.id, s.status])).toEqual([[again.id, 'failed']])
    const all = (await list(sha, '?all=true')).body as Json[]
    expect(all.map((s) => s.id)).toEqual([first.id, again.id])
    const failed = await t.http('GET', `${APP}/pipelines/${first.pipeline_id as number}`, { token: MARK })
    expect((failed.body as Json).status).toBe('failed')
  })

  it('gives the pipeline the mean coverage of its current statuses, two decimals (`Ci::Pipeline#coverage`)', async () => {
    const sha = await headSha()
    const a = (await post(sha, { state: 'success', ref: 'main', name: 'a', coverage: 50 })).body as Json
    const pipelineOf = async () =>
      (await t.http('GET', `${APP}/pipelines/${a.pipeline_id as number}`, { token: MARK })).body as Json
    expect((await pipelineOf()).coverage).toBe('50.00')
    await post(sha, { state: 'success', ref: 'main', name: 'b', coverage: 91.5 })
    await post(sha, { state: 'success', ref: 'main', name: 'c' })
    expect((await pipelineOf()).coverage).toBe('70.75')
    // A retried status counts no more: `a` again, now without coverage.
    await post(sha, { state: 'failed', ref: 'main', name: 'a' })
    expect((await pipelineOf()).coverage).toBe('91.50')
  })

  it('goes to the newest pipeline of the sha: its ref without `ref`, and counts with its jobs', async () => {
    const id = await triggerPipeline(t, 'acme/app')
    const sha = await headSha()
    const res = await post(sha, { state: 'success', name: 'external' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ pipeline_id: id, ref: 'main' })
    // The pipeline's jobs and the posted status, in id order.
    const listed = (await list(sha)).body as Json[]
    expect(listed.map((s) => s.name)).toEqual(['build', 'test', 'external'])
    expect(listed.map((s) => s.pipeline_id)).toEqual([id, id, id])
    expect((await list(sha, '?stage=external')).body).toEqual([expect.objectContaining({ name: 'external' })])
    expect((await list(sha, '?name=test')).body).toEqual([expect.objectContaining({ name: 'test' })])
  })

  it('shares one id sequence with jobs: a commit’s list never shows an id twice', async () => {
    const sha = await headSha()
    const posted = (await post(sha, { state: 'success', ref: 'develop' })).body as Json
    const id = await triggerPipeline(t, 'acme/app')
    const jobs = (await t.http('GET', `${APP}/pipelines/${id}/jobs`, { token: MARK })).body as Json[]
    expect(jobs.every((j) => (j.id as number) > (posted.id as number))).toBe(true)
    const ids = ((await list(sha)).body as Json[]).map((s) => s.id)
    expect(ids).toEqual([posted.id, ...jobs.map((j) => j.id).reverse()])
  })

  it('without `ref` or a pipeline takes the first branch that holds the commit', async () => {
    const sha = await headSha()
    const branch = await t.http('POST', `${APP}/repository/branches`, {
      token: ROOT,
      json: { branch: 'aaa', ref: 'main' },
    })
    expect(branch.status).toBe(201)
    const res = await post(sha, { state: 'pending' })
    expect(res.body).toMatchObject({ ref: 'aaa' })
  })

  it('finds the pipeline by `pipeline_id` (404 when none of the sha and ref has it)', async () => {
    const sha = await headSha()
    const a = (await post(sha, { state: 'success', ref: 'main' })).body as Json
    const b = (await post(sha, { state: 'success', ref: 'develop' })).body as Json
    expect(a.pipeline_id).not.toBe(b.pipeline_id)
    const res = await post(sha, { state: 'pending', name: 'late', pipeline_id: a.pipeline_id })
    expect(res.body).toMatchObject({ pipeline_id: a.pipeline_id, ref: 'main' })
    const missing = await post(sha, { state: 'pending', ref: 'develop', pipeline_id: a.pipeline_id })
    expect([missing.status, missing.body]).toEqual([
      404,
      { message: '404 Pipeline for pipeline_id, sha and ref Not Found' },
    ])
    const onPipeline = (await list(sha, `?pipeline_id=${b.pipeline_id as number}`)).body as Json[]
    expect(onPipeline.map((s) => s.id)).toEqual([b.id])
    const onRef = (await list(sha, '?ref=main')).body as Json[]
    expect(onRef.map((s) => s.id)).toEqual([a.id, (res.body as Json).id])
  })

  it('refuses bad input with GitLab’s answers and changes nothing', async () => {
    const sha = await headSha()
    await post(sha, { state: 'running', ref: 'main', name: 'busy' })
    const before = [rows(), pipelineCount()]
    const cases: [string, Json, number, unknown][] = [
      ['no state', { ref: 'main' }, 400, { error: 'state is missing, state does not have a valid value' }],
      ['bad state', { state: 'done', ref: 'main' }, 400, { error: 'state does not have a valid value' }],
      ['unknown sha', { state: 'success', ref: 'main' }, 404, { message: '404 Commit Not Found' }],
      [
        'running again',
        { state: 'running', ref: 'main', name: 'busy' },
        400,
        {
          message:
            'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")',
        },
      ],
      [
        'running to pending',
        { state: 'pending', ref: 'main', name: 'busy' },
        400,
        {
          message:
            'Cannot transition status via :enqueue from :running (Reason(s): Status cannot transition via "enqueue")',
        },
      ],
      [
        'blocked target_url',
        { state: 'success', ref: 'main', target_url: 'ftp://ci.example.com/1' },
        400,
        { message: { target_url: ['is blocked: Only allowed schemes are http, https'] } },
      ],
      [
        'long description',
        { state: 'success', ref: 'main', description: 'x'.repeat(256) },
        400,
        { message: { description: ['is too long (maximum is 255 characters)'] } },
      ],
    ]
    for (const [what, json, status, body] of cases) {
      const res = await post(what === 'unknown sha' ? 'f'.repeat(40) : sha, json)
      expect([what, res.status, res.body]).toEqual([what, status, body])
    }
    expect([rows(), pipelineCount()]).toEqual(before)
  })

  it('keeps the external pipeline it made when the status is then refused (GitLab saves it first)', async () => {
    const sha = await headSha()
    const before = pipelineCount() as number
    const bad = await post(sha, { state: 'success', ref: 'develop', target_url: 'ftp://ci.example.com/1' })
    expect([bad.status, bad.body]).toEqual([
      400,
      { message: { target_url: ['is blocked: Only allowed schemes are http, https'] } },
    ])
    expect([rows(), pipelineCount()]).toEqual([0, before + 1])
    const left = (await t.http('GET', `${APP}/pipelines?ref=develop`, { token: MARK })).body as Json[]
    expect(left).toEqual([expect.objectContaining({ source: 'external', sha, status: 'created' })])
    // Nothing will move it: settling reports it.
    const settle = await t.http('POST', '/-/emulator/settle', { token: ROOT })
    expect([settle.status, (settle.body as Json).pending]).toEqual([
      409,
      expect.objectContaining({
        pipelines: [expect.objectContaining({ id: left[0]!.id, status: 'created' })],
      }),
    ])
    // The next post of the sha and ref goes to that pipeline.
    const ok = (await post(sha, { state: 'success', ref: 'develop' })).body as Json
    expect(ok.pipeline_id).toBe(left[0]!.id)
    expect(pipelineCount()).toBe(before + 1)
  })

  it('is a Developer’s on a ref they may write: 403 on a protected branch, a guest or an archived project; 401 anonymous; 404 hidden', async () => {
    const sha = await headSha()
    const before = [rows(), pipelineCount()]
    const cases: [string, string, number, Json][] = [
      [RITA, 'develop', 403, { message: '403 Forbidden' }],
      [GUS, 'develop', 403, { message: '403 Forbidden' }],
      ['', 'develop', 401, { message: '401 Unauthorized' }],
      [OTTO, 'develop', 404, { message: '404 Project Not Found' }],
    ]
    for (const [token, ref, status, body] of cases) {
      const res = await post(sha, { state: 'success', ref }, token)
      expect([token, res.status, res.body]).toEqual([token, status, body])
    }
    expect([rows(), pipelineCount()]).toEqual(before)
    // `update_pipeline` is asked of the pipeline, which GitLab saved first: refused, it stays (no status).
    const refused = await post(sha, { state: 'success', ref: 'main' }, DANA)
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect([rows(), pipelineCount()]).toEqual([before[0], (before[1] as number) + 1])
    const left = (await t.http('GET', `${APP}/pipelines?ref=main`, { token: MARK })).body as Json[]
    expect(left).toEqual([expect.objectContaining({ source: 'external', status: 'created' })])
    expect((await post(sha, { state: 'success', ref: 'develop' }, DANA)).status).toBe(201)
    expect((await t.http('POST', `${APP}/archive`, { token: ROOT })).status).toBe(201)
    const archived = await post(sha, { state: 'success', ref: 'develop' }, MARK)
    expect([archived.status, archived.body]).toEqual([403, { message: '403 Forbidden' }])
  })
})

describe('GET /projects/:id/repository/commits/:sha/statuses', () => {
  it('is a Reporter’s (403 for a guest, 401 anonymous, 404 hidden) and 404s an unknown commit', async () => {
    const sha = await headSha()
    await post(sha, { state: 'success', ref: 'main' })
    expect(((await list(sha, '', RITA)).body as Json[]).length).toBe(1)
    const cases: [string, number, Json][] = [
      [GUS, 403, { message: '403 Forbidden' }],
      ['', 401, { message: '401 Unauthorized' }],
      [OTTO, 404, { message: '404 Project Not Found' }],
    ]
    for (const [token, status, body] of cases) {
      const res = await list(sha, '', token)
      expect([token, res.status, res.body]).toEqual([token, status, body])
    }
    const unknown = await list('f'.repeat(40))
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Commit Not Found' }])
    const badOrder = await list(sha, '?order_by=name')
    expect([badOrder.status, badOrder.body]).toEqual([400, { error: 'order_by does not have a valid value' }])
  })

  it('pages in id order (or pipeline_id, then id) with GitLab’s headers; sort=desc turns it', async () => {
    const sha = await headSha()
    const ids: number[] = []
    for (const [n, ref] of ['main', 'develop', 'main'].entries())
      ids.push(((await post(sha, { state: 'pending', ref, name: `s${n}` })).body as Json).id as number)
    const first = await list(sha, '?per_page=2')
    expect((first.body as Json[]).map((s) => s.id)).toEqual(ids.slice(0, 2))
    expect(first.headers['x-total']).toBe('3')
    expect(first.headers['x-total-pages']).toBe('2')
    expect(first.headers['x-next-page']).toBe('2')
    expect(first.headers.link).toContain('rel="next"')
    const second = await list(sha, '?per_page=2&page=2')
    expect((second.body as Json[]).map((s) => s.id)).toEqual(ids.slice(2))
    const desc = await list(sha, '?sort=desc')
    expect((desc.body as Json[]).map((s) => s.id)).toEqual([...ids].reverse())
    const byPipeline = await list(sha, '?order_by=pipeline_id&sort=desc')
    // main's pipeline came first: develop's (newer) leads when descending.
    expect((byPipeline.body as Json[]).map((s) => s.id)).toEqual([ids[1], ids[2], ids[0]])
  })
})
