/*
 * Stopping environments (app/services/environments/stop_service.rb, Environment#stop_with_actions!,
 * Environments::AutoStopCronWorker) against the real server: `POST .../stop` plays the stop action a
 * deployment's `on_stop` names (the environment `stopping` until it succeeds), `force` stops at once,
 * `auto_stop_in` sets `auto_stop_at` when the deployment succeeds and a clock move past it stops the
 * environment through the same stop; the configuration checks of both keywords.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const APP = '/api/v4/projects/acme%2Fapp'
const ENVS = `${APP}/environments`
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const reviewConfig = (autoStopIn = '1 day', variables = '') => `
stages: [deploy, cleanup]
${variables}
deploy:
  stage: deploy
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    on_stop: stop_review
    auto_stop_in: ${autoStopIn}
  script: [echo deploy]
stop_review:
  stage: cleanup
  environment: { name: review/$CI_COMMIT_REF_SLUG, action: stop }
  when: manual
  script: [echo stop]
`

const get = async (url: string, token = MARK) => {
  const res = await t.http('GET', url, { token })
  expect(res.status).toBe(200)
  return res.body as Json & Json[]
}
/** Runs the review pipeline out: the deploy succeeded, `stop_review` waits to be played. */
const deployed = async (config = reviewConfig()) => {
  await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config })
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  await runOut(t, clock, { steps: 30 })
  const jobs = (await get(`${APP}/pipelines/${(res.body as Json).id as number}/jobs`)) as Json[]
  const job = (name: string) => jobs.find((j) => j.name === name)!
  expect([job('deploy').status, job('stop_review').status]).toEqual(['success', 'manual'])
  const env = ((await get(`${ENVS}?name=review/ci`)) as Json[])[0]!
  return { env, url: `${ENVS}/${env.id as number}`, deploy: job('deploy'), stop: job('stop_review') }
}
const advance = async (seconds: number) => {
  const res = await t.http('POST', '/-/emulator/clock', { token: ROOT, json: { action: 'advance', seconds } })
  expect(res.status).toBe(200)
}
const plusSeconds = (iso: string, s: number) => new Date(Date.parse(iso) + s * 1000).toISOString()

describe('stopping an environment', () => {
  it('plays the on_stop job: stopping while it runs, stopped once it succeeds', async () => {
    const { url, stop } = await deployed()
    const res = await t.http('POST', `${url}/stop`, { token: DANA })
    expect(res.status).toBe(200)
    expect((res.body as Json).state).toBe('stopping')
    // Still set while stopping: only the stop clears it.
    expect((res.body as Json).auto_stop_at).not.toBeNull()
    const played = await get(`${APP}/jobs/${stop.id as number}`)
    expect(['created', 'pending', 'running']).toContain(played.status)
    // Played as its own user (`job.play(job.user)`), not as the developer who stopped the environment.
    expect((played.user as Json).username).toBe('mark')
    expect((await get(`${ENVS}?states=stopping`)).map((e) => e.name)).toEqual(['review/ci'])

    await runOut(t, clock, { steps: 30 })
    expect((await get(`${APP}/jobs/${stop.id as number}`)).status).toBe('success')
    const env = await get(url)
    expect([env.state, env.auto_stop_at]).toEqual(['stopped', null])
    // A stopped environment is not stopped again: its state stays, nothing is played.
    expect(((await t.http('POST', `${url}/stop`, { token: DANA })).body as Json).state).toBe('stopped')
  })

  it('runs a stop job that already ran again when the environment was deployed to since', async () => {
    const { url, deploy, stop } = await deployed()
    await t.http('POST', `${url}/stop`, { token: DANA })
    await runOut(t, clock, { steps: 30 })
    expect((await get(url)).state).toBe('stopped')
    // The deploy job retried in the same pipeline makes the environment available again.
    expect((await t.http('POST', `${APP}/jobs/${deploy.id as number}/retry`, { token: MARK })).status).toBe(
      201,
    )
    await runOut(t, clock, { steps: 30 })
    expect((await get(url)).state).toBe('available')

    // Its stop action is the finished `stop_review`: played again, it is retried (`Ci::PlayBuildService`).
    expect(((await t.http('POST', `${url}/stop`, { token: DANA })).body as Json).state).toBe('stopping')
    await runOut(t, clock, { steps: 30 })
    const pipeline = (stop.pipeline as Json).id as number
    const jobs = (await get(`${APP}/pipelines/${pipeline}/jobs?include_retried=true`)) as Json[]
    expect(jobs.filter((j) => j.name === 'stop_review').map((j) => j.status)).toEqual(['success', 'success'])
    expect((await get(url)).state).toBe('stopped')
  })

  it('with force: true stops at once and leaves the on_stop job waiting', async () => {
    const { env, url, stop } = await deployed()
    expect(env.auto_stop_at).not.toBeNull()
    const res = await t.http('POST', `${url}/stop`, { token: DANA, json: { force: true } })
    expect(res.status).toBe(200)
    expect([(res.body as Json).state, (res.body as Json).auto_stop_at]).toEqual(['stopped', null])
    await runOut(t, clock, { steps: 30 })
    expect((await get(`${APP}/jobs/${stop.id as number}`)).status).toBe('manual')
  })

  it("in an archived project: a Developer's stop is 403 (no update_environment, no create_deployment), a Maintainer's goes", async () => {
    const { url } = await deployed()
    const plain = await t.http('POST', ENVS, { token: MARK, json: { name: 'plain' } })
    const plainUrl = `${ENVS}/${(plain.body as Json).id as number}`
    expect((await t.http('POST', `${APP}/archive`, { token: ROOT })).status).toBe(201)
    for (const target of [url, plainUrl]) {
      const refused = await t.http('POST', `${target}/stop`, { token: DANA })
      expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
      expect((await get(target)).state).toBe('available')
    }
    // `stop_environment` is a Maintainer's project ability, which ArchivedAbilities leaves.
    const forced = await t.http('POST', `${url}/stop`, { token: MARK, json: { force: true } })
    expect([forced.status, (forced.body as Json).state]).toEqual([200, 'stopped'])
    const stopped = await t.http('POST', `${plainUrl}/stop`, { token: MARK })
    expect([stopped.status, (stopped.body as Json).state]).toEqual([200, 'stopped'])
  })

  it('force: true also ends a stop under way', async () => {
    const { url } = await deployed()
    expect(((await t.http('POST', `${url}/stop`, { token: DANA })).body as Json).state).toBe('stopping')
    const forced = await t.http('POST', `${url}/stop`, { token: DANA, form: 'force=true' })
    expect((forced.body as Json).state).toBe('stopped')
  })
})

describe('auto_stop_in', () => {
  it('sets auto_stop_at from the successful deployment, and a clock move past it plays the stop', async () => {
    const { env, url, deploy, stop } = await deployed()
    const deployment = ((await get(`${APP}/deployments?environment=review/ci`)) as Json[])[0]!
    expect(deployment.status).toBe('success')
    // One day from the deployment's end (`Deployments::UpdateEnvironmentService#renew_auto_stop_in`).
    expect(env.auto_stop_at).toBe(plusSeconds(deploy.finished_at as string, 86_400))

    await advance(23 * 3600)
    expect((await get(url)).state).toBe('available')
    await advance(3600)
    expect((await get(url)).state).toBe('stopping')
    await runOut(t, clock, { steps: 30 })
    expect((await get(`${APP}/jobs/${stop.id as number}`)).status).toBe('success')
    expect([(await get(url)).state, (await get(url)).auto_stop_at]).toEqual(['stopped', null])
  })

  it('takes its value from a variable, expanded; `never` clears the time it set', async () => {
    const { env, url, deploy } = await deployed(reviewConfig('$TTL', "variables: { TTL: '3 days' }"))
    expect(env.auto_stop_at).toBe(plusSeconds(deploy.finished_at as string, 3 * 86_400))
    // A later deployment whose value is `never` (`Environment#auto_stop_in=`): no time, no auto-stop.
    const res = await t.http('POST', `${APP}/trigger/pipeline`, {
      form: `ref=ci&token=${MARK_TRIGGER}&variables[TTL]=never`,
    })
    expect(res.status).toBe(201)
    await runOut(t, clock, { steps: 30 })
    expect((await get(url)).auto_stop_at).toBeNull()
    await advance(400 * 86_400)
    expect((await get(url)).state).toBe('available')
  })

  it('reads the duration as ChronicDuration does, several units together', async () => {
    const { env, deploy } = await deployed(reviewConfig("'2 hours 30 minutes'"))
    expect(env.auto_stop_at).toBe(plusSeconds(deploy.finished_at as string, 9000))
  })

  it("is renewed when a verify job with its own, or an access job with the deployment's, succeeds", async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
stages: [deploy, verify, access]
deploy: { stage: deploy, environment: { name: live, auto_stop_in: 1 day }, script: [echo] }
verify: { stage: verify, environment: { name: live, action: verify, auto_stop_in: 2 hours }, script: [echo] }
access: { stage: access, environment: { name: live, action: access }, script: [echo] }
`,
    })
    const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    const jobsUrl = `${APP}/pipelines/${(res.body as Json).id as number}/jobs`
    const job = async (name: string) => ((await get(jobsUrl)) as Json[]).find((j) => j.name === name)!
    const live = async () => ((await get(`${ENVS}?name=live`)) as Json[])[0]!.auto_stop_at
    // Step by step: once `verify` succeeds, before `access` ends, its own 2 hours count.
    let verified = false
    for (let i = 0; i < 60 && !verified; i++) {
      clock.advance(250)
      const verify = await job('verify')
      if (verify.status === 'success' && (await job('access')).status !== 'success') {
        expect(await live()).toBe(plusSeconds(verify.finished_at as string, 7200))
        verified = true
      }
    }
    expect(verified).toBe(true)
    await runOut(t, clock, { steps: 30 })
    // `access` has none: the last successful deployment's job's day counts from its end.
    expect(await live()).toBe(plusSeconds((await job('access')).finished_at as string, 86_400))
  })

  it('is a string in the configuration; on_stop names a stop job of the same environment', async () => {
    const lint = async (yaml: string) => {
      const res = await t.http('POST', `${APP}/ci/lint`, { token: MARK, json: { content: yaml } })
      expect(res.status).toBe(200)
      return (res.body as Json).errors
    }
    const deploy = (environment: string) => `deploy: { script: [x], environment: ${environment} }\n`
    expect(await lint(deploy('{ name: review, auto_stop_in: 3600 }'))).toEqual([
      'jobs:deploy:environment auto stop in should be a string',
    ])
    // A string that is no duration passes: it only sets no time when the deployment succeeds.
    expect(await lint(deploy('{ name: review, auto_stop_in: soon }'))).toEqual([])
    expect(await lint(deploy('{ name: review, on_stop: close }'))).toEqual([
      'deploy job: on_stop job close is not defined',
    ])
    expect(await lint(`${deploy('{ name: review, on_stop: close }')}close: { script: [x] }\n`)).toEqual([
      'deploy job: on_stop job close does not have environment defined',
    ])
    expect(
      await lint(`${deploy('{ name: review, on_stop: close }')}close: { script: [x], environment: other }\n`),
    ).toEqual(['deploy job: on_stop job close have different environment name'])
    expect(
      await lint(
        `${deploy('{ name: review, on_stop: close }')}close: { script: [x], environment: review }\n`,
      ),
    ).toEqual(['deploy job: on_stop job close needs to have action stop defined'])
  })
})

describe('POST .../environments/stop_stale', () => {
  const GUS = 'glpat-gus-token' // guest
  const stale = (token: string, json: Json) => t.http('POST', `${ENVS}/stop_stale`, { token, json })
  const create = async (name: string) => {
    const res = await t.http('POST', ENVS, { token: DANA, json: { name } })
    expect(res.status).toBe(201)
    return res.body as Json
  }

  it('stops the environments neither changed nor deployed to since `before`', async () => {
    const old = await create('old')
    const deployed = await create('deployed')
    await advance(8 * 86_400)
    const sha = ((await get(`${APP}/repository/branches/main`)).commit as Json).id as string
    const made = await t.http('POST', `${APP}/deployments`, {
      token: DANA,
      json: { environment: 'deployed', sha, ref: 'main', tag: false, status: 'success' },
    })
    expect(made.status).toBe(201)
    const fresh = await create('fresh')
    const now = Date.parse((await get('/-/emulator/clock', ROOT)).now as string)
    const before = new Date(now - 7 * 86_400_000 - 60_000).toISOString()

    const res = await stale(MARK, { before })
    expect(res).toMatchObject({
      status: 200,
      body: { message: 'Successfully scheduled stale environments to stop' },
    })
    const state = async (env: Json) => (await get(`${ENVS}/${env.id as number}`)).state
    expect([await state(old), await state(deployed), await state(fresh)]).toEqual([
      'stopped',
      'available',
      'available',
    ])
  })

  it("answers GitLab's refusals: 400 for a missing, invalid or out-of-range date, 403 below Maintainer", async () => {
    expect(await stale(MARK, {})).toMatchObject({ status: 400, body: { error: 'before is missing' } })
    expect(await stale(MARK, { before: 'soon' })).toMatchObject({
      status: 400,
      body: { error: 'before is invalid' },
    })
    const now = Date.parse((await get('/-/emulator/clock', ROOT)).now as string)
    for (const at of [now - 86_400_000, now - 11 * 366 * 86_400_000])
      expect(await stale(MARK, { before: new Date(at).toISOString() })).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Invalid Date' },
      })
    // `stop_environment` on the project is a Maintainer's (ProjectPolicy), a Developer's only on an environment.
    for (const token of [GUS, DANA])
      expect(await stale(token, { before: new Date(now - 30 * 86_400_000).toISOString() })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      })
  })
})
