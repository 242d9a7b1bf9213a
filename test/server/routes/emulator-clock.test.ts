import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { importFile } from '../../support/imports.js'
import { MARK_TRIGGER, pipelineSeed, triggerPipeline } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * `/-/emulator/clock` and `/-/emulator/settle` over HTTP against the real server: the clock
 * freezes, jumps and advances (never back), pipelines follow it move by move, and settle finishes
 * exports and imports without a sleep or a poll.
 */

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // a maintainer, no administrator
type Json = Record<string, unknown>
const T0 = '2030-01-01T00:00:00.000Z'
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString()

let t: TestServer
afterEach(() => t?.close())

const clock = (json: unknown, token = ROOT) => t.http('POST', '/-/emulator/clock', { token, json })
const settle = (json?: unknown, token = ROOT) => t.http('POST', '/-/emulator/settle', { token, json })
const now = async () => ((await t.http('GET', '/-/emulator/clock', { token: ROOT })).body as Json).now

describe('the clock', () => {
  beforeEach(async () => {
    t = await startServer(pipelineSeed)
  })

  it('runs on the wall clock until frozen, then stands still; Date and created_at follow it', async () => {
    const before = Date.now()
    const read = await t.http('GET', '/-/emulator/clock', { token: ROOT })
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ now: expect.any(String), frozen: false })
    expect(Date.parse((read.body as Json).now as string)).toBeGreaterThanOrEqual(before)

    const frozen = await clock({ action: 'freeze', time: '2030-01-01T01:00:00+01:00' })
    expect(frozen.status).toBe(200)
    expect(frozen.body).toEqual({
      clock: { now: T0, frozen: true },
      ran: { pipeline_moves: 0, transfer_jobs: 0 },
    })
    const issue = await t.http('POST', '/api/v4/projects/acme%2Fapp/issues', {
      token: MARK,
      json: { title: 'At midnight' },
    })
    expect(issue.status).toBe(201)
    expect(issue.headers.date).toBe('Tue, 01 Jan 2030 00:00:00 GMT')
    expect(issue.body).toMatchObject({ created_at: T0, updated_at: T0 })
    expect(await now()).toBe(T0)

    const later = await clock({ action: 'advance', seconds: 90.5 })
    expect(later.body).toMatchObject({ clock: { now: at(90_500), frozen: true } })
    expect((await t.http('GET', '/api/v4/version', { token: ROOT })).headers.date).toBe(
      'Tue, 01 Jan 2030 00:01:30 GMT',
    )
    const set = await clock({ action: 'set', time: '2030-06-01T12:00:00Z' })
    expect(set.body).toMatchObject({ clock: { now: '2030-06-01T12:00:00.000Z', frozen: true } })

    const running = await clock({ action: 'unfreeze' })
    expect(running.body).toMatchObject({ clock: { frozen: false } })
    const after = Date.parse((await now()) as string)
    expect(after).toBeGreaterThanOrEqual(Date.parse('2030-06-01T12:00:00Z'))
    expect(after).toBeLessThan(Date.parse('2030-06-01T12:01:00Z'))
  })

  it('due dates follow the frozen clock: a milestone expires when the clock passes its due date', async () => {
    await clock({ action: 'freeze', time: T0 })
    const made = await t.http('POST', '/api/v4/projects/acme%2Fapp/milestones', {
      token: MARK,
      json: { title: 'Q1', due_date: '2030-01-02' },
    })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ due_date: '2030-01-02', expired: false, created_at: T0 })
    const id = (made.body as Json).id
    await clock({ action: 'advance', seconds: 86_400 })
    const due = await t.http('GET', `/api/v4/projects/acme%2Fapp/milestones/${id}`, { token: MARK })
    expect(due.body).toMatchObject({ expired: false })
    await clock({ action: 'advance', seconds: 86_400 })
    const past = await t.http('GET', `/api/v4/projects/acme%2Fapp/milestones/${id}`, { token: MARK })
    expect(past.body).toMatchObject({ expired: true })
    expect(past.headers.date).toBe('Thu, 03 Jan 2030 00:00:00 GMT')
  })

  it('takes a form body too, as curl -d sends it', async () => {
    await clock({ action: 'freeze', time: T0 })
    const res = await t.http('POST', '/-/emulator/clock', {
      token: ROOT,
      form: 'action=advance&seconds=1.25',
    })
    expect(res).toMatchObject({ status: 200, body: { clock: { now: at(1250), frozen: true } } })
  })

  it('never goes back: set or freeze before its time is 409 and moves nothing', async () => {
    await clock({ action: 'freeze', time: T0 })
    for (const body of [
      { action: 'set', time: '2029-12-31T23:59:59.999Z' },
      { action: 'freeze', time: '2000-01-01T00:00:00Z' },
    ]) {
      const res = await clock(body)
      expect(res.status).toBe(409)
      expect((res.body as Json).message).toMatch(/is before the server's time 2030-01-01T00:00:00.000Z/)
    }
    expect(await now()).toBe(T0)
    // The same instant is no move back.
    expect((await clock({ action: 'set', time: T0 })).status).toBe(200)
  })

  it.each([
    [{}, 'action is missing'],
    [{ action: 'rewind' }, 'action does not have a valid value'],
    [{ action: 'set' }, 'time is missing'],
    [{ action: 'set', time: 'tomorrow' }, 'time is invalid'],
    [{ action: 'set', time: '2030-01-02T00:00:00' }, 'time is invalid'],
    [{ action: 'freeze', time: '2030-13-40T00:00:00Z' }, 'time is invalid'],
    [{ action: 'advance' }, 'seconds is missing'],
    [{ action: 'advance', seconds: -1 }, 'seconds is invalid'],
    [{ action: 'advance', seconds: 'soon' }, 'seconds is invalid'],
    [{ action: 'advance', seconds: 1e12 }, 'seconds is invalid'],
  ])('refuses %j with 400 %s and moves nothing', async (body, error) => {
    await clock({ action: 'freeze', time: T0 })
    const res = await clock(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error })
    expect(await t.http('GET', '/-/emulator/clock', { token: ROOT })).toMatchObject({
      body: { now: T0, frozen: true },
    })
  })

  it('is for administrators: 401 without a token, 403 for others, nothing moved', async () => {
    await clock({ action: 'freeze', time: T0 })
    for (const [method, path, json] of [
      ['GET', '/-/emulator/clock', undefined],
      ['POST', '/-/emulator/clock', { action: 'advance', seconds: 60 }],
      ['POST', '/-/emulator/settle', {}],
    ] as const) {
      expect(await t.http(method, path, { json })).toMatchObject({
        status: 401,
        body: { message: '401 Unauthorized' },
      })
      expect(await t.http(method, path, { json, token: MARK })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      })
    }
    expect(await now()).toBe(T0)
  })

  it('a reset returns to the start-up clock', async () => {
    await clock({ action: 'freeze', time: T0 })
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    const read = (await t.http('GET', '/-/emulator/clock', { token: ROOT })).body as Json
    expect(read.frozen).toBe(false)
    expect(Math.abs(Date.parse(read.now as string) - Date.now())).toBeLessThan(60_000)
  })

  it('is listed in the OpenAPI document', async () => {
    const doc = (await t.http('GET', '/api/v4/openapi.json')).body as { paths: Record<string, Json> }
    expect(Object.keys(doc.paths['/-/emulator/clock']!)).toEqual(
      expect.arrayContaining(['servers', 'get', 'post']),
    )
    expect(doc.paths['/-/emulator/settle']).toHaveProperty('post.responses.409')
  })
})

describe('pipelines on the clock', () => {
  beforeEach(async () => {
    t = await startServer(pipelineSeed, { frozenAt: new Date(T0) })
  })
  const trigger = (project: string, token = MARK_TRIGGER) => triggerPipeline(t, project, token)
  const pipeline = async (id: number, project = 'acme/app') =>
    (await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/pipelines/${id}`, { token: ROOT }))
      .body as Json

  it('advance moves a pipeline through its states, each move stamped with its due time', async () => {
    const id = await trigger('acme/app')
    expect(await pipeline(id)).toMatchObject({ status: 'created', created_at: T0, started_at: null })
    const steps: [number, number, Json][] = [
      [0.5, 1, { status: 'pending', started_at: null, finished_at: null }],
      [0.5, 1, { status: 'running', started_at: at(1000), finished_at: null }],
      // build ends at 3 s and test is queued then; test runs from 3.5 s
      [4, 3, { status: 'running', started_at: at(1000), finished_at: null }],
      [0.5, 1, { status: 'success', started_at: at(1000), finished_at: at(5500), duration: 5 }],
      [60, 0, { status: 'success', finished_at: at(5500), updated_at: at(5500) }],
    ]
    for (const [seconds, moves, state] of steps) {
      const res = await clock({ action: 'advance', seconds })
      expect(res.status).toBe(200)
      expect((res.body as Json).ran).toEqual({ pipeline_moves: moves, transfer_jobs: 0 })
      expect(await pipeline(id)).toMatchObject({ ...state, created_at: T0 })
    }
    const jobs = (await t.http('GET', `/api/v4/projects/acme%2Fapp/pipelines/${id}/jobs`, { token: ROOT }))
      .body as Json[]
    expect(jobs.map((j) => [j.name, j.status, j.started_at, j.finished_at])).toEqual([
      ['test', 'success', at(3500), at(5500)],
      ['build', 'success', at(1000), at(3000)],
    ])
  })

  it('settle runs a pipeline to its end, the clock jumping to its last move', async () => {
    const id = await trigger('acme/app')
    const res = await settle()
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      clock: { now: at(5500), frozen: true },
      ran: { pipeline_moves: 6, transfer_jobs: 0 },
    })
    expect(await pipeline(id)).toMatchObject({ status: 'success', finished_at: at(5500) })
    // Nothing left: a second settle runs nothing and leaves the clock where it is.
    expect((await settle()).body).toEqual({
      clock: { now: at(5500), frozen: true },
      ran: { pipeline_moves: 0, transfer_jobs: 0 },
    })
  })

  it('settle answers 409 with the pipeline that waits for a manual job, after running what it could', async () => {
    const made = await t.http('POST', '/api/v4/projects/acme%2Fmanual/triggers', {
      token: ROOT,
      json: { description: 'root' },
    })
    const id = await trigger('acme/manual', (made.body as Json).token as string)
    const res = await settle()
    expect(res.status).toBe(409)
    const project = (await t.http('GET', '/api/v4/projects/acme%2Fmanual', { token: ROOT })).body as Json
    expect(res.body).toEqual({
      message: 'settle cannot finish every pipeline: some wait for a manual job or a person',
      clock: { now: expect.any(String), frozen: true },
      ran: { pipeline_moves: expect.any(Number), transfer_jobs: 0 },
      pending: { pipelines: [{ id, project_id: project.id, status: 'manual' }], transfer_jobs: 0 },
    })
    expect(await pipeline(id, 'acme/manual')).toMatchObject({ status: 'manual' })
  })

  it.each([[{ timeout: 0 }], [{ timeout: 'long' }], [{ timeout: 301 }]])(
    'settle refuses %j with 400',
    async (body) => {
      const res = await settle(body)
      expect(res).toMatchObject({ status: 400, body: { error: 'timeout is invalid' } })
    },
  )
})

describe('settle finishes exports and imports without waiting', () => {
  let tmp: string
  beforeEach(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'settle-test-'))
    t = await startServer(widgetsSeed)
  })
  afterEach(() => rmSync(tmp, { recursive: true, force: true }))

  it('an export, then an import of it, each finished by one settle', async () => {
    const P = '/api/v4/projects/acme%2Fwidgets'
    expect((await t.http('POST', `${P}/export`, { token: ROOT })).status).toBe(202)
    const done = await settle()
    expect(done.status).toBe(200)
    expect((done.body as Json).ran).toEqual({ pipeline_moves: 0, transfer_jobs: 1 })
    expect((await t.http('GET', `${P}/export`, { token: ROOT })).body).toMatchObject({
      export_status: 'finished',
    })
    const dl = await request(`${t.baseUrl}${P}/export/download`, { headers: { 'private-token': ROOT } })
    expect(dl.statusCode).toBe(200)
    const archive = join(tmp, 'export.tar.gz')
    writeFileSync(archive, Buffer.from(await dl.body.arrayBuffer()))

    const made = await importFile(t, archive, { path: 'widgets-copy', namespace: 'acme' }, ROOT)
    expect(made.status).toBe(201)
    const imported = await settle()
    expect((imported.body as Json).ran).toEqual({ pipeline_moves: 0, transfer_jobs: 1 })
    const status = await t.http('GET', `/api/v4/projects/${made.body!.id}/import`, { token: ROOT })
    expect(status.body).toMatchObject({ import_status: 'finished', path_with_namespace: 'acme/widgets-copy' })
    const db = inspectDb(t.server.store)
    const copied = db
      .prepare(
        "SELECT COUNT(*) FROM issues i JOIN projects p ON p.id = i.project_id WHERE p.path = 'widgets-copy'",
      )
      .pluck()
      .get()
    expect(copied).toBeGreaterThan(0)
  })
})
