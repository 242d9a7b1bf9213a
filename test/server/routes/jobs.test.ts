import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { ARTIFACT_CHUNK_BYTES } from '../../../src/server/jobs/job-emulation.js'
import { serverEach, startServer } from '../../support/server.js'
import {
  MARK_TRIGGER,
  developersMerge,
  manualClock,
  pipelineSeed,
  runOut,
  triggerPipeline,
} from '../../support/pipeline-seed.js'
import { commitFiles } from '../../support/ci-files.js'
import { defineJobs } from '../../support/job-definitions.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // outsider
const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>
let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

/** Moves the clock until the pipeline stops moving (its jobs take 2 s each in acme/app). */
const settle = (project = 'acme/app') => runOut(t, clock, { project, token: ROOT, steps: 20 })
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
    await settle()
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
    // `lib/api/entities/ci/job_basic.rb` and `job.rb`, in their order.
    expect(Object.keys(build)).toEqual([
      'id',
      'status',
      'stage',
      'name',
      'ref',
      'tag',
      'coverage',
      'allow_failure',
      'created_at',
      'started_at',
      'finished_at',
      'erased_at',
      'duration',
      'queued_duration',
      'user',
      'commit',
      'pipeline',
      'web_url',
      'project',
      'artifacts_file',
      'artifacts',
      'runner',
      'runner_manager',
      'artifacts_expire_at',
      'archived',
      'tag_list',
    ])

    const zip = await t.http('GET', `${P}/jobs/${build.id as number}/artifacts`, { token: DANA })
    expect(zip.status).toBe(200)
    expect(zip.headers['content-disposition']).toBe(
      `attachment; filename="artifacts.zip"; filename*=UTF-8''artifacts.zip`,
    )
    expect(zip.headers['content-type']).toBe('application/octet-stream')
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
    await settle()
    expect((await jobsOf(pid)).map((j) => `${j.name}:${j.status}`)).toEqual(['test:skipped', 'build:failed'])
    const build = await byName(pid, 'build')
    expect(build).toMatchObject({
      failure_reason: 'script_failure',
      artifacts: [expect.objectContaining({ file_type: 'trace' })],
    })
    expect(build.artifacts_file).toBeUndefined()
    expect(Object.keys(build).slice(16, 19)).toEqual(['pipeline', 'failure_reason', 'web_url'])
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
    await settle()
    const trace = (await t.http('GET', `${P}/jobs/${running.id as number}/trace`, { token: ROOT })).text
    expect(trace).toContain('\x1b[32;1m$ echo "build"\x1b[0;m\nbuild\n')
  })
})

describe('the jobs API', () => {
  it('lists a project jobs newest first with scope and pages without totals', async () => {
    const a = await triggerPipeline(t, 'acme/app')
    await settle()
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

  it("shows the pipeline's commit as the repository holds it (Entities::Commit, as the commits API)", async () => {
    const id = await triggerPipeline(t, 'acme/app')
    const job = (await jobsOf(id))[0] as Json
    const sha = ((await t.http('GET', `${P}/pipelines/${id}`, { token: ROOT })).body as Json).sha as string
    const commit = await t.http('GET', `${P}/repository/commits/${sha}`, { token: ROOT })
    expect(commit.status).toBe(200)
    const {
      stats: _stats,
      status: _status,
      last_pipeline: _last,
      project_id: _project,
      ...entity
    } = commit.body as Json
    expect(job.commit).toEqual(entity)
    expect(job.commit).toMatchObject({ id: sha, short_id: sha.slice(0, 11), trailers: {} })
    const one = await t.http('GET', `${P}/jobs/${job.id as number}`, { token: ROOT })
    expect((one.body as Json).commit).toEqual(entity)
  })

  it('refuses as GitLab does: anonymous 401, outsiders 404, missing jobs 404, bad ids 400', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    const [job] = await jobsOf(pid)
    const id = (job as Json).id as number
    const anon = await t.http('GET', `${P}/jobs/${id}`)
    expect([anon.status, anon.body]).toEqual([401, { message: '401 Unauthorized' }])
    const outsider = await t.http('GET', `${P}/jobs/${id}`, { token: OTTO })
    expect([outsider.status, outsider.body]).toEqual([404, { message: '404 Project Not Found' }])
    // acme is private and gus a guest there: public pipelines (GitLab's default) let him read jobs.
    for (const path of [`${P}/jobs/${id}`, `${P}/jobs/${id}/trace`, `${P}/jobs`]) {
      const guest = await t.http('GET', path, { token: GUS })
      expect(guest.status).toBe(200)
    }
    const missing = await t.http('GET', `${P}/jobs/999999`, { token: ROOT })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    const badId = await t.http('GET', `${P}/jobs/x1`, { token: ROOT })
    expect([badId.status, badId.body]).toEqual([400, { error: 'job_id is invalid' }])
  })
})

const MARK = 'glpat-mark-token' // maintainer
const post = (path: string, token?: string, json?: unknown) =>
  t.http('POST', `${P}${path}`, { ...(token ? { token } : {}), ...(json !== undefined ? { json } : {}) })
const stored = (sql: string, ...args: unknown[]) =>
  inspectDb(t.server.store)
    .prepare(sql)
    .all(...args)

describe('acting on jobs', () => {
  it('plays a manual job with variables its script sees; refuses jobs that are not playable', async () => {
    const made = await t.http('POST', '/api/v4/projects/acme%2Fmanual/triggers', {
      token: ROOT,
      json: { description: 'x' },
    })
    const pid = await triggerPipeline(t, 'acme/manual', (made.body as Json).token as string)
    defineJobs(t, pid, {
      release: {
        script: ['echo "releasing $VERSION" > notes.txt'],
        artifacts: { paths: ['notes.txt'], when: 'on_success' },
      },
    })
    await settle('acme/manual')
    const M = '/api/v4/projects/acme%2Fmanual'
    const list = (await t.http('GET', `${M}/pipelines/${pid}/jobs`, { token: ROOT })).body as Json[]
    const release = list.find((j) => j.name === 'release') as Json
    const build = list.find((j) => j.name === 'build') as Json
    expect(release.status).toBe('manual')
    const guest = await t.http('POST', `${M}/jobs/${release.id as number}/play`, { token: GUS })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    // A Developer may not write the fully protected main (`protected_ref`) until merging there is theirs.
    const onProtected = await t.http('POST', `${M}/jobs/${release.id as number}/play`, { token: DANA })
    expect([onProtected.status, onProtected.body]).toEqual([403, { message: '403 Forbidden' }])
    await developersMerge(t, 'acme/manual')
    const unplayable = await t.http('POST', `${M}/jobs/${build.id as number}/play`, { token: DANA })
    expect([unplayable.status, unplayable.body]).toEqual([
      400,
      { message: '400 Bad request - Unplayable Job' },
    ])
    // Nobody played anything (the jobs that ran keep only the variables they started with).
    expect(stored('SELECT * FROM ci_job_states WHERE user_id IS NOT NULL OR variables IS NOT NULL')).toEqual(
      [],
    )
    const played = await t.http('POST', `${M}/jobs/${release.id as number}/play`, {
      token: DANA,
      json: { job_variables_attributes: [{ key: 'VERSION', value: '1.2.3' }] },
    })
    expect(played.status).toBe(200)
    expect(played.body).toMatchObject({ id: release.id, status: 'pending', user: { username: 'dana' } })
    await settle('acme/manual')
    const after = await t.http('GET', `${M}/jobs/${release.id as number}/artifacts/notes.txt`, {
      token: DANA,
    })
    expect([after.status, after.text]).toEqual([200, 'releasing 1.2.3\n'])
    const pipeline = (await t.http('GET', `${M}/pipelines/${pid}`, { token: ROOT })).body as Json
    expect(pipeline.status).toBe('success')
  })

  it('retries a failed job into a new one that runs its script again', async () => {
    await developersMerge(t, 'acme/app')
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, { build: { script: ['echo "attempt $CI_JOB_ID"', 'exit 3'] } })
    await settle()
    const failed = await byName(pid, 'build')
    expect(failed.status).toBe('failed')
    const early = await post(`/jobs/${failed.id as number}/retry`, GUS)
    expect([early.status, early.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(stored('SELECT COUNT(*) AS n FROM ci_builds WHERE pipeline_id = ?', pid)).toEqual([{ n: 2 }])
    const retried = await post(`/jobs/${failed.id as number}/retry`, DANA)
    expect(retried.status).toBe(201)
    const fresh = retried.body as Json
    expect(fresh.id).not.toBe(failed.id)
    expect(fresh.status).toBe('pending')
    const again = await post(`/jobs/${failed.id as number}/retry`, DANA)
    expect([again.status, again.body]).toEqual([403, { message: '403 Forbidden - Job is not retryable' }])
    await settle()
    const trace = (await t.http('GET', `${P}/jobs/${fresh.id as number}/trace`, { token: ROOT })).text
    expect(trace).toContain(`attempt ${fresh.id as number}\n`)
    expect(trace).toContain('ERROR: Job failed: exit code 3')
    const all = (await jobsOf(pid)).map((j) => `${j.name}:${j.status}`)
    expect(all).toEqual(['build:failed', 'test:skipped', 'build:failed'])
  })

  it('cancels a running job (its trace says so) and skips the jobs after it; a finished one stays', async () => {
    await developersMerge(t, 'acme/app')
    const pid = await triggerPipeline(t, 'acme/app')
    clock.advance(1000)
    const running = (await jobsOf(pid)).find((j) => j.status === 'running') as Json
    const guest = await post(`/jobs/${running.id as number}/cancel`, GUS)
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    const anon = await post(`/jobs/${running.id as number}/cancel`)
    expect(anon.status).toBe(401)
    expect(stored('SELECT status FROM ci_builds WHERE id = ?', running.id)).toEqual([{ status: 'running' }])
    const res = await post(`/jobs/${running.id as number}/cancel`, DANA)
    expect([res.status, (res.body as Json).status]).toEqual([201, 'canceled'])
    expect((await jobsOf(pid)).map((j) => `${j.name}:${j.status}`)).toEqual([
      'test:skipped',
      'build:canceled',
    ])
    const trace = (await t.http('GET', `${P}/jobs/${running.id as number}/trace`, { token: ROOT })).text
    expect(trace.endsWith('\x1b[31;1mERROR: Job failed: canceled\x1b[0;m\n')).toBe(true)
    const twice = await post(`/jobs/${running.id as number}/cancel`, DANA)
    expect([twice.status, (twice.body as Json).status]).toEqual([201, 'canceled'])
    expect(((await t.http('GET', `${P}/pipelines/${pid}`, { token: ROOT })).body as Json).status).toBe(
      'canceled',
    )
  })

  it('erases a finished job: trace and artifacts go (Maintainer); unfinished or erased jobs are refused', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: { script: ['echo x > a.txt'], artifacts: { paths: ['a.txt'], when: 'always' } },
    })
    clock.advance(1000)
    const waiting = (await jobsOf(pid)).find((j) => j.name === 'test') as Json
    const early = await post(`/jobs/${waiting.id as number}/erase`, MARK)
    expect([early.status, early.body]).toEqual([403, { message: '403 Forbidden - Job is not erasable!' }])
    await settle()
    const build = await byName(pid, 'build')
    const dev = await post(`/jobs/${build.id as number}/erase`, DANA)
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(stored('SELECT COUNT(*) AS n FROM ci_job_traces WHERE build_id = ?', build.id)).toEqual([{ n: 1 }])
    expect(stored('SELECT build_id FROM ci_job_artifacts')).toEqual([{ build_id: build.id }])
    const erased = await post(`/jobs/${build.id as number}/erase`, MARK)
    expect(erased.status).toBe(201)
    expect(erased.body).toMatchObject({ id: build.id, erased_at: '2026-03-01T10:00:21.000Z', artifacts: [] })
    expect((erased.body as Json).artifacts_file).toBeUndefined()
    const trace = await t.http('GET', `${P}/jobs/${build.id as number}/trace`, { token: ROOT })
    expect([trace.status, trace.text]).toEqual([200, ''])
    expect(stored('SELECT * FROM ci_job_artifacts')).toEqual([])
    expect(stored('SELECT * FROM ci_job_artifact_chunks')).toEqual([])
    const again = await post(`/jobs/${build.id as number}/erase`, MARK)
    expect(again.status).toBe(403)
  })

  it('erase looks the job up first (404 before 403) and never runs on a ref the caller may not write', async () => {
    // `find_build!` comes before `erase_build`: a missing job is 404 for a Reporter or a Guest too.
    const users = await t.http('GET', '/api/v4/users', { token: ROOT, query: 'username=otto' })
    const ottoId = (users.body as Json[])[0]!.id
    const reporter = await t.http('POST', `${P}/members`, {
      token: ROOT,
      json: { user_id: ottoId, access_level: 20 },
    })
    expect(reporter.status).toBe(201)
    const NOT_FOUND = [404, { message: '404 Not found' }]
    for (const token of [OTTO, GUS, DANA]) {
      const missing = await post('/jobs/999999/erase', token)
      expect([missing.status, missing.body]).toEqual(NOT_FOUND)
    }
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: { script: ['echo x > a.txt'], artifacts: { paths: ['a.txt'], when: 'always' } },
    })
    await settle()
    const build = await byName(pid, 'build')
    // An existing job: `erase_build` needs `update_build`, which a Reporter or a Guest lacks.
    for (const token of [OTTO, GUS]) {
      const refused = await post(`/jobs/${build.id as number}/erase`, token)
      expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    expect(stored('SELECT build_id FROM ci_job_artifacts')).toEqual([{ build_id: build.id }])
    // main protected so that no one may push or merge: `protected_ref` prevents `erase_build`, the
    // Maintainer whose pipeline it is included (app/policies/ci/build_policy.rb).
    const branches = `${P}/protected_branches`
    expect((await t.http('DELETE', `${branches}/main`, { token: ROOT })).status).toBe(204)
    const locked = await t.http('POST', branches, {
      token: ROOT,
      json: { name: 'main', push_access_level: 0, merge_access_level: 0 },
    })
    expect(locked.status).toBe(201)
    const refused = await post(`/jobs/${build.id as number}/erase`, MARK)
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(stored('SELECT build_id FROM ci_job_artifacts')).toEqual([{ build_id: build.id }])
    await developersMerge(t, 'acme/app')
    expect((await post(`/jobs/${build.id as number}/erase`, MARK)).status).toBe(201)
  })
})

describe('an archived project', () => {
  it('refuses play, retry, erase and cancel, retrying a pipeline and reading its variables (403), whatever the ref', async () => {
    // A tag pipeline: an archived project's branches are written by no one, so `protected_ref` alone
    // refuses their jobs' writes; a tag's pipeline shows the archived check of its own.
    const tag = await t.http('POST', `${P}/repository/tags`, {
      token: ROOT,
      json: { tag_name: 'v1', ref: 'main' },
    })
    expect(tag.status).toBe(201)
    const made = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=v1&token=${MARK_TRIGGER}` })
    expect(made.status).toBe(201)
    const pid = (made.body as Json).id as number
    defineJobs(t, pid, { build: { script: ['exit 3'] } })
    await settle()
    const failed = await byName(pid, 'build')
    expect(failed.status).toBe('failed')
    expect((await post('/archive', ROOT)).status).toBe(201)
    // `ArchivedAbilities` prevents `update_build`, `admin_build`, `update_pipeline` and `admin_pipeline`.
    const refused = [
      await post(`/jobs/${failed.id as number}/erase`, ROOT),
      await post(`/jobs/${failed.id as number}/retry`, DANA),
      // 403 before the job's own 400 `Unplayable Job`.
      await post(`/jobs/${failed.id as number}/play`, DANA),
      await post(`/pipelines/${pid}/retry`, DANA),
      await t.http('GET', `${P}/pipelines/${pid}/variables`, { token: MARK }),
      // `cancel_build` stays, but no one writes the tag (`can_create_tag?` asks `push_code`): `protected_ref`.
      await post(`/jobs/${failed.id as number}/cancel`, DANA),
    ]
    expect(refused.map((r) => [r.status, r.body])).toEqual(
      Array.from({ length: 6 }, () => [403, { message: '403 Forbidden' }]),
    )
    expect(stored('SELECT COUNT(*) AS n FROM ci_builds WHERE pipeline_id = ?', pid)).toEqual([{ n: 2 }])
    expect((await t.http('GET', `${P}/jobs/${failed.id as number}/trace`, { token: ROOT })).text).not.toBe('')
    // Unarchived, the same calls go through.
    expect((await post('/unarchive', ROOT)).status).toBe(201)
    expect((await post(`/jobs/${failed.id as number}/retry`, DANA)).status).toBe(201)
  })
})

describe('bridges, job tokens and reset', () => {
  it('lists bridges (trigger jobs) with their downstream pipeline; builds leave them out', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, { test: { script: [], trigger: { include: ['child.yml'], strategy: 'depend' } } })
    const res = await t.http('GET', `${P}/pipelines/${pid}/bridges`, { token: ROOT })
    expect(res.status).toBe(200)
    const [bridge] = res.body as Json[]
    expect(bridge).toMatchObject({ name: 'test', downstream_pipeline: null })
    expect(Object.keys(bridge as Json).slice(-3)).toEqual(['web_url', 'project', 'downstream_pipeline'])
    // A child pipeline started by the bridge, as the CI engine writes it.
    const child = await triggerPipeline(t, 'acme/app')
    inspectDb(t.server.store)
      .prepare('UPDATE pipelines SET upstream_pipeline_id = ?, upstream_job_id = ?, source = ? WHERE id = ?')
      .run(pid, (bridge as Json).id, 'parent_pipeline', child)
    const withChild = (
      (await t.http('GET', `${P}/pipelines/${pid}/bridges`, { token: ROOT })).body as Json[]
    )[0]
    expect(withChild?.downstream_pipeline).toMatchObject({ id: child, source: 'parent_pipeline' })
    const builds = ((await t.http('GET', `${P}/jobs`, { token: ROOT })).body as Json[]).map((j) => j.id)
    expect(builds).toHaveLength(3)
    expect(builds).not.toContain((bridge as Json).id)
    const scoped = await t.http('GET', `${P}/pipelines/${pid}/bridges`, {
      token: ROOT,
      query: 'scope=success',
    })
    expect(scoped.body).toEqual([])
    const missing = await t.http('GET', `${P}/pipelines/999/bridges`, { token: ROOT })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
  })

  it("a running job's token downloads its own project's artifacts; a finished job's token is refused", async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: { script: ['echo art > a.txt'], artifacts: { paths: ['a.txt'], when: 'on_success' } },
    })
    await settle()
    const build = await byName(pid, 'build')
    const next = await triggerPipeline(t, 'acme/app')
    clock.advance(1000)
    const view = (await t.http('GET', `/-/emulator/projects/acme%2Fapp/pipelines/${next}`, { token: ROOT }))
      .body as {
      jobs: { status: string; token: string | null }[]
    }
    const token = view.jobs.find((j) => j.status === 'running')?.token as string
    const own = await t.http('GET', `${P}/jobs/${build.id as number}/artifacts/a.txt`, {
      headers: { 'job-token': token },
    })
    expect([own.status, own.text]).toEqual([200, 'art\n'])
    const other = await t.http('GET', '/api/v4/projects/acme%2Fother/jobs/1/artifacts', {
      headers: { 'job-token': token },
    })
    expect([other.status, other.body]).toEqual([404, { message: '404 Project Not Found' }])
    await settle()
    const late = await t.http('GET', `${P}/jobs/${build.id as number}/artifacts`, {
      headers: { 'job-token': token },
    })
    expect(late.status).toBe(401)
  })

  it("a running job's token reads its own project's raw files, and no other project's (the job token scope)", async () => {
    for (const project of ['acme/app', 'acme/other'])
      await commitFiles(t, project, 'main', { 'notes.txt': `${project}\n` }, 'glpat-root-token')
    await triggerPipeline(t, 'acme/app')
    clock.advance(1000)
    const pipelines = (await t.http('GET', `${P}/pipelines`, { token: ROOT })).body as Json[]
    const view = (
      await t.http('GET', `/-/emulator/projects/acme%2Fapp/pipelines/${pipelines[0]!.id as number}`, {
        token: ROOT,
      })
    ).body as { jobs: { status: string; token: string | null }[] }
    const token = view.jobs.find((j) => j.status === 'running')?.token as string
    const raw = (project: string) =>
      t.http('GET', `/api/v4/projects/${encodeURIComponent(project)}/repository/files/notes.txt/raw`, {
        headers: { 'job-token': token },
        query: 'ref=main',
      })
    const own = await raw('acme/app')
    expect([own.status, own.text]).toEqual([200, 'acme/app\n'])
    // The job's user (mark) may read acme/other, but the token reaches only its own project.
    const other = await raw('acme/other')
    expect([other.status, other.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it('with public_jobs off a Guest is refused jobs, traces and artifacts; a Developer and a running job token still read them', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: { script: ['echo art > a.txt'], artifacts: { paths: ['a.txt'], when: 'on_success' } },
    })
    await settle()
    const build = (await byName(pid, 'build')).id as number
    const reads = [
      `${P}/jobs/${build}`,
      `${P}/jobs/${build}/trace`,
      `${P}/jobs/${build}/artifacts/a.txt`,
      `${P}/jobs/artifacts/main/raw/a.txt?job=build`,
    ]
    const statuses = async (headers: Record<string, string>) =>
      Promise.all(reads.map(async (path) => (await t.http('GET', path, { headers })).status))
    // GitLab's default (`public_builds`): a Guest of the private project reads them.
    expect(await statuses({ 'private-token': GUS })).toEqual([200, 200, 200, 200])
    const off = await t.http('PUT', P, { token: ROOT, json: { public_jobs: false } })
    expect([off.status, (off.body as Json).public_jobs]).toEqual([200, false])
    for (const path of [...reads, `${P}/jobs`, `${P}/pipelines`, `${P}/pipelines/${pid}`])
      expect(await t.http('GET', path, { token: GUS })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      })
    // `read_pipeline` goes with it in a private project: a Guest's pipeline jobs are refused too.
    expect((await t.http('GET', `${P}/pipelines/${pid}/jobs`, { token: GUS })).status).toBe(403)
    expect(await statuses({ 'private-token': DANA })).toEqual([200, 200, 200, 200])
    const next = await triggerPipeline(t, 'acme/app')
    clock.advance(1000)
    const view = (await t.http('GET', `/-/emulator/projects/acme%2Fapp/pipelines/${next}`, { token: ROOT }))
      .body as { jobs: { status: string; token: string | null }[] }
    const token = view.jobs.find((j) => j.status === 'running')?.token as string
    expect(await statuses({ 'job-token': token })).toEqual([200, 200, 200, 200])
  })

  it('builds_access_level: private leaves jobs and pipelines to members, disabled leaves jobs to no one', async () => {
    const PUB = '/api/v4/projects/acme%2Fpublic'
    const made = await t.http('POST', `${PUB}/pipeline`, { token: ROOT, json: { ref: 'main' } })
    expect(made.status).toBe(201)
    const pid = (made.body as Json).id as number
    const job = ((await t.http('GET', `${PUB}/pipelines/${pid}/jobs`, { token: ROOT })).body as Json[])[0]!
    const reads = (token?: string) =>
      Promise.all(
        [`${PUB}/pipelines`, `${PUB}/pipelines/${pid}`, `${PUB}/jobs/${job.id as number}`].map(
          async (path) => (await t.http('GET', path, token ? { token } : {})).status,
        ),
      )
    const jobsOfPipeline = async (token: string) => {
      const res = await t.http('GET', `${PUB}/pipelines/${pid}/jobs`, { token })
      return [res.status, (res.body as Json[]).length]
    }
    expect(await reads(OTTO)).toEqual([200, 200, 200])
    const set = async (level: string) =>
      expect((await t.http('PUT', PUB, { token: ROOT, json: { builds_access_level: level } })).status).toBe(
        200,
      )
    // ProjectFeature#feature_available?: `private` is for members (Guest and up) and administrators.
    await set('private')
    expect(await reads(OTTO)).toEqual([403, 403, 403])
    expect(await reads()).toEqual([403, 403, 401])
    expect((await t.http('GET', `${PUB}/pipelines/${pid}/jobs`, { token: OTTO })).status).toBe(403)
    expect(await reads(GUS)).toEqual([200, 200, 200])
    expect(await reads(ROOT)).toEqual([200, 200, 200])
    // `disabled` prevents `read_build` for everyone; `read_pipeline` stays (internal_builds_disabled), so a
    // pipeline's jobs list answers, empty.
    await set('disabled')
    expect(await reads(ROOT)).toEqual([403, 403, 403])
    expect(await jobsOfPipeline(ROOT)).toEqual([200, 0])
    expect(await jobsOfPipeline(OTTO)).toEqual([200, 0])
    // Every build ability goes with it: an administrator may not cancel or erase the job.
    for (const action of ['cancel', 'erase'])
      expect(
        (await t.http('POST', `${PUB}/jobs/${job.id as number}/${action}`, { token: ROOT })).body,
      ).toEqual({ message: '403 Forbidden' })
  })

  it('reset returns to the seed: traces and artifacts made since go', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: { script: ['echo x > a.txt'], artifacts: { paths: ['a.txt'], when: 'on_success' } },
    })
    await settle()
    expect(stored('SELECT COUNT(*) AS n FROM ci_job_traces')).toEqual([{ n: 2 }])
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    for (const table of [
      'ci_job_traces',
      'ci_job_artifacts',
      'ci_job_artifact_chunks',
      'ci_job_artifact_entries',
    ])
      expect(stored(`SELECT COUNT(*) AS n FROM ${table}`)).toEqual([{ n: 0 }])
  })

  it('answers 400 for paths that leave the archive and 404 for files it lacks', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: { script: ['echo x > a.txt'], artifacts: { paths: ['a.txt'], when: 'on_success' } },
    })
    await settle()
    const build = await byName(pid, 'build')
    const base = `${P}/jobs/${build.id as number}/artifacts`
    const missing = await t.http('GET', `${base}/b.txt`, { token: ROOT })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not Found' }])
    const up = await t.http('GET', `${base}/x/..%2F..%2Fa.txt`, { token: ROOT })
    expect([up.status, up.body]).toEqual([400, { message: '400 Bad request' }])
    const noJob = await t.http('GET', `${P}/jobs/artifacts/main/download`, { token: ROOT })
    expect([noJob.status, noJob.body]).toEqual([400, { error: 'job is missing' }])
    const wrongRef = await t.http('GET', `${P}/jobs/artifacts/develop/download`, {
      token: ROOT,
      query: 'job=build',
    })
    expect([wrongRef.status, wrongRef.body]).toEqual([404, { message: '404 Not found' }])
  })
})

describe('large artifacts', () => {
  it('streams an archive of several chunks whole, with its length, and answers HEAD without a body', async () => {
    const noise = randomBytes(450 * 1024).toString('base64') // ~600 KB of text that compresses little
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, {
      build: { script: [`echo ${noise} > big.txt`], artifacts: { paths: ['big.txt'], when: 'on_success' } },
    })
    await settle()
    const build = await byName(pid, 'build')
    const size = (build.artifacts_file as Json).size as number
    expect(size).toBeGreaterThan(ARTIFACT_CHUNK_BYTES)
    expect(stored('SELECT COUNT(*) AS n FROM ci_job_artifact_chunks')).toEqual([
      { n: Math.ceil(size / ARTIFACT_CHUNK_BYTES) },
    ])
    const res = await fetch(`${t.baseUrl}${P}/jobs/${build.id as number}/artifacts`, {
      headers: { 'private-token': ROOT },
    })
    expect(Number(res.headers.get('content-length'))).toBe(size)
    const zip = new Uint8Array(await res.arrayBuffer())
    expect(zip.length).toBe(size)
    expect(Buffer.from(unzipSync(zip)['big.txt'] as Uint8Array).toString()).toBe(`${noise}\n`)
    const head = await t.http('HEAD', `${P}/jobs/${build.id as number}/artifacts`, { token: ROOT })
    expect([head.status, head.text, head.headers['content-length']]).toEqual([200, '', String(size)])
  })
})

describe('--data DIR', () => {
  it("keeps a job's trace and artifacts across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-jobs-'))
    try {
      const own = manualClock()
      const first = await startServer(pipelineSeed, { data: dir, clock: own })
      const pid = await triggerPipeline(first, 'acme/app')
      defineJobs(first, pid, {
        build: { script: ['echo kept > k.txt'], artifacts: { paths: ['k.txt'], when: 'on_success' } },
      })
      for (let i = 0; i < 20; i++) {
        own.advance(1000)
        await first.http('GET', `${P}/jobs`, { token: ROOT })
      }
      const build = ((await first.http('GET', `${P}/jobs`, { token: ROOT })).body as Json[]).find(
        (j) => j.name === 'build',
      ) as Json
      const before = (await first.http('GET', `${P}/jobs/${build.id as number}/trace`, { token: ROOT })).text
      await first.close()
      const second = await startServer(pipelineSeed, { data: dir, clock: own })
      try {
        const trace = await second.http('GET', `${P}/jobs/${build.id as number}/trace`, { token: ROOT })
        expect([trace.status, trace.text]).toEqual([200, before])
        const file = await second.http('GET', `${P}/jobs/${build.id as number}/artifacts/k.txt`, {
          token: ROOT,
        })
        expect([file.status, file.text]).toEqual([200, 'kept\n'])
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the job page', () => {
  it('shows the log as a reader sees it, escaped, without colours or section markers', async () => {
    const pid = await triggerPipeline(t, 'acme/app')
    defineJobs(t, pid, { build: { script: ['echo "<b>bold</b> & done"'] } })
    await settle()
    const build = await byName(pid, 'build')
    const signIn = await t.http('POST', '/users/sign_in', { form: `token=${MARK}&redirect_to=%2F` })
    const cookie = /_gitlab_session=[^;]+/.exec(signIn.headers['set-cookie'] ?? '')?.[0] as string
    const page = await t.http('GET', `/acme/app/-/jobs/${build.id as number}`, { headers: { cookie } })
    expect(page.status).toBe(200)
    expect(page.text).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; done\n')
    expect(page.text).toContain('Job succeeded')
    expect(page.text).not.toContain('section_start')
    expect(page.text).not.toContain('\x1b')
    const waiting = await triggerPipeline(t, 'acme/app')
    const fresh = (await jobsOf(waiting))[0] as Json
    const empty = await t.http('GET', `/acme/app/-/jobs/${fresh.id as number}`, { headers: { cookie } })
    expect(empty.text).toContain('This job has no log yet.')
  })
})
