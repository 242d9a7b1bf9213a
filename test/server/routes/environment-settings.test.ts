/*
 * What an environment record shows, against the real server: its `description` and `auto_stop_setting`
 * (lib/api/environments.rb, Entities::Environment, Environment#stop_with_actions!), when its `updated_at`
 * moves, and which deployment is its `last_deployment` (Environment#last_deployment).
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

const get = async (url: string, token = MARK) => {
  const res = await t.http('GET', url, { token })
  expect(res.status).toBe(200)
  return res.body as Json & Json[]
}
const post = (json: Json) => t.http('POST', ENVS, { token: DANA, json })

describe('description and auto_stop_setting', () => {
  it('are set on create (`always` unless told) and edit, and shown by every environment record', async () => {
    const plain = await post({ name: 'plain' })
    expect(plain.status).toBe(201)
    expect(plain.body).toMatchObject({ description: null, auto_stop_setting: 'always' })
    const made = await post({
      name: 'review/a',
      description: 'A review app',
      auto_stop_setting: 'with_action',
    })
    expect(made.body).toMatchObject({ description: 'A review app', auto_stop_setting: 'with_action' })
    const url = `${ENVS}/${(made.body as Json).id as number}`
    expect(await get(url)).toMatchObject({ description: 'A review app', auto_stop_setting: 'with_action' })
    const edited = await t.http('PUT', url, {
      token: DANA,
      form: 'description=Second+words&auto_stop_setting=always',
    })
    expect(edited.body).toMatchObject({ description: 'Second words', auto_stop_setting: 'always' })
    // A blank description is none (`nullify_if_blank`).
    const blank = await t.http('PUT', url, { token: DANA, json: { description: '  ' } })
    expect((blank.body as Json).description).toBeNull()
    const listed = (await get(`${ENVS}?name=review/a`)) as Json[]
    expect(listed[0]).toMatchObject({ description: null, auto_stop_setting: 'always' })
  })

  it("refuses a bad setting or a description over 10,000 characters with GitLab's bodies", async () => {
    expect(await post({ name: 'x', auto_stop_setting: 'never' })).toMatchObject({
      status: 400,
      body: { error: 'auto_stop_setting does not have a valid value' },
    })
    expect(await post({ name: 'x', description: 'd'.repeat(10_001) })).toMatchObject({
      status: 400,
      body: { message: { description: ['is too long (maximum is 10000 characters)'] } },
    })
    const ok = await post({ name: 'y', description: 'd'.repeat(10_000) })
    expect(ok.status).toBe(201)
    const url = `${ENVS}/${(ok.body as Json).id as number}`
    expect(await t.http('PUT', url, { token: DANA, json: { auto_stop_setting: 'sometimes' } })).toMatchObject(
      { status: 400, body: { error: 'auto_stop_setting does not have a valid value' } },
    )
    expect(((await get(ENVS)) as Json[]).map((e) => e.name)).toEqual(['y'])
  })

  it('takes a JSON null as Grape hands it to the model: none, a tier guessed again, a refused setting', async () => {
    const made = await post({
      name: 'review/nulls',
      tier: 'production',
      external_url: 'https://r.example.com',
      description: 'words',
      auto_stop_setting: 'with_action',
    })
    expect(made.status).toBe(201)
    const url = `${ENVS}/${(made.body as Json).id as number}`
    // `nullify_if_blank`: null or blank is none; `ensure_environment_tier` guesses a null tier from the name.
    const cleared = await t.http('PUT', url, {
      token: DANA,
      json: { external_url: '', description: null, tier: null },
    })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toMatchObject({
      external_url: null,
      description: null,
      tier: 'development',
      auto_stop_setting: 'with_action',
    })
    // The column holds no null (GitLab's save fails): refused, nothing changed.
    const refused = await t.http('PUT', url, {
      token: DANA,
      json: { auto_stop_setting: null, tier: 'staging' },
    })
    expect([refused.status, refused.body]).toEqual([
      400,
      { error: 'auto_stop_setting does not have a valid value' },
    ])
    expect(await get(url)).toMatchObject({ tier: 'development', auto_stop_setting: 'with_action' })
    // A blank URL on create is none too.
    const bare = await post({ name: 'bare', external_url: ' ' })
    expect([bare.status, (bare.body as Json).external_url]).toEqual([201, null])
  })

  it('with_action: an environment without stop actions stays available, by the API or the auto-stop', async () => {
    const made = await post({ name: 'manual', auto_stop_setting: 'with_action' })
    const url = `${ENVS}/${(made.body as Json).id as number}`
    const res = await t.http('POST', `${url}/stop`, { token: DANA })
    expect([res.status, (res.body as Json).state]).toEqual([200, 'available'])
    // `force` (`stop_complete`) stops it whatever the setting.
    const forced = await t.http('POST', `${url}/stop`, { token: DANA, json: { force: true } })
    expect((forced.body as Json).state).toBe('stopped')

    // One a job made, with an auto-stop time: the setting set to `with_action`, the time passes and it stays.
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'deploy: { environment: { name: live, auto_stop_in: 1 hour }, script: [echo] }\n',
    })
    const run = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    expect(run.status).toBe(201)
    await runOut(t, clock, { steps: 30 })
    const live = ((await get(`${ENVS}?name=live`)) as Json[])[0]!
    expect(live.auto_stop_at).not.toBeNull()
    const liveUrl = `${ENVS}/${live.id as number}`
    await t.http('PUT', liveUrl, { token: DANA, json: { auto_stop_setting: 'with_action' } })
    const advance = await t.http('POST', '/-/emulator/clock', {
      token: ROOT,
      json: { action: 'advance', seconds: 7200 },
    })
    expect(advance.status).toBe(200)
    expect((await get(liveUrl)).state).toBe('available')
    // Set back to `always`, the next clock move stops it.
    await t.http('PUT', liveUrl, { token: DANA, json: { auto_stop_setting: 'always' } })
    await t.http('POST', '/-/emulator/clock', { token: ROOT, json: { action: 'advance', seconds: 60 } })
    expect(await get(liveUrl)).toMatchObject({ state: 'stopped', auto_stop_at: null })
  })
})

describe('updated_at', () => {
  it('moves on an edit that changes something, not on one that changes nothing', async () => {
    const made = await post({ name: 'staging', external_url: 'https://s.example.com' })
    const url = `${ENVS}/${(made.body as Json).id as number}`
    const created = (made.body as Json).updated_at
    clock.advance(60_000)
    const same = await t.http('PUT', url, {
      token: DANA,
      json: { external_url: 'https://s.example.com', tier: 'staging' },
    })
    expect((same.body as Json).updated_at).toBe(created)
    // GitLab 16.0 stopped renaming through the API: `name` is no parameter of the edit any more.
    const renamed = await t.http('PUT', url, { token: DANA, json: { name: 'production' } })
    expect([renamed.status, (renamed.body as Json).name, (renamed.body as Json).updated_at]).toEqual([
      200,
      'staging',
      created,
    ])
    clock.advance(60_000)
    const changed = await t.http('PUT', url, { token: DANA, json: { description: 'now' } })
    expect((changed.body as Json).updated_at).toBe(new Date(clock.now()).toISOString())
  })

  it('moves when a verify job renews auto_stop_at, as the renewal updates the environment', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
stages: [deploy, verify]
deploy: { stage: deploy, environment: { name: live, auto_stop_in: 1 day }, script: [echo] }
verify: { stage: verify, environment: { name: live, action: verify, auto_stop_in: 2 hours }, script: [echo] }
`,
    })
    const run = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    await runOut(t, clock, { steps: 30 })
    const jobs = (await get(`${APP}/pipelines/${(run.body as Json).id as number}/jobs`)) as Json[]
    const verify = jobs.find((j) => j.name === 'verify')!
    expect(verify.status).toBe('success')
    const live = ((await get(`${ENVS}?name=live`)) as Json[])[0]!
    const finished = verify.finished_at as string
    expect(live.auto_stop_at).toBe(new Date(Date.parse(finished) + 7200_000).toISOString())
    expect(live.updated_at).toBe(finished)
  })
})

describe('last_deployment', () => {
  it('is the successful deployment that finished last (`success.ordered`), not the one made last', async () => {
    const sha = ((await get(`${APP}/repository/branches/main`)).commit as Json).id as string
    const deploy = async () => {
      const res = await t.http('POST', `${APP}/deployments`, {
        token: DANA,
        json: { environment: 'production', sha, ref: 'main', tag: false, status: 'running' },
      })
      expect(res.status).toBe(201)
      return `${APP}/deployments/${(res.body as Json).id as number}`
    }
    const finish = async (url: string) => {
      clock.advance(60_000)
      const res = await t.http('PUT', url, { token: DANA, json: { status: 'success' } })
      expect(res.status).toBe(200)
      return (res.body as Json).id
    }
    const older = await deploy()
    const newer = await deploy()
    await finish(newer)
    const last = await finish(older)
    const env = ((await get(`${ENVS}?name=production`)) as Json[])[0]!
    expect(((await get(`${ENVS}/${env.id as number}`)).last_deployment as Json).id).toBe(last)
    // The deployment currently deployed is that one: it may not be deleted, the other may.
    expect(await t.http('DELETE', older, { token: MARK })).toMatchObject({
      status: 400,
      body: { message: 'Deployment currently deployed to environment' },
    })
    expect((await t.http('DELETE', newer, { token: MARK })).status).toBe(204)
  })
})
