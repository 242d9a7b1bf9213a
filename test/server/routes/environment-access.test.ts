/*
 * Who may stop environments (app/policies/environment_policy.rb over ProjectPolicy's `stop_environment`)
 * and the CI/CD job tokens every environment and deployment route takes (lib/api/environments.rb,
 * lib/api/deployments.rb: `job_token_allowed: true`), against the real server.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const OTTO = 'glpat-otto-token' // made a reporter below
const APP = '/api/v4/projects/acme%2Fapp'
const ENVS = `${APP}/environments`
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const CONFIG = `
stages: [deploy, cleanup]
deploy:
  stage: deploy
  environment: { name: review, on_stop: close }
  script: [echo deploy]
close:
  stage: cleanup
  environment: { name: review, action: stop }
  when: manual
  script: [echo stop]
`
const get = async (url: string, token = MARK) => {
  const res = await t.http('GET', url, { token })
  expect(res.status).toBe(200)
  return res.body as Json & Json[]
}
const trigger = async () => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
const create = async (name: string) => {
  const res = await t.http('POST', ENVS, { token: DANA, json: { name } })
  expect(res.status).toBe(201)
  return `${ENVS}/${(res.body as Json).id as number}`
}

describe('POST .../environments/:id/stop', () => {
  it('is 403 for a Reporter, who reads the environment but may not stop it, and nothing changes', async () => {
    const otto = ((await get('/api/v4/users?username=otto', ROOT)) as Json[])[0]!
    const member = await t.http('POST', `${APP}/members`, {
      token: ROOT,
      json: { user_id: otto.id, access_level: 20 },
    })
    expect(member.status).toBe(201)
    const url = await create('staging')
    expect((await get(url, OTTO)).state).toBe('available')
    expect(await t.http('POST', `${url}/stop`, { token: OTTO })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect(await t.http('POST', `${url}/stop`, { token: OTTO, json: { force: true } })).toMatchObject({
      status: 403,
    })
    expect((await get(url)).state).toBe('available')
    // A missing environment is a 404 first (found before `stop_environment` is asked).
    expect(await t.http('POST', `${ENVS}/999/stop`, { token: OTTO })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    })
  })

  it("asks a Developer to be able to play the stop action (its ref's protection); a Maintainer may stop", async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    await trigger()
    await runOut(t, clock, { steps: 30 })
    const env = ((await get(`${ENVS}?name=review`)) as Json[])[0]!
    const url = `${ENVS}/${env.id as number}`
    // `ci` protected for Maintainers only: the Developer may not play `close` there (`play_job`).
    const protect = await t.http('POST', `${APP}/protected_branches`, { token: MARK, json: { name: 'ci' } })
    expect(protect.status).toBe(201)
    expect(await t.http('POST', `${url}/stop`, { token: DANA })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect((await get(url)).state).toBe('available')
    const stopped = await t.http('POST', `${url}/stop`, { token: MARK })
    expect([stopped.status, (stopped.body as Json).state]).toEqual([200, 'stopping'])
    // While it stops it has no stop action available: a Developer who may update it may force it.
    const forced = await t.http('POST', `${url}/stop`, { token: DANA, json: { force: true } })
    expect([forced.status, (forced.body as Json).state]).toEqual([200, 'stopped'])
  })
})

describe('CI/CD job tokens', () => {
  /** The token of the running `deploy` job; its user is the trigger's owner, mark. */
  const runningToken = async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    const id = await trigger()
    for (let i = 0; i < 20; i++) {
      clock.advance(500)
      const view = await get(`/-/emulator/projects/acme%2Fapp/pipelines/${id}`, ROOT)
      const job = (view.jobs as Json[]).find((j) => j.status === 'running')
      if (job) return job.token as string
    }
    throw new Error('no job ran')
  }

  it("reach every environment and deployment route of the job's own project as the job's user", async () => {
    const token = await runningToken()
    const headers = { 'job-token': token }
    const list = await t.http('GET', ENVS, { headers })
    expect([list.status, (list.body as Json[]).map((e) => e.name)]).toEqual([200, ['review']])
    const made = await t.http('POST', ENVS, { headers, json: { name: 'from-job' } })
    expect(made.status).toBe(201)
    const url = `${ENVS}/${(made.body as Json).id as number}`
    expect((await t.http('GET', url, { query: `job_token=${token}` })).status).toBe(200)
    const edited = await t.http('PUT', url, { headers, json: { external_url: 'https://job.example.com' } })
    expect([edited.status, (edited.body as Json).external_url]).toEqual([200, 'https://job.example.com'])
    const stopped = await t.http('POST', `${url}/stop`, { headers })
    expect([stopped.status, (stopped.body as Json).state]).toEqual([200, 'stopped'])
    expect((await t.http('DELETE', url, { headers })).status).toBe(204)
    const deployments = await t.http('GET', `${APP}/deployments`, { headers })
    expect([deployments.status, (deployments.body as Json[]).length]).toEqual([200, 1])

    // Another project is out of the token's scope, as it is for the pipeline routes.
    const other = await t.http('GET', '/api/v4/projects/acme%2Fother/environments', { headers })
    expect([other.status, other.body]).toEqual([404, { message: '404 Project Not Found' }])
    // Once the job has finished its token is worthless.
    await runOut(t, clock, { steps: 30 })
    const late = await t.http('GET', ENVS, { headers })
    expect([late.status, late.body]).toEqual([401, { message: '401 Unauthorized' }])
  })
})
