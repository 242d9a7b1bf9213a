import { randomBytes } from 'node:crypto'
import { zipFiles } from '../../../src/server/archive/zip-writer.js'
import { ARTIFACT_CHUNK_BYTES } from '../../../src/server/jobs/job-emulation.js'
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * Dynamic child pipelines (`trigger: include: - artifact: ... job: ...`): a child's configuration read
 * from the archive of a job of the parent pipeline, with GitLab's refusals.
 */
const MARK = 'glpat-mark-token'
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock()
  t = await startServer(pipelineSeed, { clock })
})
afterEach(() => t.close())

/** A generating job writing `script`'s file as its artifact, then a bridge that includes `include`. */
const parentConfig = (
  script: string,
  include: string,
  artifacts = 'artifacts: { paths: [generated.yml] }',
) => `
generate:
  stage: build
  script:
    - ${JSON.stringify(script)}
  ${artifacts}
child:
  stage: test
  needs: [generate]
  trigger:
    include:
      - ${include}
    strategy: depend
`
const CHILD_YAML = 'echo "child-job: { script: echo from artifact }" > generated.yml'

const trigger = async () => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
/** A trigger refused for its configuration (422), and the failed pipeline GitLab keeps: its error. */
const configError = async () => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  const [kept] = (await get('/pipelines')) as Json[]
  expect(await get(`/pipelines/${kept?.id as number}`)).toMatchObject({ status: 'failed' })
  expect(res).toMatchObject({ status: 422, body: { message: { base: [expect.any(String)] } } })
  const message = ((res.body as Json).message as { base: string[] }).base[0]
  expect(((await get(`/pipelines/${kept?.id as number}`)) as Json).yaml_errors).toBe(message)
  return message
}
const settle = async () =>
  expect((await t.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
const get = async (path: string) => {
  const res = await t.http('GET', `${APP}${path}`, { token: MARK })
  expect(res.status).toBe(200)
  return res.body
}
const bridgeOf = async (parent: number) => ((await get(`/pipelines/${parent}/bridges`)) as Json[])[0] as Json

describe('trigger: include: artifact', () => {
  it("starts the child from the file the parent's job wrote into its artifacts", async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': parentConfig(CHILD_YAML, '{ artifact: generated.yml, job: generate }'),
    })
    const parent = await trigger()
    await settle()
    const bridge = await bridgeOf(parent)
    expect(bridge).toMatchObject({ name: 'child', status: 'success' })
    const child = (bridge.downstream_pipeline as Json).id as number
    expect(await get(`/pipelines/${child}`)).toMatchObject({ status: 'success', source: 'parent_pipeline' })
    const jobs = (await get(`/pipelines/${child}/jobs`)) as Json[]
    expect(jobs.map((j) => [j.name, j.status])).toEqual([['child-job', 'success']])
    const trace = await t.http('GET', `${APP}/jobs/${jobs[0]?.id as number}/trace`, { token: MARK })
    expect(trace.text).toContain('from artifact')
  })

  it("reads its own local includes from the pipeline's commit, with the job's name from a variable", async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': parentConfig(
        'echo "include: ci/common.yml" > generated.yml',
        '{ artifact: generated.yml, job: $GENERATOR }',
      ).replace('child:\n', 'child:\n  variables: { GENERATOR: generate }\n'),
      'ci/common.yml': 'common-job: { script: x }\n',
    })
    const parent = await trigger()
    await settle()
    const child = ((await bridgeOf(parent)).downstream_pipeline as Json).id as number
    const jobs = (await get(`/pipelines/${child}/jobs`)) as Json[]
    expect(jobs.map((j) => j.name)).toEqual(['common-job'])
  })

  it.each([
    [
      'names a job the parent pipeline lacks',
      parentConfig(CHILD_YAML, '{ artifact: generated.yml, job: nope }'),
      'Job `nope` not found in parent pipeline or does not have artifacts!',
    ],
    [
      'names a job without artifacts',
      parentConfig(CHILD_YAML, '{ artifact: generated.yml, job: generate }', ''),
      'Job `generate` not found in parent pipeline or does not have artifacts!',
    ],
    [
      'names a file missing from the archive',
      parentConfig(CHILD_YAML, '{ artifact: other.yml, job: generate }'),
      'Path `other.yml` does not exist inside the `generate` artifacts archive!',
    ],
    [
      'names a folder of the archive',
      parentConfig(
        'echo "child-job: { script: x }" > gen.yml/child.yml',
        '{ artifact: gen.yml, job: generate }',
        'artifacts: { paths: [gen.yml/] }',
      ),
      'Path `gen.yml` was expected to be a file but it was a directory!',
    ],
    [
      'names an empty file',
      parentConfig('echo "" > generated.yml', '{ artifact: generated.yml, job: generate }'),
      'File `generated.yml` is empty!',
    ],
    [
      'names a file that is not YAML',
      parentConfig(CHILD_YAML, '{ artifact: generated.txt, job: generate }'),
      'Included file `generated.txt` does not have YAML extension!',
    ],
  ])('a child that %s fails its bridge and is kept failed with the error', async (_, config, message) => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config })
    const parent = await trigger()
    await settle()
    const bridge = await bridgeOf(parent)
    expect(bridge).toMatchObject({ status: 'failed', failure_reason: 'downstream_pipeline_creation_failed' })
    const child = (bridge.downstream_pipeline as Json).id as number
    expect(await get(`/pipelines/${child}`)).toMatchObject({ status: 'failed', yaml_errors: message })
    expect(await get(`/pipelines/${child}/jobs`)).toEqual([])
    expect(await get(`/pipelines/${parent}`)).toMatchObject({ status: 'failed' })
  })

  it.each([
    [
      'an archive',
      // Random bytes do not compress: the archive is as large as the file.
      () => randomBytes(5 * 1024 * 1024 + 1),
      /^Artifacts archive for job `generate` is too large: 5 MiB exceeds maximum of 5 MiB$/,
    ],
    [
      'a file',
      () => Buffer.alloc(6 * 1024 * 1024, 'a: 1\n'),
      /^The file `generated.yml` in job `generate` is too large: 6 MiB exceeds maximum of 5 MiB$/,
    ],
  ])('%s over 5 MiB is refused', async (_, content, message) => {
    // A job between them leaves time to swap the generated archive for a large one.
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': parentConfig(CHILD_YAML, '{ artifact: generated.yml, job: generate }')
        .replace('needs: [generate]', 'stage: deploy')
        .replace('  stage: test\n', '  stage: deploy\n')
        .concat('between: { stage: test, script: x }\n'),
    })
    const parent = await trigger()
    const jobs = () => t.server.store.pipelines.jobs(parent)
    for (let i = 0; i < 40 && jobs().find((j) => j.name === 'generate')?.status !== 'success'; i++) {
      clock.advance(500)
      await t.http('GET', `${APP}/pipelines`, { token: MARK })
    }
    const generate = jobs().find((j) => j.name === 'generate')
    expect([generate?.status, jobs().find((j) => j.name === 'child')?.status]).toEqual(['success', 'created'])
    const entries = [{ path: 'generated.yml', content: content() }]
    const zip = zipFiles(entries.map((e) => ({ ...e, mtime: new Date() })))
    const row = { build_id: generate?.id as number, size: zip.length, created_at: '', expire_at: null }
    t.server.store.jobOutputs.putArtifact(row, zip, entries, ARTIFACT_CHUNK_BYTES)
    await settle()
    const child = ((await bridgeOf(parent)).downstream_pipeline as Json).id as number
    expect(((await get(`/pipelines/${child}`)) as Json).yaml_errors).toMatch(message)
  })

  it("is refused in a project's own configuration, by the pipeline and by the lint", async () => {
    const config = 'include: [ { artifact: generated.yml, job: generate } ]\nbuild: { script: x }\n'
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config })
    const message = 'Including configs from artifacts is only allowed when triggering child pipelines'
    expect(await configError()).toEqual(message)
    const lint = await t.http('POST', `${APP}/ci/lint`, { token: MARK, json: { content: config } })
    expect(lint.body).toMatchObject({ valid: false, errors: [message] })
  })

  it("is refused without the job to read it from, as the parent's configuration error", async () => {
    const config = parentConfig(CHILD_YAML, '{ artifact: generated.yml }')
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config })
    expect(await configError()).toEqual(
      'jobs:child:trigger:include:include config must specify the job where to fetch the artifact from',
    )
  })
})
