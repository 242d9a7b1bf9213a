/*
 * Deployment Hooks (`Gitlab::DataBuilder::Deployment`, `Deployments::HooksWorker`) against the real
 * server and a real receiver: `deployment_events` on project and group hooks, the moves of a job's
 * deployment (running, then success or failed) and of one made through the API, each sent once.
 */
import { commitFiles } from '../../support/ci-files.js'
import { eventually, hookReceiver } from '../../support/hook-receiver.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'

const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()), allowLocalRequests: true }))
let receiver: Awaited<ReturnType<typeof hookReceiver>>
beforeEach(async () => {
  receiver = await hookReceiver()
})
afterEach(() => receiver.close())

const CONFIG = `
deploy:
  environment: { name: production, url: https://prod.example.com }
  script: [echo deploy]
ship:
  environment: staging
  script: [exit 1]
plain:
  script: [echo plain]
`

const addHook = async (json: Json, url = `${APP}/hooks`, token = MARK, to = receiver.url) => {
  const res = await t.http('POST', url, { token, json: { url: to, ...json } })
  expect(res.status).toBe(201)
  return res.body as Json
}
/** Every pipeline move and webhook delivery run to its end (`POST /-/emulator/settle`). */
const settle = async () =>
  expect((await t.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
const runPipeline = async (config = CONFIG) => {
  await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': config })
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  await runOut(t, clock)
  await settle()
  return (res.body as Json).id as number
}
const deliveries = (event = 'Deployment Hook') =>
  receiver.got.filter((r) => r.headers['x-gitlab-event'] === event)
/** Ruby's `Time#to_s` of a fixed-offset time, as the worker's `status_changed_at` reaches receivers. */
const rubyOffset = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000`

describe('deployment_events', () => {
  it('is taken on create and edit and shown by project and group hooks', async () => {
    const hook = await addHook({ deployment_events: true })
    expect(hook.deployment_events).toBe(true)
    const list = (await t.http('GET', `${APP}/hooks`, { token: MARK })).body as Json[]
    expect(list.map((h) => h.deployment_events)).toEqual([true])
    const edited = await t.http('PUT', `${APP}/hooks/${hook.id as number}`, {
      token: MARK,
      json: { deployment_events: false },
    })
    expect([edited.status, (edited.body as Json).deployment_events]).toEqual([200, false])
    const read = await t.http('GET', `${APP}/hooks/${hook.id as number}`, { token: MARK })
    expect((read.body as Json).deployment_events).toBe(false)
    const other = await addHook({ push_events: false })
    expect(other.deployment_events).toBe(false)

    const group = await addHook({ deployment_events: true }, '/api/v4/groups/acme/hooks', ROOT)
    expect(group.deployment_events).toBe(true)
    const groups = (await t.http('GET', '/api/v4/groups/acme/hooks', { token: ROOT })).body as Json[]
    expect(groups.map((h) => h.deployment_events)).toEqual([true])
  })
})

describe('Deployment Hook', () => {
  it("sends each move of a job's deployment once (running, then success or failed), with GitLab's keys", async () => {
    await addHook({ deployment_events: true, push_events: false })
    const pid = await runPipeline()
    await eventually(
      async () => deliveries().length,
      (n) => n >= 4,
    )
    await settle()
    const jobs = (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[]
    const job = (name: string) => jobs.find((j) => j.name === name)!
    const moves = deliveries().map((r) => [r.body.environment, r.body.status])
    expect(moves.filter((m) => m[0] === 'production')).toEqual([
      ['production', 'running'],
      ['production', 'success'],
    ])
    expect(moves.filter((m) => m[0] === 'staging')).toEqual([
      ['staging', 'running'],
      ['staging', 'failed'],
    ])
    expect(moves).toHaveLength(4)

    const deployments = (await t.http('GET', `${APP}/deployments`, { token: MARK })).body as Json[]
    const production = deployments.find((d) => (d.environment as Json).name === 'production')!
    const success = deliveries().find(
      (r) => r.body.environment === 'production' && r.body.status === 'success',
    )!
    const sha = (
      await t.http('GET', `${APP}/repository/commits/${(job('deploy').commit as Json).id as string}`, {
        token: MARK,
      })
    ).body as Json
    const base = t.baseUrl.replace(/\/$/, '')
    expect(success.headers['content-type']).toBe('application/json')
    expect(Object.keys(success.body)).toEqual([
      'object_kind',
      'status',
      'status_changed_at',
      'deployment_id',
      'deployable_id',
      'deployable_url',
      'environment',
      'environment_tier',
      'environment_slug',
      'environment_external_url',
      'project',
      'short_sha',
      'user',
      'user_url',
      'commit_url',
      'commit_title',
      'ref',
    ])
    expect(success.body).toMatchObject({
      object_kind: 'deployment',
      status: 'success',
      status_changed_at: rubyOffset(job('deploy').finished_at as string),
      deployment_id: production.id,
      deployable_id: job('deploy').id,
      deployable_url: `${base}/acme/app/-/jobs/${job('deploy').id as number}`,
      environment: 'production',
      environment_tier: 'production',
      environment_slug: 'production',
      environment_external_url: 'https://prod.example.com',
      project: { id: expect.any(Number), path_with_namespace: 'acme/app', homepage: `${base}/acme/app` },
      short_sha: (sha.id as string).slice(0, 8),
      user: { username: 'mark' },
      user_url: `${base}/mark`,
      commit_url: `${base}/acme/app/-/commit/${sha.id as string}`,
      commit_title: sha.title,
      ref: 'ci',
    })
    const running = deliveries().find(
      (r) => r.body.environment === 'production' && r.body.status === 'running',
    )!
    expect(running.body.status_changed_at).toBe(rubyOffset(job('deploy').started_at as string))
    // The environment's url is set once the job succeeds: the running move came before.
    expect(running.body.environment_external_url).toBeNull()
  })

  it('goes only to hooks that take deployment events', async () => {
    const other = await hookReceiver()
    try {
      await addHook({ job_events: true, push_events: false }, `${APP}/hooks`, MARK, other.url)
      await addHook({ deployment_events: true, push_events: false })
      await runPipeline()
      await settle()
      expect(deliveries()).toHaveLength(4)
      expect(other.got.filter((r) => r.headers['x-gitlab-event'] === 'Job Hook').length).toBeGreaterThan(0)
      expect(other.got.filter((r) => r.headers['x-gitlab-event'] === 'Deployment Hook')).toEqual([])
    } finally {
      await other.close()
    }
  })

  it('sends the moves of the new deployment a retried job makes', async () => {
    await addHook({ deployment_events: true, push_events: false })
    const pid = await runPipeline()
    const jobs = (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[]
    const ship = jobs.find((j) => j.name === 'ship')!
    const retried = await t.http('POST', `${APP}/jobs/${ship.id as number}/retry`, { token: MARK })
    expect(retried.status).toBe(201)
    await settle()
    const staging = deliveries().filter((r) => r.body.environment === 'staging')
    expect(staging.map((r) => [r.body.deployable_id, r.body.status])).toEqual([
      [ship.id, 'running'],
      [ship.id, 'failed'],
      [(retried.body as Json).id, 'running'],
      [(retried.body as Json).id, 'failed'],
    ])
    expect(new Set(staging.map((r) => r.body.deployment_id)).size).toBe(2)
  })

  it('sends nothing for a deployment skipped with its job', async () => {
    await addHook({ deployment_events: true, push_events: false })
    await runPipeline(`
stages: [build, deploy]
build: { stage: build, script: [exit 1] }
canary: { stage: build, environment: canary, script: [echo] }
deploy: { stage: deploy, environment: production, script: [echo] }
`)
    await settle()
    const deployments = (await t.http('GET', `${APP}/deployments`, { token: MARK })).body as Json[]
    expect(deployments.map((d) => [(d.environment as Json).name, d.status])).toEqual([
      ['canary', 'success'],
      ['production', 'skipped'],
    ])
    expect(deliveries().map((r) => [r.body.environment, r.body.status])).toEqual([
      ['canary', 'running'],
      ['canary', 'success'],
    ])
  })

  it('sends canceled when the deploying job is canceled while it runs', async () => {
    await addHook({ deployment_events: true, push_events: false })
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'deploy: { environment: production, script: [echo] }\n',
    })
    const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    expect(res.status).toBe(201)
    const jobs = async () =>
      (await t.http('GET', `${APP}/pipelines/${(res.body as Json).id as number}/jobs`, { token: MARK }))
        .body as Json[]
    for (let i = 0; i < 10 && (await jobs())[0]!.status !== 'running'; i++) clock.advance(250)
    const canceled = await t.http('POST', `${APP}/jobs/${(await jobs())[0]!.id as number}/cancel`, {
      token: MARK,
    })
    expect([canceled.status, (canceled.body as Json).status]).toEqual([201, 'canceled'])
    await settle()
    expect(deliveries().map((r) => r.body.status)).toEqual(['running', 'canceled'])
  })

  it('sends the moves of a deployment made through the API, none for an edit to the status it has', async () => {
    await addHook({ deployment_events: true, push_events: false })
    const sha = ((await t.http('GET', `${APP}/repository/branches/main`, { token: MARK })).body as Json)
      .commit as Json
    const made = await t.http('POST', `${APP}/deployments`, {
      token: DANA,
      json: { environment: 'canary', sha: sha.id, ref: 'main', tag: false, status: 'running' },
    })
    expect(made.status).toBe(201)
    const id = (made.body as Json).id as number
    const put = (status: string) =>
      t.http('PUT', `${APP}/deployments/${id}`, { token: DANA, json: { status } })
    expect((await put('success')).status).toBe(200)
    expect((await put('success')).status).toBe(200)
    await settle()
    expect(deliveries().map((r) => r.body.status)).toEqual(['running', 'success'])
    expect(deliveries()[0]!.body).toMatchObject({
      deployment_id: id,
      deployable_id: null,
      deployable_url: null,
      environment: 'canary',
      environment_tier: 'other',
      user: { username: 'dana' },
      commit_title: sha.title,
      ref: 'main',
    })
  })

  it('is what a test of deployment_events sends: the newest deployment, 422 when there is none', async () => {
    const hook = await addHook({})
    const test = () =>
      t.http('POST', `${APP}/hooks/${hook.id as number}/test/deployment_events`, { token: MARK })
    const none = await test()
    expect([none.status, none.body]).toEqual([422, { message: 'Ensure the project has deployments.' }])
    await runPipeline()
    const ok = await test()
    expect(ok.status).toBe(201)
    const sent = deliveries()
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toMatchObject({
      object_kind: 'deployment',
      environment: 'staging',
      status: 'failed',
    })
  })
})
