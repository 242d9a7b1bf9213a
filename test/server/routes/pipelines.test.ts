import { serverEach, startServer } from '../../support/server.js'
import {
  developersMerge,
  manualClock,
  MARK_TRIGGER,
  pipelineSeed,
  triggerPipeline,
} from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token'
const MAYA = 'glpat-maya-token' // another maintainer
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // outsider
const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>
let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const triggerIn = (project: string, token = MARK_TRIGGER) => triggerPipeline(t, project, token)
const pipeline = async (id: number, project = 'acme/app') =>
  (await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/pipelines/${id}`, { token: ROOT }))
    .body as Json
const jobs = async (id: number, project = 'acme/app', query = '') =>
  (
    (
      await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/pipelines/${id}/jobs`, {
        token: ROOT,
        query,
      })
    ).body as Json[]
  ).map((j) => `${j.name}:${j.status}`)
/** Follows a pipeline as a polling client would, one clock step at a time, until it stops moving. */
const follow = async (id: number, project = 'acme/app') => {
  const seen: string[] = []
  for (let step = 0; step < 40; step++) {
    const status = (await pipeline(id, project)).status as string
    if (seen[seen.length - 1] !== status) seen.push(status)
    clock.advance(250)
  }
  return seen
}
const emulate = (project: string, id: number, body: unknown, token = ROOT) =>
  t.http('PUT', `/-/emulator/projects/${encodeURIComponent(project)}/pipelines/${id}`, { token, json: body })

describe('pipelines move through GitLab statuses on the clock', () => {
  it('success: created, pending, running, success; jobs run in order', async () => {
    const id = await triggerIn('acme/app')
    expect(await jobs(id)).toEqual(['test:created', 'build:created'])
    clock.advance(1000)
    expect(await jobs(id)).toEqual(['test:created', 'build:running'])
    expect(await follow(id)).toEqual(['running', 'success'])
    expect(await jobs(id)).toEqual(['test:success', 'build:success'])
    const done = await pipeline(id)
    expect(done).toMatchObject({ duration: 5, queued_duration: 1, finished_at: '2026-03-01T10:00:05.500Z' })
    expect(done.detailed_status).toMatchObject({ text: 'Passed', group: 'success', icon: 'status_success' })
  })

  it('a fresh follow sees every status', async () => {
    expect(await follow(await triggerIn('acme/app'))).toEqual(['created', 'pending', 'running', 'success'])
  })

  it.each([
    ['acme/failing', 'failed', ['deploy:failed', 'test:success', 'build:success']],
    ['acme/canceled', 'canceled', ['build:canceled']],
    ['acme/manual', 'manual', ['release:manual', 'build:success']],
  ])('%s ends %s as its seed says', async (project, end, finalJobs) => {
    const pid = await rootTrigger(project)
    const seen = await follow(pid, project)
    expect(seen[seen.length - 1]).toBe(end)
    expect(await jobs(pid, project)).toEqual(finalJobs)
  })
})

/** Root makes a trigger in a project and starts a pipeline with it. */
async function rootTrigger(project: string) {
  const made = await t.http('POST', `/api/v4/projects/${encodeURIComponent(project)}/triggers`, {
    token: ROOT,
    json: { description: 'root' },
  })
  return triggerIn(project, (made.body as Json).token as string)
}

describe('reading pipelines', () => {
  it('lists with filters, order and pagination headers', async () => {
    const a = await triggerIn('acme/app')
    clock.advance(10_000)
    await t.http('POST', `${P}/ref/develop/trigger/pipeline`, { form: `token=${MARK_TRIGGER}` })
    const b = 2
    const all = await t.http('GET', `${P}/pipelines`, { token: GUS, query: 'per_page=1' })
    expect(all.status).toBe(200)
    expect((all.body as Json[]).map((p) => p.id)).toEqual([b])
    expect(all.headers).toMatchObject({ 'x-total': '2', 'x-total-pages': '2', 'x-next-page': '2' })
    expect(all.headers.link).toContain('order_by=id')
    const q = async (query: string) =>
      ((await t.http('GET', `${P}/pipelines`, { token: ROOT, query })).body as Json[]).map((p) => p.id)
    expect(await q('sort=asc')).toEqual([a, b])
    expect(await q('ref=develop')).toEqual([b])
    expect(await q('status=success')).toEqual([a])
    expect(await q('scope=finished')).toEqual([a])
    expect(await q('scope=running')).toEqual([])
    expect(await q('source=trigger&username=mark')).toEqual([b, a])
    expect(await q('source=push')).toEqual([])
    expect(await q('order_by=ref&sort=asc')).toEqual([b, a])
    const bad = await t.http('GET', `${P}/pipelines`, { token: ROOT, query: 'status=nope&order_by=sha' })
    expect([bad.status, bad.body]).toEqual([
      400,
      { error: 'status does not have a valid value, order_by does not have a valid value' },
    ])
  })

  it('answers 404 for hidden projects and missing pipelines, 400 for a bad id', async () => {
    const id = await triggerIn('acme/app')
    for (const token of [undefined, OTTO]) {
      const res = await t.http('GET', `${P}/pipelines/${id}`, { token })
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    }
    const missing = await t.http('GET', `${P}/pipelines/999`, { token: GUS })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    const bad = await t.http('GET', `${P}/pipelines/x1/jobs`, { token: GUS })
    expect([bad.status, bad.body]).toEqual([400, { error: 'pipeline_id is invalid' }])
    expect((await t.http('GET', `${P}/pipelines/${id}`, { token: GUS })).status).toBe(200)
  })

  it("shows variables to maintainers and to the pipeline's own developer (read_pipeline_variable)", async () => {
    const variables = async (id: number, token: string) =>
      (await t.http('GET', `${P}/pipelines/${id}/variables`, { token })).status
    const marks = await triggerIn('acme/app')
    expect(await variables(marks, GUS)).toBe(403)
    const refused = await t.http('GET', `${P}/pipelines/${marks}/variables`, { token: DANA })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await variables(marks, MAYA)).toBe(200)
    expect(await variables(marks, MARK)).toBe(200)
    const made = await t.http('POST', `${P}/pipeline`, { token: DANA, json: { ref: 'feature/x' } })
    expect(made.status).toBe(201)
    const danas = (made.body as Json).id as number
    expect(await variables(danas, DANA)).toBe(200)
    expect(await variables(danas, MAYA)).toBe(200)
    expect(await variables(danas, GUS)).toBe(403)
  })

  it('filters jobs by scope and hides retried ones unless asked', async () => {
    const id = await triggerIn('acme/failing', await tokenFor('acme/failing'))
    await follow(id, 'acme/failing')
    expect(await jobs(id, 'acme/failing', 'scope[]=failed')).toEqual(['deploy:failed'])
    expect(await jobs(id, 'acme/failing', 'scope=success')).toEqual(['test:success', 'build:success'])
    const bad = await t.http('GET', `/api/v4/projects/acme%2Ffailing/pipelines/${id}/jobs`, {
      token: ROOT,
      query: 'scope=nope',
    })
    expect([bad.status, bad.body]).toEqual([400, { error: 'scope does not have a valid value' }])
  })
})

async function tokenFor(project: string) {
  const made = await t.http('POST', `/api/v4/projects/${encodeURIComponent(project)}/triggers`, {
    token: MARK,
    json: { description: 'mark' },
  })
  return (made.body as Json).token as string
}

describe('cancel and retry', () => {
  it('cancel: developers who may update the ref cancel unfinished jobs (200); guests 403, anonymous 401, and nothing changes', async () => {
    const id = await triggerIn('acme/app')
    clock.advance(1000)
    const anon = await t.http('POST', `${P}/pipelines/${id}/cancel`)
    expect([anon.status, anon.body]).toEqual([401, { message: '401 Unauthorized' }])
    const guest = await t.http('POST', `${P}/pipelines/${id}/cancel`, { token: GUS })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    // The seed's main is fully protected (Maintainers push and merge): `protected_ref` refuses a Developer.
    const protectedRef = await t.http('POST', `${P}/pipelines/${id}/cancel`, { token: DANA })
    expect([protectedRef.status, protectedRef.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await jobs(id)).toEqual(['test:created', 'build:running'])
    await developersMerge(t, 'acme/app')
    const res = await t.http('POST', `${P}/pipelines/${id}/cancel`, { token: DANA })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'canceled', finished_at: expect.any(String) })
    clock.advance(60_000)
    expect(await jobs(id)).toEqual(['test:canceled', 'build:canceled'])
    expect((await pipeline(id)).status).toBe('canceled')
  })

  it('retry: failed jobs are replaced and the pipeline runs again to success (201)', async () => {
    const id = await triggerIn('acme/failing', await tokenFor('acme/failing'))
    await follow(id, 'acme/failing')
    const guest = await t.http('POST', `/api/v4/projects/acme%2Ffailing/pipelines/${id}/retry`, {
      token: GUS,
    })
    expect(guest.status).toBe(403)
    const retry = (token: string) =>
      t.http('POST', `/api/v4/projects/acme%2Ffailing/pipelines/${id}/retry`, { token })
    expect((await retry(DANA)).status).toBe(403) // main fully protected
    expect((await pipeline(id, 'acme/failing')).status).toBe('failed')
    await developersMerge(t, 'acme/failing')
    const res = await retry(DANA)
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'running', finished_at: null })
    expect(await follow(id, 'acme/failing')).toEqual(['running', 'success'])
    expect(await jobs(id, 'acme/failing', 'include_retried=true')).toEqual([
      'deploy:success',
      'deploy:failed',
      'test:success',
      'build:success',
    ])
  })
})

describe('protected refs (Ci::PipelinePolicy and Ci::BuildPolicy protected_ref)', () => {
  const FORBIDDEN = [403, { message: '403 Forbidden' }]
  const answer = async (method: 'GET' | 'POST', path: string, token: string) => {
    const res = await t.http(method, `${P}${path}`, { token })
    return [res.status, res.status >= 400 ? res.body : undefined]
  }
  const running = async (id: number) =>
    ((await t.http('GET', `${P}/pipelines/${id}/jobs`, { token: ROOT })).body as Json[]).find(
      (j) => j.status === 'running',
    ) as Json

  it("refuses a Developer a fully protected branch's pipeline and job writes and own variables; merge access opens them", async () => {
    const made = await t.http('POST', `${P}/pipeline`, { token: DANA, json: { ref: 'develop' } })
    expect(made.status).toBe(201)
    const id = (made.body as Json).id as number
    // develop protected after the fact, fully (Maintainers push and merge, the default levels).
    const protect = await t.http('POST', `${P}/protected_branches`, {
      token: MARK,
      json: { name: 'develop' },
    })
    expect(protect.status).toBe(201)
    clock.advance(1000)
    const job = (await running(id)).id as number
    expect(await answer('POST', `/pipelines/${id}/cancel`, DANA)).toEqual(FORBIDDEN)
    expect(await answer('POST', `/pipelines/${id}/retry`, DANA)).toEqual(FORBIDDEN)
    expect(await answer('POST', `/jobs/${job}/cancel`, DANA)).toEqual(FORBIDDEN)
    expect(await answer('GET', `/pipelines/${id}/variables`, DANA)).toEqual(FORBIDDEN)
    expect(await jobs(id)).toEqual(['test:created', 'build:running'])
    await developersMerge(t, 'acme/app', 'develop')
    expect(await answer('GET', `/pipelines/${id}/variables`, DANA)).toEqual([200, undefined])
    expect(await answer('POST', `/jobs/${job}/cancel`, DANA)).toEqual([201, undefined])
    expect(await answer('POST', `/pipelines/${id}/retry`, DANA)).toEqual([201, undefined])
  })

  it('POST /pipeline on a branch the caller may not write is 400 (Chain::Validate::Abilities), nothing made', async () => {
    const refused = await t.http('POST', `${P}/pipeline`, { token: DANA, json: { ref: 'main' } })
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        message: {
          base: [
            "You do not have sufficient permission to run a pipeline on 'main'. Please select a different branch or contact your administrator for assistance.",
          ],
        },
      },
    ])
    expect((await t.http('GET', `${P}/pipelines`, { token: ROOT })).body).toEqual([])
    expect((await t.http('POST', `${P}/pipeline`, { token: MARK, json: { ref: 'main' } })).status).toBe(201)
    await developersMerge(t, 'acme/app')
    expect((await t.http('POST', `${P}/pipeline`, { token: DANA, json: { ref: 'main' } })).status).toBe(201)
  })

  it("refuses a Developer a protected tag's pipeline writes; Maintainers and unprotected tags pass", async () => {
    for (const tag of ['v1', 'x1'])
      expect(
        (await t.http('POST', `${P}/repository/tags`, { token: MARK, json: { tag_name: tag, ref: 'main' } }))
          .status,
      ).toBe(201)
    const protect = await t.http('POST', `${P}/protected_tags`, {
      token: MARK,
      json: { name: 'v*', create_access_level: 40 },
    })
    expect(protect.status).toBe(201)
    const tagPipeline = async (ref: string) => {
      const res = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=${ref}&token=${MARK_TRIGGER}` })
      expect([res.status, (res.body as Json).tag]).toEqual([201, true])
      return (res.body as Json).id as number
    }
    const onProtected = await tagPipeline('v1')
    const onOpen = await tagPipeline('x1')
    expect(await answer('POST', `/pipelines/${onProtected}/cancel`, DANA)).toEqual(FORBIDDEN)
    expect(await answer('POST', `/pipelines/${onOpen}/cancel`, DANA)).toEqual([200, undefined])
    expect(await answer('POST', `/pipelines/${onProtected}/cancel`, MARK)).toEqual([200, undefined])
    expect((await pipeline(onProtected)).status).toBe('canceled')
  })
})

describe('CI/CD job tokens', () => {
  const running = async (id: number) => {
    clock.advance(1000)
    const view = await t.http('GET', `/-/emulator/projects/acme%2Fapp/pipelines/${id}`, { token: ROOT })
    return ((view.body as Json).jobs as Json[]).find((j) => j.status === 'running')?.token as string
  }

  it('reads jobs of its own project while running, with JOB-TOKEN or job_token', async () => {
    const id = await triggerIn('acme/app')
    const token = await running(id)
    expect(token).toMatch(/^glcbt-/)
    const jobsUrl = `${P}/pipelines/${id}/jobs`
    expect((await t.http('GET', jobsUrl, { headers: { 'job-token': token } })).status).toBe(200)
    expect((await t.http('GET', jobsUrl, { query: `job_token=${token}` })).status).toBe(200)
    // GitLab opens the route to job tokens for GET only: a HEAD with one is anonymous, as before.
    expect((await t.http('HEAD', jobsUrl, { headers: { 'job-token': token } })).status).toBe(404)
    // Not on routes GitLab does not open to job tokens, nor other projects.
    const list = await t.http('GET', `${P}/pipelines`, { headers: { 'job-token': token } })
    expect([list.status, list.body]).toEqual([404, { message: '404 Project Not Found' }])
    const other = await t.http('GET', `/api/v4/projects/acme%2Ffailing/pipelines/1/jobs`, {
      headers: { 'job-token': token },
    })
    expect([other.status, other.body]).toEqual([404, { message: '404 Project Not Found' }])
    const cancel = await t.http('POST', `${P}/pipelines/${id}/cancel`, { headers: { 'job-token': token } })
    expect(cancel.status).toBe(401)
    // Once the job has finished its token is worthless.
    clock.advance(60_000)
    const late = await t.http('GET', jobsUrl, { headers: { 'job-token': token } })
    expect([late.status, late.body]).toEqual([401, { message: '401 Unauthorized' }])
    const trigger = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=main&token=${token}` })
    expect([trigger.status, trigger.body]).toEqual([401, { message: 'Job is not running' }])
    const bogus = await t.http('GET', jobsUrl, { headers: { 'job-token': 'glcbt-bogus' } })
    expect(bogus.status).toBe(401)
  })

  it('GET /job answers the running job its token belongs to, as GET .../jobs/:job_id does', async () => {
    const id = await triggerIn('acme/app')
    const token = await running(id)
    const mine = await t.http('GET', '/api/v4/job', { headers: { 'job-token': token } })
    expect(mine.status).toBe(200)
    const body = mine.body as Json
    expect(body).toMatchObject({ status: 'running', pipeline: { id }, user: { username: 'mark' } })
    const same = await t.http('GET', `${P}/jobs/${body.id as number}`, { token: ROOT })
    expect(mine.body).toEqual(same.body)
    expect((await t.http('GET', '/api/v4/job', { query: `job_token=${token}` })).body).toEqual(same.body)
    // Any other credential is no job: GitLab's `not_found!('Job')`; no credential at all, a 401.
    const pat = await t.http('GET', '/api/v4/job', { token: ROOT })
    expect([pat.status, pat.body]).toEqual([404, { message: '404 Job Not Found' }])
    const anonymous = await t.http('GET', '/api/v4/job')
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    clock.advance(60_000)
    const late = await t.http('GET', '/api/v4/job', { headers: { 'job-token': token } })
    expect([late.status, late.body]).toEqual([401, { message: '401 Unauthorized' }])
  })

  it('triggers a downstream pipeline as the job user with source pipeline', async () => {
    const id = await triggerIn('acme/app')
    const token = await running(id)
    // acme/public's job token scope is on by default: with it off, any project's job token gets in.
    const scope = await t.http('PATCH', '/api/v4/projects/acme%2Fpublic/job_token_scope', {
      token: ROOT,
      json: { enabled: false },
    })
    expect(scope.status).toBe(204)
    const res = await t.http('POST', '/api/v4/projects/acme%2Fpublic/trigger/pipeline', {
      form: `ref=main&token=${token}`,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ source: 'pipeline', status: 'created', user: { username: 'mark' } })
    const row = inspectDb(t.server.store)
      .prepare('SELECT upstream_pipeline_id FROM pipelines WHERE id = ?')
      .get((res.body as Json).id)
    expect(row).toEqual({ upstream_pipeline_id: id })
  })
})

describe('PUT /-/emulator/projects/:id/pipelines/:pipeline_id', () => {
  it('drives the pipeline and its unfinished jobs to any status, and holds them there', async () => {
    const id = await triggerIn('acme/app')
    clock.advance(1000)
    const res = await emulate('acme/app', id, { status: 'failed' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, status: 'failed', finished_at: expect.any(String) })
    clock.advance(60_000)
    expect((await pipeline(id)).status).toBe('failed')
    expect(await jobs(id)).toEqual(['test:failed', 'build:failed'])
    expect((await emulate('acme/app', id, { status: 'skipped' })).body).toMatchObject({ status: 'skipped' })
  })

  it('is for administrators and checks its input; refusals change nothing', async () => {
    const id = await triggerIn('acme/app')
    expect((await emulate('acme/app', id, { status: 'failed' }, MARK)).status).toBe(403)
    expect(
      (await t.http('PUT', `/-/emulator/projects/acme%2Fapp/pipelines/${id}`, { json: { status: 'failed' } }))
        .status,
    ).toBe(401)
    const bad = await emulate('acme/app', id, { status: 'exploded' })
    expect([bad.status, bad.body]).toEqual([400, { error: 'status does not have a valid value' }])
    expect((await emulate('acme/app', id, {})).body).toEqual({
      error: 'status is missing, status does not have a valid value',
    })
    expect((await emulate('acme/app', 999, { status: 'failed' })).status).toBe(404)
    expect((await emulate('acme/nope', id, { status: 'failed' })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect((await pipeline(id)).status).toBe('created')
  })
})

it('a server on its own timer progresses without any request', async () => {
  jest.useFakeTimers({ advanceTimers: true })
  try {
    const own = manualClock()
    const server = await startServer(pipelineSeed, { clock: own })
    const res = await server.http('POST', '/api/v4/projects/1/trigger/pipeline', {
      json: { ref: 'main', token: MARK_TRIGGER },
    })
    expect(res.status).toBe(201)
    const status = () =>
      inspectDb(server.server.store).prepare('SELECT status FROM pipelines WHERE id = 1').pluck().get()
    for (let n = 0; n < 20; n++) {
      own.advance(500)
      jest.advanceTimersByTime(60_000)
    }
    expect(status()).toBe('success')
    await server.close()
  } finally {
    jest.useRealTimers()
  }
})
