import { unzipSync } from 'fflate'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock, pipelineSeed, triggerPipeline } from '../../support/pipeline-seed.js'
import { defineJobs } from '../../support/job-definitions.js'

const ROOT = 'glpat-root-token'
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // outsider
const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>
let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(pipelineSeed, { clock })
})
afterEach(() => t.close())

/** Moves the clock until the pipeline stops moving (its jobs take 2 s each in acme/app). */
const runOut = async (project = 'acme/app') => {
  for (let i = 0; i < 20; i++) {
    clock.advance(1000)
    await t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/jobs`, { token: ROOT })
  }
}
const jobsOf = async (pipelineId: number, token = ROOT) =>
  (await t.http('GET', `${P}/pipelines/${pipelineId}/jobs`, { token, query: 'include_retried=true' }))
    .body as Json[]
const byName = async (pipelineId: number, name: string) =>
  (await jobsOf(pipelineId)).find((j) => j.name === name && j.status !== undefined) as Json

describe('job outcomes from their definitions', () => {
  it('echo lines print, files land in a zip, the trace ends with Job succeeded', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: {
        script: [
          'echo "building $CI_JOB_NAME on $CI_COMMIT_REF_NAME"',
          'echo hi > out.txt',
          'echo x > skip.md',
        ],
        artifacts: { paths: ['out.txt'], when: 'on_success', expire_in: '1 week' },
      },
    })
    await runOut()
    const build = await byName(pid, 'build')
    expect(build).toMatchObject({ status: 'success', allow_failure: false })
    expect(build.artifacts_file).toEqual({ filename: 'artifacts.zip', size: expect.any(Number) })
    const size = (build.artifacts_file as Json).size as number
    const traceRes = await t.http('GET', `${P}/jobs/${build.id as number}/trace`, { token: DANA })
    expect(traceRes.status).toBe(200)
    expect(traceRes.headers['content-type']).toMatch(/^text\/plain/)
    expect(traceRes.headers['content-disposition']).toBe(`infile; filename="${build.id as number}.log"`)
    const trace = traceRes.text
    expect(trace).toContain(
      '\x1b[32;1m$ echo "building $CI_JOB_NAME on $CI_COMMIT_REF_NAME"\x1b[0;m\nbuilding build on main\n',
    )
    expect(trace).toMatch(/section_start:\d+:step_script\r/)
    expect(trace.endsWith('\x1b[32;1mJob succeeded\x1b[0;m\n')).toBe(true)
    expect(build.artifacts).toEqual([
      { file_type: 'archive', size, filename: 'artifacts.zip', file_format: 'zip' },
      { file_type: 'trace', size: Buffer.byteLength(trace), filename: 'job.log', file_format: null },
    ])
    expect(build.artifacts_expire_at).toBe(
      new Date(Date.parse(build.finished_at as string) + 7 * 86400_000).toISOString(),
    )
    // Grape's order, but for `artifacts_file`, which our serializer writes last (optional keys go last).
    expect(Object.keys(build).slice(-8)).toEqual([
      'project',
      'artifacts',
      'runner',
      'runner_manager',
      'artifacts_expire_at',
      'archived',
      'tag_list',
      'artifacts_file',
    ])

    const zip = await t.http('GET', `${P}/jobs/${build.id as number}/artifacts`, { token: DANA })
    expect(zip.status).toBe(200)
    expect(zip.headers['content-disposition']).toContain('filename="artifacts.zip"')
    expect(Number(zip.headers['content-length'])).toBe(size)
    const raw = await fetch(`${t.baseUrl}${P}/jobs/${build.id as number}/artifacts`, {
      headers: { 'private-token': DANA },
    })
    const files = unzipSync(new Uint8Array(await raw.arrayBuffer()))
    expect(Object.keys(files)).toEqual(['out.txt'])
    expect(Buffer.from(files['out.txt'] as Uint8Array).toString()).toBe('hi\n')

    const one = await t.http('GET', `${P}/jobs/${build.id as number}/artifacts/out.txt`, { token: DANA })
    expect([one.status, one.text, one.headers['content-type']]).toEqual([
      200,
      'hi\n',
      'text/plain; charset=utf-8',
    ])
    const byRef = await t.http('GET', `${P}/jobs/artifacts/main/raw/out.txt`, {
      token: DANA,
      query: 'job=build',
    })
    expect([byRef.status, byRef.text]).toEqual([200, 'hi\n'])
    const download = await t.http('GET', `${P}/jobs/artifacts/main/download`, {
      token: DANA,
      query: 'job=build',
    })
    expect([download.status, Number(download.headers['content-length'])]).toEqual([200, size])
  })

  it('a last line exit 1 fails the job with the runner failure line and skips the rest', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: {
        script: ['echo about to fail', 'exit 1', 'echo never'],
        after_script: ['echo "after: $CI_JOB_STATUS"'],
      },
    })
    await runOut()
    expect((await jobsOf(pid)).map((j) => `${j.name}:${j.status}`)).toEqual(['test:skipped', 'build:failed'])
    const build = await byName(pid, 'build')
    expect(build).toMatchObject({
      failure_reason: 'script_failure',
      artifacts: [expect.objectContaining({ file_type: 'trace' })],
    })
    expect(build.artifacts_file).toBeUndefined()
    const trace = (await t.http('GET', `${P}/jobs/${build.id as number}/trace`, { token: ROOT })).text
    expect(trace).toContain('about to fail\n')
    expect(trace).not.toContain('never')
    expect(trace).toContain('after: failed\n')
    expect(trace.endsWith('\x1b[31;1mERROR: Job failed: exit code 1\n\x1b[0;m\n')).toBe(true)
    const pipeline = (await t.http('GET', `${P}/pipelines/${pid}`, { token: ROOT })).body as Json
    expect(pipeline.status).toBe('failed')
    const none = await t.http('GET', `${P}/jobs/${build.id as number}/artifacts`, { token: ROOT })
    expect([none.status, none.body]).toEqual([404, { message: '404 Not Found' }])
  })

  it('gives seed jobs a plain trace; a running job shows the header; the seed outcome still fails', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    clock.advance(1000)
    const running = (await jobsOf(pid)).find((j) => j.status === 'running') as Json
    const header = (await t.http('GET', `${P}/jobs/${running.id as number}/trace`, { token: ROOT })).text
    expect(header).toContain('Running with gitlab-runner')
    expect(header).toMatch(/section_start:\d+:step_script/)
    expect(header).not.toContain('Job succeeded')
    await runOut()
    const trace = (await t.http('GET', `${P}/jobs/${running.id as number}/trace`, { token: ROOT })).text
    expect(trace).toContain('\x1b[32;1m$ echo "build"\x1b[0;m\nbuild\n')
  })
})

describe('the jobs API', () => {
  it('lists a project jobs newest first with scope and pages without totals', async () => {
    const a = await triggerPipeline(t, 'acme/app')
    await runOut()
    const b = await triggerPipeline(t, 'acme/app')
    const list = await t.http('GET', `${P}/jobs`, { token: ROOT, query: 'per_page=3' })
    expect(list.status).toBe(200)
    const ids = (list.body as Json[]).map((j) => (j.pipeline as Json).id)
    expect(ids).toEqual([b, b, a])
    expect(list.headers['x-total']).toBeUndefined()
    expect(list.headers['x-next-page']).toBe('2')
    const scoped = await t.http('GET', `${P}/jobs`, { token: ROOT, query: 'scope[]=success&scope[]=failed' })
    expect((scoped.body as Json[]).map((j) => `${(j.pipeline as Json).id}:${j.status}`)).toEqual([
      `${a}:success`,
      `${a}:success`,
    ])
    const one = await t.http('GET', `${P}/jobs`, { token: ROOT, query: 'scope=created' })
    expect((one.body as Json[]).length).toBe(2)
    const bad = await t.http('GET', `${P}/jobs`, { token: ROOT, query: 'scope[]=nope' })
    expect([bad.status, bad.body]).toEqual([400, { error: 'scope does not have a valid value' }])
  })

  it('refuses as GitLab does: anonymous 401, outsiders 404, guests of a private project 403, missing jobs 404', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    const [job] = await jobsOf(pid)
    const id = (job as Json).id as number
    const anon = await t.http('GET', `${P}/jobs/${id}`)
    expect([anon.status, anon.body]).toEqual([401, { message: '401 Unauthorized' }])
    const outsider = await t.http('GET', `${P}/jobs/${id}`, { token: OTTO })
    expect([outsider.status, outsider.body]).toEqual([404, { message: '404 Project Not Found' }])
    // acme is private: gus is a guest there.
    for (const path of [`${P}/jobs/${id}`, `${P}/jobs/${id}/trace`, `${P}/jobs`]) {
      const guest = await t.http('GET', path, { token: GUS })
      expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    const missing = await t.http('GET', `${P}/jobs/999999`, { token: ROOT })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    const badId = await t.http('GET', `${P}/jobs/x1`, { token: ROOT })
    expect([badId.status, badId.body]).toEqual([400, { error: 'job_id is invalid' }])
  })
})
