import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

const DANA = 'glpat-dana-token' // developer
const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
beforeEach(async () => {
  t = await startServer(pipelineSeed, { clock: manualClock() })
})
afterEach(() => t.close())

const commit = (content: string, message = 'CI', action = 'create') =>
  t.http('POST', `${APP}/repository/commits`, {
    token: DANA,
    json: {
      branch: 'develop',
      commit_message: message,
      actions: [{ action, file_path: '.gitlab-ci.yml', content }],
    },
  })
const pipelines = async (query = '') =>
  (await t.http('GET', `${APP}/pipelines`, { token: MARK, query })).body as Json[]

const CONFIG = `
workflow:
  rules:
    - if: $CI_COMMIT_MESSAGE =~ /nopipe/
      when: never
    - when: always
build:
  script: echo build
on-push:
  script: echo pushed
  rules:
    - if: $CI_PIPELINE_SOURCE == "push"
on-trigger:
  script: echo triggered
  rules:
    - if: $CI_PIPELINE_SOURCE == "trigger"
`

describe('push pipelines from the files and commits API', () => {
  it("a commit with a .gitlab-ci.yml creates a push pipeline for the pusher at that commit, as the config's rules say", async () => {
    const res = await commit(CONFIG)
    expect(res.status).toBe(201)
    const sha = (res.body as Json).id
    const [made] = await pipelines('source=push')
    expect(made).toMatchObject({ source: 'push', ref: 'develop', sha, status: 'created' })
    const jobs = (await t.http('GET', `${APP}/pipelines/${made?.id}/jobs`, { token: MARK })).body as Json[]
    expect(jobs.map((j) => j.name).sort()).toEqual(['build', 'on-push'])
    expect(
      ((await t.http('GET', `${APP}/pipelines/${made?.id}`, { token: MARK })).body as Json).user,
    ).toMatchObject({
      username: 'dana',
    })

    // The same commit, triggered: the trigger's rules apply to it.
    const triggered = await t.http('POST', `${APP}/trigger/pipeline`, {
      form: `ref=develop&token=${MARK_TRIGGER}`,
    })
    expect(triggered.status).toBe(201)
    const tid = (triggered.body as Json).id
    const tjobs = (await t.http('GET', `${APP}/pipelines/${tid}/jobs`, { token: MARK })).body as Json[]
    expect(tjobs.map((j) => j.name).sort()).toEqual(['build', 'on-trigger'])
  })

  it('makes none for [skip ci], for a push the rules refuse, or for a branch without the file', async () => {
    expect((await commit(CONFIG, 'Docs [skip ci]')).status).toBe(201)
    expect(await pipelines('source=push')).toEqual([])
    expect((await commit(CONFIG.replace('echo build', 'echo other'), 'nopipe please', 'update')).status).toBe(
      201,
    )
    expect(await pipelines('source=push')).toEqual([])
    const readme = await t.http('POST', `${APP}/repository/files/README.md`, {
      token: DANA,
      json: { branch: 'feature/x', content: 'hi', commit_message: 'readme' },
    })
    expect(readme.status).toBe(201)
    expect(await pipelines('source=push')).toEqual([])
  })

  it('keeps a failed push pipeline for an invalid config', async () => {
    expect((await commit('job:\n  script: x\n  when: later\n')).status).toBe(201)
    const [failed] = await pipelines('source=push')
    expect(failed).toMatchObject({ status: 'failed', source: 'push' })
    expect((await pipelines('yaml_errors=true')).map((p) => p.id)).toEqual([failed?.id])
  })
})
