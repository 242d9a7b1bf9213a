/*
 * Jobs emulated end to end from a committed `.gitlab-ci.yml` (the CI engine's plan): what the script
 * echoes and writes, its exit code, after_script, artifacts, manual jobs played with variables, and
 * bridges with their child pipeline.
 */
import { unzipSync } from 'fflate'
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const MARK = 'glpat-mark-token'
const DANA = 'glpat-dana-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const trigger = async (variables = '') => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, {
    form: `ref=ci&token=${MARK_TRIGGER}${variables}`,
  })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
const jobsOf = async (pid: number) =>
  (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK, query: 'per_page=100' })).body as Json[]
const named = async (pid: number, name: string) => (await jobsOf(pid)).find((j) => j.name === name) as Json
const trace = async (id: unknown) =>
  (await t.http('GET', `${APP}/jobs/${id as number}/trace`, { token: MARK })).text

const CONFIG = `
stages: [build, test]
build:
  stage: build
  variables:
    GREETING: hello
  before_script:
    - echo "$GREETING from $CI_JOB_NAME"
  script:
    - echo hi > out.txt
    - echo "$EXTRA" >> out.txt
  artifacts:
    paths: [out.txt]
    expire_in: 2 days
unit:
  stage: test
  script:
    - echo testing
    - exit 1
  after_script:
    - echo "after $CI_JOB_STATUS"
  artifacts:
    when: on_failure
    paths: [out.txt, missing/]
flaky:
  stage: test
  allow_failure: true
  script:
    - exit 3
release:
  stage: test
  when: manual
  script:
    - echo "release $VERSION" > notes.txt
  artifacts:
    paths: ['*.txt']
`

describe('jobs from the committed .gitlab-ci.yml', () => {
  it('echo hi > out.txt gives a zip holding it; a last line exit 1 fails with the runner failure line', async () => {
    commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    const pid = await trigger('&variables[EXTRA]=from the trigger')
    await runOut(t, clock)
    const build = await named(pid, 'build')
    expect(build).toMatchObject({ status: 'success', artifacts_file: { filename: 'artifacts.zip' } })
    const buildTrace = await trace(build.id)
    expect(buildTrace).toContain('\x1b[32;1m$ echo "$GREETING from $CI_JOB_NAME"\x1b[0;m\nhello from build\n')
    expect(buildTrace).toContain('section_start:')
    expect(buildTrace.endsWith('\x1b[32;1mJob succeeded\x1b[0;m\n')).toBe(true)
    const zip = await fetch(`${t.baseUrl}${APP}/jobs/${build.id as number}/artifacts`, {
      headers: { 'private-token': MARK },
    })
    expect(zip.status).toBe(200)
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()))
    expect(Buffer.from(files['out.txt'] as Uint8Array).toString()).toBe('hi\nfrom the trigger\n')
    expect(build.artifacts_expire_at).toBe(
      new Date(Date.parse(build.finished_at as string) + 2 * 86400_000).toISOString(),
    )

    const unit = await named(pid, 'unit')
    expect(unit).toMatchObject({ status: 'failed', failure_reason: 'script_failure', allow_failure: false })
    const unitTrace = await trace(unit.id)
    expect(unitTrace).toContain('after failed\n')
    expect(unitTrace).toContain('WARNING: missing/: no matching files')
    expect(unitTrace.endsWith('\x1b[31;1mERROR: Job failed: exit code 1\n\x1b[0;m\n')).toBe(true)
    // artifacts:when on_failure: a failed job uploads; out.txt is not in its own workspace.
    expect(unit.artifacts_file).toBeUndefined()

    const flaky = await named(pid, 'flaky')
    expect(flaky).toMatchObject({ status: 'failed', allow_failure: true })
    const pipeline = (await t.http('GET', `${APP}/pipelines/${pid}`, { token: MARK })).body as Json
    expect(pipeline.status).toBe('failed')

    // A retried job keeps its definition and its place in the plan: it runs its script again.
    const retried = await t.http('POST', `${APP}/jobs/${unit.id as number}/retry`, { token: DANA })
    expect(retried.status).toBe(201)
    await runOut(t, clock)
    const again = (await jobsOf(pid)).find((j) => j.id === (retried.body as Json).id) as Json
    expect(again).toMatchObject({ name: 'unit', status: 'failed', stage: 'test' })
    expect((await trace(again.id)).endsWith('ERROR: Job failed: exit code 1\n\x1b[0;m\n')).toBe(true)
  })

  it('plays a manual job with variables; its artifacts follow its glob', async () => {
    commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': CONFIG.replace('    - exit 1\n', '').replace(
        '  script:\n    - exit 3\n',
        '  script: [true]\n',
      ),
    })
    const pid = await trigger()
    await runOut(t, clock)
    const release = await named(pid, 'release')
    expect(release.status).toBe('manual')
    const played = await t.http('POST', `${APP}/jobs/${release.id as number}/play`, {
      token: DANA,
      json: { job_variables_attributes: [{ key: 'VERSION', value: '2.0' }] },
    })
    expect([played.status, (played.body as Json).status]).toEqual([200, 'pending'])
    await runOut(t, clock)
    const done = await named(pid, 'release')
    expect(done).toMatchObject({ status: 'success', user: { username: 'dana' } })
    const notes = await t.http('GET', `${APP}/jobs/${release.id as number}/artifacts/notes.txt`, {
      token: MARK,
    })
    expect([notes.status, notes.text]).toEqual([200, 'release 2.0\n'])
    const byRef = await t.http('GET', `${APP}/jobs/artifacts/ci/raw/notes.txt`, {
      token: MARK,
      query: 'job=release',
    })
    expect([byRef.status, byRef.text]).toEqual([200, 'release 2.0\n'])
  })

  it('an exit code that allow_failure: exit_codes lists lets the stages after it run', async () => {
    commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
stages: [test, deploy]
flaky:
  stage: test
  allow_failure:
    exit_codes: [3, 137]
  script: [exit 3]
strict:
  stage: test
  allow_failure:
    exit_codes: 3
  script: [echo fine]
deploy:
  stage: deploy
  script: [echo deploying]
`,
    })
    const pid = await trigger()
    await runOut(t, clock)
    expect(await named(pid, 'flaky')).toMatchObject({ status: 'failed', allow_failure: true })
    expect(await named(pid, 'strict')).toMatchObject({ status: 'success', allow_failure: false })
    expect(await named(pid, 'deploy')).toMatchObject({ status: 'success' })
    const pipeline = (await t.http('GET', `${APP}/pipelines/${pid}`, { token: MARK })).body as Json
    expect(pipeline.status).toBe('success')
  })

  it('lists a bridge with the child pipeline it started', async () => {
    commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
build:
  script: echo build
child:
  trigger:
    include: child.yml
    strategy: depend
`,
      'child.yml': 'inner:\n  script:\n    - echo "in the child"\n',
    })
    const pid = await trigger()
    await runOut(t, clock)
    const res = await t.http('GET', `${APP}/pipelines/${pid}/bridges`, { token: MARK })
    expect(res.status).toBe(200)
    const [bridge] = res.body as Json[]
    const downstream = (bridge as Json).downstream_pipeline as Json
    expect(bridge).toMatchObject({ name: 'child', status: 'success' })
    expect(downstream).toMatchObject({ source: 'parent_pipeline', status: 'success' })
    const inner = await (async () =>
      (
        (await t.http('GET', `${APP}/pipelines/${downstream.id as number}/jobs`, { token: MARK }))
          .body as Json[]
      )[0])()
    expect(await trace(inner?.id)).toContain('in the child\n')
    const builds = ((await t.http('GET', `${APP}/jobs`, { token: MARK })).body as Json[]).map((j) => j.name)
    expect(builds.sort()).toEqual(['build', 'inner'])
  })
})
