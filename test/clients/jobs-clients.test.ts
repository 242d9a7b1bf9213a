/*
 * The jobs API through three clients: ours (src/api/jobs.ts), gitbeaker and python-gitlab (Debian's
 * python3-gitlab; CONTRIBUTING.md): the jobs list, a trace and the artifacts of a job whose definition
 * wrote a file, as the CI engine gives one.
 */
import { join } from 'node:path'
import { Gitlab } from '@gitbeaker/rest'
import { unzipSync } from 'fflate'
import { collect, createClient } from '../../src/api/client.js'
import { defineJobs } from '../support/job-definitions.js'
import { manualClock, pipelineSeed, runOut, triggerPipeline } from '../support/pipeline-seed.js'
import { runPythonGitlab } from '../support/python-gitlab.js'
import { serverEach } from '../support/server.js'

const ROOT = 'glpat-root-token'
let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

/**
 * A pipeline run to its end whose build writes out.txt into its artifacts; its test fails when told to
 * (the by-ref downloads then still find the earlier successful pipeline's).
 */
async function ranPipeline(failing = false): Promise<number> {
  const pid = await triggerPipeline(t, 'acme/app')
  defineJobs(t, pid, {
    build: {
      script: ['echo "hi from $CI_JOB_NAME" > out.txt'],
      artifacts: { paths: ['out.txt'], when: 'on_success' },
    },
    test: { script: failing ? ['echo failing', 'exit 1'] : ['echo testing'] },
  })
  await runOut(t, clock, { token: ROOT, steps: 20 })
  return pid
}
const text = async (body: AsyncIterable<Uint8Array> | NodeJS.ReadableStream) => {
  const parts: Buffer[] = []
  for await (const chunk of body as AsyncIterable<Uint8Array>) parts.push(Buffer.from(chunk))
  return Buffer.concat(parts)
}

it('our client lists jobs, reads a trace, streams artifacts and acts on jobs', async () => {
  await ranPipeline()
  const pid = await ranPipeline(true)
  const api = createClient({ baseUrl: t.baseUrl, token: 'glpat-mark-token' })
  const jobs = (await collect(api.jobs.list('acme/app', { scope: ['success', 'failed'] }))).slice(0, 2)
  expect(jobs.map((j) => `${j.name}:${j.status}`)).toEqual(['test:failed', 'build:success'])
  const [failed, build] = jobs as [(typeof jobs)[0], (typeof jobs)[0]]
  expect((await api.jobs.get('acme/app', build.id)).artifacts_file).toMatchObject({
    filename: 'artifacts.zip',
  })
  expect(await api.jobs.trace('acme/app', failed.id)).toContain('ERROR: Job failed: exit code 1')
  // The same log as a stream (trigger-pipeline reads failed jobs' tails so), GitLab's errors thrown.
  const streamed = await api.jobs.traceStream('acme/app', failed.id)
  expect((await text(streamed.body)).toString()).toBe(await api.jobs.trace('acme/app', failed.id))
  await expect(api.jobs.traceStream('acme/app', 999_999)).rejects.toMatchObject({ status: 404 })
  const archive = await api.jobs.artifacts('acme/app', build.id)
  expect(archive).toMatchObject({ filename: 'artifacts.zip', length: build.artifacts_file?.size })
  const files = unzipSync(new Uint8Array(await text(archive.body)))
  expect(Buffer.from(files['out.txt'] as Uint8Array).toString()).toBe('hi from build\n')
  const one = await api.jobs.artifactFile('acme/app', build.id, 'out.txt')
  expect((await text(one.body)).toString()).toBe('hi from build\n')
  const byRef = await api.jobs.artifactFileByRef('acme/app', 'main', 'build', 'out.txt')
  expect((await text(byRef.body)).toString()).toBe('hi from build\n')
  expect((await api.jobs.artifactsByRef('acme/app', 'main', 'build')).length).toBe(build.artifacts_file?.size)
  await expect(api.jobs.artifacts('acme/app', failed.id)).rejects.toMatchObject({ status: 404 })
  const retried = await api.jobs.retry('acme/app', failed.id)
  expect(retried).toMatchObject({ name: 'test', status: 'pending' })
  expect(await api.jobs.cancel('acme/app', retried.id)).toMatchObject({ status: 'canceled' })
  expect((await api.jobs.erase('acme/app', build.id)).erased_at).not.toBeNull()
  expect(await api.jobs.trace('acme/app', build.id)).toBe('')
  expect(await collect(api.jobs.bridges('acme/app', pid))).toEqual([])
})

it('gitbeaker lists jobs, reads a trace and downloads the artifacts', async () => {
  await ranPipeline()
  const api = new Gitlab({ host: t.baseUrl, token: 'glpat-dana-token' })
  const jobs = await api.Jobs.all('acme/app')
  expect(jobs.map((j) => `${j.name}:${j.status}`)).toEqual(['test:success', 'build:success'])
  const build = jobs.find((j) => j.name === 'build') as (typeof jobs)[0]
  const log = await api.Jobs.showLog('acme/app', build.id)
  expect(log).toContain('\x1b[32;1mJob succeeded\x1b[0;m')
  const blob = await api.JobArtifacts.downloadArchive('acme/app', { jobId: build.id })
  const files = unzipSync(new Uint8Array(await blob.arrayBuffer()))
  expect(Object.keys(files)).toEqual(['out.txt'])
  const file = await api.JobArtifacts.downloadArchive('acme/app', {
    jobId: build.id,
    artifactPath: 'out.txt',
  })
  expect(typeof file === 'string' ? file : await (file as Blob).text()).toBe('hi from build\n')
})

it('python-gitlab lists jobs, reads a trace and the artifacts', async () => {
  await ranPipeline()
  expect(
    await runPythonGitlab(join(__dirname, 'python_gitlab_jobs.py'), {
      GITLAB_URL: t.baseUrl,
      GITLAB_TOKEN: 'glpat-dana-token',
    }),
  ).toEqual({
    jobs: ['build:success', 'test:success'],
    artifacts_file: { filename: 'artifacts.zip', size: expect.any(Number) },
    trace_tail: '\x1b[32;1mJob succeeded\x1b[0;m',
    zip: { 'out.txt': 'hi from build\n' },
    file: 'hi from build\n',
    by_ref: 'hi from build\n',
  })
})

it('keeps and deletes artifacts through our client and python-gitlab; a locked pipeline keeps its own', async () => {
  await ranPipeline()
  await ranPipeline()
  const api = createClient({ baseUrl: t.baseUrl, token: 'glpat-mark-token' })
  const builds = (await collect(api.jobs.list('acme/app'))).filter((j) => j.name === 'build')
  const [latest, older] = builds as [(typeof builds)[0], (typeof builds)[0]]
  expect((await api.jobs.keepArtifacts('acme/app', older.id)).artifacts_expire_at).toBeNull()
  await api.jobs.deleteArtifacts('acme/app', older.id)
  await expect(api.jobs.artifacts('acme/app', older.id)).rejects.toMatchObject({ status: 404 })
  expect(await api.jobs.deleteProjectArtifacts('acme/app')).toEqual({ message: '202 Accepted' })
  expect((await api.jobs.artifacts('acme/app', latest.id)).filename).toBe('artifacts.zip')

  await t.http('POST', '/-/emulator/reset', { token: ROOT })
  await ranPipeline()
  await ranPipeline()
  expect(
    await runPythonGitlab(join(__dirname, 'python_gitlab_artifacts.py'), {
      GITLAB_URL: t.baseUrl,
      GITLAB_TOKEN: 'glpat-mark-token',
    }),
  ).toMatchObject({
    kept_expire_at: null,
    after_project_delete: { older: ['trace'], latest: ['archive', 'trace'] },
    after_job_delete: ['trace'],
    keep_without_archive: [404, expect.stringMatching(/^404 #<Ci::Build:0x[0-9a-f]{16}> Not Found$/)],
  })
})
