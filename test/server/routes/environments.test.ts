/*
 * Environments and deployments (lib/api/environments.rb, lib/api/deployments.rb) against the real server:
 * those a pipeline's jobs make and move, the API's reads and writes with GitLab's entities, validations
 * and refusals, and who may do what (ProjectPolicy).
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { serverEach, startServer } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // not a member
const APP = '/api/v4/projects/acme%2Fapp'
const ENVS = `${APP}/environments`
const DEPLOYS = `${APP}/deployments`
const SHA = 'a'.repeat(40)
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

const CONFIG = `
stages: [deploy, cleanup]
deploy:
  stage: deploy
  environment: { name: review/$CI_COMMIT_REF_SLUG, url: 'https://$CI_ENVIRONMENT_SLUG.example.com' }
  script: [echo deploy]
ship:
  stage: deploy
  environment: production
  script: [exit 1]
  allow_failure: true
prepare:
  stage: deploy
  environment: { name: staging, action: prepare }
  script: [echo prepare]
stop:
  stage: cleanup
  environment: { name: review/$CI_COMMIT_REF_SLUG, action: stop }
  script: [echo stop]
`

const step = async (ms = 1000) => {
  clock.advance(ms)
  await t.http('GET', `${APP}/pipelines`, { token: MARK })
}
const runOut = async () => {
  for (let i = 0; i < 40; i++) await step()
}
const trigger = async () => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
const get = async (url: string, token = MARK) => {
  const res = await t.http('GET', url, { token })
  expect(res.status).toBe(200)
  return res.body as Json & Json[]
}
const named = async (name: string) =>
  ((await get(`${ENVS}?name=${encodeURIComponent(name)}`)) as Json[])[0] as Json
const createEnv = async (json: Json, token = DANA) => {
  const res = await t.http('POST', ENVS, { token, json })
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`)
  return res.body as Json
}
/** The commit `main` points at. */
const mainSha = async () => ((await get(`${APP}/repository/branches/main`)).commit as Json).id as string
const external = async (json: Json = {}, token = DANA) => {
  const res = await t.http('POST', DEPLOYS, {
    token,
    json: {
      environment: 'production',
      sha: await mainSha(),
      ref: 'main',
      tag: false,
      status: 'running',
      ...json,
    },
  })
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`)
  return res.body as Json
}

describe('environments and deployments of a pipeline', () => {
  it('are made with the pipeline, follow their jobs, and a stop job stops its environment', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    const pid = await trigger()
    const envs = (await get(ENVS)) as Json[]
    expect(envs.map((e) => [e.name, e.slug, e.tier, e.state, e.external_url])).toEqual([
      // A name the slug changed gets 6 characters of its digest (`Gitlab::Slug::Environment`).
      ['review/ci', expect.stringMatching(/^review-ci-[a-z0-9]{6}$/), 'development', 'available', null],
      ['production', 'production', 'production', 'available', null],
      ['staging', 'staging', 'staging', 'available', null],
    ])
    expect(Object.keys(envs[0]!)).toEqual([
      'id',
      'name',
      'slug',
      'external_url',
      'created_at',
      'updated_at',
      'tier',
      'project',
      'state',
      'auto_stop_at',
      'description',
      'auto_stop_setting',
    ])
    // Start jobs deploy; `prepare` and `stop` do not.
    let deployments = (await get(DEPLOYS)) as Json[]
    expect(deployments.map((d) => [d.iid, (d.environment as Json).name, d.status, d.ref, d.sha])).toEqual([
      [1, 'review/ci', 'created', 'ci', expect.stringMatching(/^[0-9a-f]{40}$/)],
      [2, 'production', 'created', 'ci', expect.stringMatching(/^[0-9a-f]{40}$/)],
    ])
    const jobs = (await get(`${APP}/pipelines/${pid}/jobs?per_page=100`)) as Json[]
    const jobId = (name: string) => jobs.find((j) => j.name === name)!.id
    expect(deployments.map((d) => (d.deployable as Json).id)).toEqual([jobId('deploy'), jobId('ship')])
    expect((deployments[0]!.user as Json).username).toBe('mark')

    // The deployment runs when its job does.
    let running = false
    for (let i = 0; i < 40 && !running; i++) {
      await step(250)
      const job = await get(`${APP}/jobs/${jobId('deploy') as number}`)
      if (job.status === 'running') {
        const d = await get(`${DEPLOYS}/${deployments[0]!.id as number}`)
        expect(d.status).toBe('running')
        running = true
      }
    }
    expect(running).toBe(true)

    await runOut()
    deployments = (await get(DEPLOYS)) as Json[]
    expect(deployments.map((d) => [(d.environment as Json).name, d.status])).toEqual([
      ['review/ci', 'success'],
      ['production', 'failed'],
    ])
    const review = await named('review/ci')
    // The stop job ran after the deployment: stopped, with the url the deploy job gave, expanded.
    expect([review.state, review.external_url]).toEqual([
      'stopped',
      `https://${review.slug as string}.example.com`,
    ])
    const production = await get(`${ENVS}/${(await named('production')).id as number}`)
    // A failed deployment is no environment's last one.
    expect(production.last_deployment).toBeNull()
    expect(production.project).toBeUndefined()
    const one = await get(`${ENVS}/${review.id as number}`)
    expect((one.last_deployment as Json).id).toBe(deployments[0]!.id)
  })

  it('a retried job deploys again with a new deployment', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    const pid = await trigger()
    await runOut()
    const jobs = (await get(`${APP}/pipelines/${pid}/jobs`)) as Json[]
    const ship = jobs.find((j) => j.name === 'ship')!
    const res = await t.http('POST', `${APP}/jobs/${ship.id as number}/retry`, { token: MARK })
    expect(res.status).toBe(201)
    const deployments = (await get(`${DEPLOYS}?environment=production`)) as Json[]
    expect(deployments.map((d) => [d.iid, d.status, (d.deployable as Json).id])).toEqual([
      [2, 'failed', ship.id],
      [3, 'created', (res.body as Json).id],
    ])
  })
})

describe('environments API', () => {
  it('creates, reads, edits, stops and deletes an environment', async () => {
    const env = await createEnv({ name: 'review/one', external_url: 'https://one.example.com' })
    expect(env).toMatchObject({
      name: 'review/one',
      slug: expect.stringMatching(/^review-one-[a-z0-9]{6}$/),
      external_url: 'https://one.example.com',
      tier: 'development',
      state: 'available',
    })
    expect((env.project as Json).path_with_namespace).toBe('acme/app')
    const url = `${ENVS}/${env.id as number}`
    const edited = await t.http('PUT', url, {
      token: DANA,
      json: { tier: 'staging', external_url: 'https://two.example.com' },
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ tier: 'staging', external_url: 'https://two.example.com' })
    // An available environment is not deleted (EnvironmentPolicy: `~stopped` prevents destroy_environment).
    expect(await t.http('DELETE', url, { token: DANA })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    const stopped = await t.http('POST', `${url}/stop`, { token: DANA })
    expect(stopped).toMatchObject({ status: 200, body: { state: 'stopped' } })
    expect((await t.http('DELETE', url, { token: DANA })).status).toBe(204)
    expect(await t.http('GET', url, { token: DANA })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    })
  })

  it("refuses bad input with GitLab's bodies and changes nothing", async () => {
    await createEnv({ name: 'production' })
    const post = (json: Json) => t.http('POST', ENVS, { token: DANA, json })
    expect(await post({ name: 'production' })).toMatchObject({
      status: 400,
      body: { message: { name: ['has already been taken'] } },
    })
    expect(await post({ name: '/bad/' })).toMatchObject({
      status: 400,
      body: {
        message: {
          name: [
            "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'",
          ],
        },
      },
    })
    expect(await post({ name: 'x', slug: 'y' })).toMatchObject({
      status: 400,
      body: { error: 'slug is automatically generated and cannot be changed' },
    })
    expect(await post({ name: 'x', tier: 'moon' })).toMatchObject({
      status: 400,
      body: { error: 'tier does not have a valid value' },
    })
    expect((await post({})).body).toEqual({ error: 'name is missing' })
    expect(await t.http('GET', `${ENVS}?search=pr`, { token: DANA })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Search query is less than 3 characters' },
    })
    expect(await t.http('GET', `${ENVS}?search=prod&name=production`, { token: DANA })).toMatchObject({
      status: 400,
      body: { error: 'name, search cannot be used together' },
    })
    expect(((await get(ENVS)) as Json[]).map((e) => e.name)).toEqual(['production'])
  })

  it('lists by id, by name, search (the start of the name or of a folder part) and state, in pages', async () => {
    for (const name of ['review/b', 'production', 'review/a', 'apps/webapp']) await createEnv({ name })
    const b = await named('review/b')
    await t.http('POST', `${ENVS}/${b.id as number}/stop`, { token: DANA })
    const names = async (q: string) => ((await get(`${ENVS}?${q}`)) as Json[]).map((e) => e.name)
    expect(await names('')).toEqual(['review/b', 'production', 'review/a', 'apps/webapp'])
    expect(await names('name=production')).toEqual(['production'])
    expect(await names('search=REVIEW')).toEqual(['review/b', 'review/a'])
    expect(await names('search=web')).toEqual(['apps/webapp'])
    expect(await names('search=duct')).toEqual([])
    expect(await names('states=stopped')).toEqual(['review/b'])
    const page = await t.http('GET', `${ENVS}?per_page=2&page=2`, { token: DANA })
    expect(page.headers['x-total']).toBe('4')
    expect((page.body as Json[]).map((e) => e.name)).toEqual(['review/a', 'apps/webapp'])
  })

  it('lets Reporters read and Developers write; others get 403, outsiders 404, anonymous 401', async () => {
    const env = await createEnv({ name: 'production' })
    expect((await t.http('GET', ENVS, { token: GUS })).status).toBe(403)
    expect((await t.http('POST', ENVS, { token: GUS, json: { name: 'x' } })).status).toBe(403)
    expect(await t.http('GET', ENVS, { token: OTTO })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    })
    expect((await t.http('GET', ENVS)).status).toBe(401)
    expect(
      (await t.http('GET', `${APP.replace('app', 'public')}/environments`, { token: OTTO })).status,
    ).toBe(200)
    expect((await t.http('POST', `${ENVS}/${env.id as number}/stop`, { token: GUS })).status).toBe(403)
    expect((await named('production')).state).toBe('available')
  })
})

describe('deployments API', () => {
  it('records an external deployment, its environment made when missing, and moves its status', async () => {
    const d = await external()
    expect(Object.keys(d)).toEqual([
      'id',
      'iid',
      'ref',
      'sha',
      'created_at',
      'updated_at',
      'user',
      'environment',
      'deployable',
      'status',
    ])
    expect(d).toMatchObject({
      iid: 1,
      status: 'running',
      deployable: null,
      environment: { name: 'production' },
    })
    expect((d.user as Json).username).toBe('dana')
    const url = `${DEPLOYS}/${d.id as number}`
    expect(await t.http('DELETE', url, { token: MARK })).toMatchObject({
      status: 400,
      body: { message: 'Cannot destroy running deployment' },
    })
    expect(await t.http('PUT', url, { token: DANA, json: { status: 'success' } })).toMatchObject({
      status: 200,
      body: { status: 'success' },
    })
    const env = await get(`${ENVS}/${(d.environment as Json).id as number}`)
    expect((env.last_deployment as Json).id).toBe(d.id)
    expect(await t.http('DELETE', url, { token: MARK })).toMatchObject({
      status: 400,
      body: { message: 'Deployment currently deployed to environment' },
    })
    const later = await external({ status: 'success' })
    expect((await t.http('DELETE', url, { token: DANA })).status).toBe(403)
    expect((await t.http('DELETE', url, { token: MARK })).status).toBe(204)
    expect(((await get(DEPLOYS)) as Json[]).map((x) => x.id)).toEqual([later.id])
  })

  it("refuses to update a job's deployment, bad statuses, and those below Developer", async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    await trigger()
    const [first] = (await get(DEPLOYS)) as Json[]
    expect(
      await t.http('PUT', `${DEPLOYS}/${first!.id as number}`, { token: DANA, json: { status: 'success' } }),
    ).toMatchObject({
      status: 403,
      body: {
        message: '403 Forbidden - Deployments created using GitLab CI can not be updated using the API',
      },
    })
    expect(
      await t.http('POST', DEPLOYS, {
        token: DANA,
        json: { environment: 'x', sha: SHA, ref: 'main', tag: false, status: 'created' },
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'status does not have a valid value' },
    })
    expect(
      (
        await t.http('POST', DEPLOYS, {
          token: GUS,
          json: { environment: 'x', sha: SHA, ref: 'main', tag: false, status: 'running' },
        })
      ).status,
    ).toBe(403)
    expect(await t.http('GET', `${DEPLOYS}/999`, { token: DANA })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    })
    // `Deployment#valid_sha`, `#valid_ref`; the environment it names is not made either.
    expect(
      await t.http('POST', DEPLOYS, {
        token: DANA,
        json: { environment: 'canary', sha: SHA, ref: 'nope', tag: false, status: 'running' },
      }),
    ).toMatchObject({
      status: 400,
      body: { message: { sha: ['The commit does not exist'], ref: ['The branch or tag does not exist'] } },
    })
    expect((await get(DEPLOYS)).length).toBe(2)
    expect(((await get(ENVS)) as Json[]).map((e) => e.name)).not.toContain('canary')
  })

  it('lists by environment and status, ordered and sorted as asked', async () => {
    const a = await external({ environment: 'staging', status: 'success' })
    const b = await external({ ref: 'develop', status: 'failed' })
    const c = await external({ ref: 'feature/x', status: 'success' })
    const ids = async (q: string) => ((await get(`${DEPLOYS}?${q}`)) as Json[]).map((d) => d.id)
    expect(await ids('')).toEqual([a.id, b.id, c.id])
    expect(await ids('sort=desc')).toEqual([c.id, b.id, a.id])
    expect(await ids('order_by=ref')).toEqual([b.id, c.id, a.id])
    expect(await ids('environment=production')).toEqual([b.id, c.id])
    expect(await ids('environment=none')).toEqual([])
    expect(await ids('status=success')).toEqual([a.id, c.id])
    expect(await ids('order_by=finished_at&finished_after=2000-01-01T00:00:00Z&status=success')).toEqual([
      a.id,
      c.id,
    ])
    expect(await ids('updated_after=2000-01-01T00:00:00Z&order_by=updated_at&sort=desc')).toEqual([
      c.id,
      b.id,
      a.id,
    ])
    for (const [q, message] of [
      ['order_by=finished_at', '`finished_at` filter and `finished_at` sorting must be paired'],
      [
        'order_by=finished_at&finished_after=2000-01-01',
        '`finished_at` filter must be combined with `success` status filter.',
      ],
      [
        'updated_after=2000-01-01&finished_after=2000-01-01',
        'Both `updated_at` filter and `finished_at` filter can not be specified',
      ],
    ])
      expect(await t.http('GET', `${DEPLOYS}?${q}`, { token: DANA })).toMatchObject({
        status: 400,
        body: { message: `400 Bad request - ${message}` },
      })
  })
})

it("deleting a project takes its environments, deployments and jobs' links along", async () => {
  const s = await startServer(pipelineSeed, { gitlabVersion: '17.11.0', edition: 'ce', clock: manualClock() })
  try {
    await commitFiles(s, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    const res = await s.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    expect(res.status).toBe(201)
    const db = inspectDb(s.server.store)
    const rows = () =>
      ['environments', 'deployments', 'job_environments'].map(
        (table) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number,
      )
    expect(rows()).toEqual([3, 2, 4])
    expect((await s.http('DELETE', APP, { token: 'glpat-root-token' })).status).toBe(202)
    expect(rows()).toEqual([0, 0, 0])
  } finally {
    await s.close()
  }
})
