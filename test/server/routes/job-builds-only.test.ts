/*
 * The `/jobs/:job_id/...` routes find builds only (`find_build!`, `user_project.builds.find`): a trigger
 * job's id is a missing job there, but for retry and play (`find_job!`); keep's refusals in GitLab's
 * order with its bodies (lib/api/ci/job_artifacts.rb, lib/api/ci/jobs.rb). Against the real server.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const CONFIG = `
build:
  stage: build
  script: [echo hi > out.txt]
  artifacts: { paths: [out.txt], expire_in: 1 week }
lint: { stage: build, script: [echo lint] }
child:
  stage: test
  trigger: { include: ci/child.yml }
`
/** Runs a pipeline of `config` on `ci` out; its build, lint and child (the bridge) as the API shows them. */
const run = async (config = CONFIG) => {
  await commitFiles(t, 'acme/app', 'ci', {
    '.gitlab-ci.yml': config,
    'ci/child.yml': 'c: { script: [echo c] }\n',
  })
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  const pid = (res.body as Json).id as number
  await runOut(t, clock, { steps: 20 })
  const jobs = (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[]
  const bridges = (await t.http('GET', `${APP}/pipelines/${pid}/bridges`, { token: MARK })).body as Json[]
  const named = (name: string) => jobs.find((j) => j.name === name) as Json
  return { pid, build: named('build'), lint: named('lint'), bridge: bridges[0] as Json }
}
const NOT_FOUND = [404, { message: '404 Not found' }]

describe('a bridge on the routes scoped to builds', () => {
  it('is 404 Not found on read, trace, artifacts, keep, delete, cancel and erase; found by play', async () => {
    const { pid, bridge } = await run()
    expect(bridge).toMatchObject({ name: 'child', status: 'success' })
    const job = `${APP}/jobs/${bridge.id as number}`
    const answers = [
      await t.http('GET', job, { token: MARK }),
      await t.http('GET', `${job}/trace`, { token: MARK }),
      await t.http('GET', `${job}/artifacts`, { token: MARK }),
      await t.http('GET', `${job}/artifacts/out.txt`, { token: MARK }),
      await t.http('POST', `${job}/artifacts/keep`, { token: MARK }),
      await t.http('DELETE', `${job}/artifacts`, { token: MARK }),
      await t.http('POST', `${job}/cancel`, { token: MARK }),
      await t.http('POST', `${job}/erase`, { token: MARK }),
    ]
    expect(answers.map((r) => [r.status, r.body])).toEqual(Array.from({ length: 8 }, () => NOT_FOUND))
    // `find_job!` finds bridges: play reaches the bridge's own check.
    const play = await t.http('POST', `${job}/play`, { token: MARK })
    expect([play.status, play.body]).toEqual([400, { message: '400 Bad request - Unplayable Job' }])
    // Nothing changed: the bridge is neither canceled nor erased.
    const after = (await t.http('GET', `${APP}/pipelines/${pid}/bridges`, { token: MARK })).body as Json[]
    expect(after.map((b) => [b.id, b.status, b.erased_at])).toEqual([[bridge.id, 'success', null]])
  })
})

describe('POST .../play on a manual trigger job', () => {
  it('answers the bridge as Entities::Ci::Bridge: downstream_pipeline, no runner or artifacts', async () => {
    const manual = CONFIG.replace('child:\n  stage: test\n', 'child:\n  stage: test\n  when: manual\n')
    const { pid, bridge } = await run(manual)
    expect(bridge).toMatchObject({ name: 'child', status: 'manual', downstream_pipeline: null })
    const play = await t.http('POST', `${APP}/jobs/${bridge.id as number}/play`, { token: MARK })
    expect(play.status).toBe(200)
    const body = play.body as Json
    expect(Object.keys(body).sort()).toEqual(Object.keys(bridge).sort())
    expect(body).toMatchObject({ id: bridge.id, name: 'child', user: { username: 'mark' } })
    expect(body.status).not.toBe('manual')
    // The same record the pipeline's bridges list shows at that moment.
    const listed = (await t.http('GET', `${APP}/pipelines/${pid}/bridges`, { token: MARK })).body as Json[]
    expect(listed).toEqual([body])
  })
})

describe('POST .../artifacts/keep', () => {
  it("refuses in GitLab's order: 403 below Developer, 404 for no job, 404 naming the build without artifacts", async () => {
    const { build, lint } = await run()
    // `authorize_update_builds!` comes first: a guest learns nothing of the job.
    const guest = await t.http('POST', `${APP}/jobs/999999/artifacts/keep`, { token: GUS })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    const missing = await t.http('POST', `${APP}/jobs/999999/artifacts/keep`, { token: DANA })
    expect([missing.status, missing.body]).toEqual(NOT_FOUND)
    // `not_found!(build)`: the message holds the build as Ruby prints it.
    const bare = await t.http('POST', `${APP}/jobs/${lint.id as number}/artifacts/keep`, { token: DANA })
    const hex = (lint.id as number).toString(16).padStart(16, '0')
    expect([bare.status, bare.body]).toEqual([404, { message: `404 #<Ci::Build:0x${hex}> Not Found` }])
    // Once its archive is deleted, a build that had one answers the same.
    expect(
      (await t.http('DELETE', `${APP}/jobs/${build.id as number}/artifacts`, { token: MARK })).status,
    ).toBe(204)
    const gone = await t.http('POST', `${APP}/jobs/${build.id as number}/artifacts/keep`, { token: DANA })
    expect(gone.status).toBe(404)
    expect((gone.body as Json).message).toMatch(/^404 #<Ci::Build:0x[0-9a-f]{16}> Not Found$/)
  })
})

describe('an archived project', () => {
  it('still deletes artifacts: `destroy_artifacts` is no ability ArchivedAbilities prevents', async () => {
    const { build } = await run()
    expect((await t.http('POST', `${APP}/archive`, { token: ROOT })).status).toBe(201)
    const url = `${APP}/jobs/${build.id as number}/artifacts`
    const refused = await t.http('DELETE', url, { token: DANA })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await t.http('DELETE', url, { token: MARK })).status).toBe(204)
    expect((await t.http('GET', url, { token: MARK })).status).toBe(404)
    const project = await t.http('DELETE', `${APP}/artifacts`, { token: MARK })
    expect([project.status, project.body]).toEqual([202, { message: '202 Accepted' }])
    // Keeping is an `update_build`, which the archive prevents.
    const keep = await t.http('POST', `${url}/keep`, { token: MARK })
    expect([keep.status, keep.body]).toEqual([403, { message: '403 Forbidden' }])
  })
})
