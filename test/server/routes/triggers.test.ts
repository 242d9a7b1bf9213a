import { FormData, request } from 'undici'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const MARK = 'glpat-mark-token' // maintainer, owns the seeded trigger
const MAYA = 'glpat-maya-token' // another maintainer
const DANA = 'glpat-dana-token' // developer
const OTTO = 'glpat-otto-token' // not a member
const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>
let t: TestServer
beforeEach(async () => {
  t = await startServer(pipelineSeed, { clock: manualClock() })
})
afterEach(() => t.close())

const stored = async () =>
  ((await t.http('GET', `${P}/triggers`, { token: MARK })).body as Json[]).map((x) => [x.id, x.description])
const pipelineCount = async () =>
  inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM pipelines').pluck().get() as number

describe('trigger token CRUD', () => {
  it('creates a glptt- token with 201; the owner sees it whole, another maintainer its 4-character short form', async () => {
    const res = await t.http('POST', `${P}/triggers`, { token: MAYA, form: 'description=nightly' })
    expect(res.status).toBe(201)
    const made = res.body as Json
    expect(made.token).toMatch(/^glptt-[0-9a-f]{40}$/)
    expect(made).toMatchObject({
      description: 'nightly',
      last_used: null,
      expires_at: null,
      owner: { username: 'maya' },
    })
    expect(Object.keys(made)).toEqual([
      'id',
      'token',
      'description',
      'created_at',
      'updated_at',
      'last_used',
      'expires_at',
      'owner',
    ])
    const byMark = (await t.http('GET', `${P}/triggers/${made.id}`, { token: MARK })).body as Json
    expect(byMark.token).toBe((made.token as string).slice(6, 10))
    const byMaya = (await t.http('GET', `${P}/triggers/${made.id}`, { token: MAYA })).body as Json
    expect(byMaya.token).toBe(made.token)
    const list = (await t.http('GET', `${P}/triggers`, { token: MAYA })).body as Json[]
    expect(list.map((x) => x.token)).toEqual(['ab12', made.token])
  })

  it('keeps only a digest and a sealed copy at rest', async () => {
    const row = inspectDb(t.server.store)
      .prepare('SELECT * FROM triggers WHERE description = ?')
      .get('deploy') as Json
    expect(JSON.stringify(row)).not.toContain(MARK_TRIGGER)
    expect(JSON.stringify(row)).not.toContain(MARK_TRIGGER.slice(6))
  })

  it.each([
    ['anonymous', undefined, 401, { message: '401 Unauthorized' }],
    ['a developer', DANA, 403, { message: '403 Forbidden' }],
    ['a non-member', OTTO, 404, { message: '404 Project Not Found' }],
  ])('refuses %s listing, reading and creating', async (_who, token, status, body) => {
    for (const [method, path] of [
      ['GET', `${P}/triggers`],
      ['GET', `${P}/triggers/1`],
      ['POST', `${P}/triggers`],
    ] as const) {
      const res = await t.http(method, path, {
        token,
        json: method === 'POST' ? { description: 'x' } : undefined,
      })
      expect([method, path, res.status, res.body]).toEqual([method, path, status, body])
    }
    expect(await stored()).toEqual([[1, 'deploy']])
  })

  it('answers GitLab parameter errors first', async () => {
    expect((await t.http('POST', `${P}/triggers`, { json: {} })).body).toEqual({
      error: 'description is missing',
    })
    expect((await t.http('GET', `${P}/triggers/abc`, { token: MARK })).body).toEqual({
      error: 'trigger_id is invalid',
    })
    const missing = await t.http('GET', `${P}/triggers/999`, { token: MARK })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('lets only the owner edit: another maintainer gets 403 with GitLab sentence and nothing changes', async () => {
    const maya = await t.http('PUT', `${P}/triggers/1`, { token: MAYA, json: { description: 'hijacked' } })
    expect(maya.status).toBe(403)
    expect(maya.body).toEqual({
      message: '403 Forbidden - The current user is not authorized to update the pipeline trigger token',
    })
    const dana = await t.http('PUT', `${P}/triggers/1`, { token: DANA, json: { description: 'hijacked' } })
    expect(dana.status).toBe(403)
    expect(await stored()).toEqual([[1, 'deploy']])
    const mark = await t.http('PUT', `${P}/triggers/1`, { token: MARK, form: 'description=ship+it' })
    expect(mark.status).toBe(200)
    expect(mark.body).toMatchObject({ id: 1, description: 'ship it', token: MARK_TRIGGER })
    const blank = await t.http('PUT', `${P}/triggers/1`, { token: MARK, json: { description: null } })
    expect([blank.status, (blank.body as Json).description]).toEqual([200, ''])
  })

  it('lets any maintainer delete (204, then 404); a developer may not', async () => {
    const dana = await t.http('DELETE', `${P}/triggers/1`, { token: DANA })
    expect([dana.status, dana.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await stored()).toEqual([[1, 'deploy']])
    const old = await t.http('DELETE', `${P}/triggers/1`, {
      token: MAYA,
      headers: { 'if-unmodified-since': 'Mon, 01 Jan 2024 00:00:00 GMT' },
    })
    expect([old.status, old.body]).toEqual([412, { message: '412 Precondition Failed' }])
    expect(await stored()).toEqual([[1, 'deploy']])
    const maya = await t.http('DELETE', `${P}/triggers/1`, { token: MAYA })
    expect([maya.status, maya.text]).toEqual([204, ''])
    expect(await stored()).toEqual([])
    expect((await t.http('DELETE', `${P}/triggers/1`, { token: MAYA })).status).toBe(404)
    const gone = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=main&token=${MARK_TRIGGER}` })
    expect(gone.status).toBe(404)
  })
})

describe('POST /projects/:id/trigger/pipeline', () => {
  it('starts a created pipeline owned by the token owner, from a form, a query or JSON; sets last_used', async () => {
    const form = await t.http('POST', `${P}/trigger/pipeline`, {
      form: `ref=main&token=${MARK_TRIGGER}&variables[DEPLOY]=yes`,
    })
    expect(form.status).toBe(201)
    expect(form.body).toMatchObject({
      status: 'created',
      source: 'trigger',
      ref: 'main',
      user: { username: 'mark' },
    })
    const query = await t.http('POST', `${P}/trigger/pipeline`, {
      query: `ref=develop&token=${MARK_TRIGGER}`,
    })
    expect(query.body).toMatchObject({ ref: 'develop', status: 'created' })
    const json = await t.http('POST', '/api/v4/projects/1/trigger/pipeline', {
      json: { ref: 'feature/x', token: MARK_TRIGGER, variables: { A: '1' } },
    })
    expect(json.body).toMatchObject({ ref: 'feature/x', iid: 3 })
    const vars = await t.http('GET', `${P}/pipelines/${(form.body as Json).id}/variables`, { token: MARK })
    expect(vars.body).toEqual([
      { variable_type: 'env_var', key: 'DEPLOY', value: 'yes' },
      {
        variable_type: 'file',
        key: 'TRIGGER_PAYLOAD',
        value: '{"ref":"main","variables":{"DEPLOY":"yes"},"id":"acme/app"}',
      },
    ])
    const trigger = (await t.http('GET', `${P}/triggers/1`, { token: MARK })).body as Json
    expect(trigger.last_used).toBe((json.body as Json).created_at)
  })

  it('reads a multipart/form-data body as a form, as Rack does (gitbeaker sends its forms so)', async () => {
    const form = new FormData()
    form.append('ref', 'main')
    form.append('token', MARK_TRIGGER)
    form.append('variables[DEPLOY]', 'yes')
    const res = await request(`${t.baseUrl}${P}/trigger/pipeline`, { method: 'POST', body: form })
    expect(res.statusCode).toBe(201)
    const { id } = (await res.body.json()) as Json
    const vars = await t.http('GET', `${P}/pipelines/${id}/variables`, { token: MARK })
    expect((vars.body as Json[])[0]).toEqual({ variable_type: 'env_var', key: 'DEPLOY', value: 'yes' })
    // A file where a string is declared is Rack's upload hash, which Grape refuses.
    const before = await pipelineCount()
    const withFile = new FormData()
    withFile.append('ref', new Blob(['main']), 'ref.txt')
    withFile.append('token', MARK_TRIGGER)
    const refused = await request(`${t.baseUrl}${P}/trigger/pipeline`, { method: 'POST', body: withFile })
    expect([refused.statusCode, await refused.body.json()]).toEqual([400, { error: 'ref is invalid' }])
    expect(await pipelineCount()).toBe(before)
  })

  it('takes JSON variables: null as no variables, as Grape does', async () => {
    const res = await t.http('POST', `${P}/trigger/pipeline`, {
      json: { ref: 'main', token: MARK_TRIGGER, variables: null },
    })
    expect(res.status).toBe(201)
    const vars = await t.http('GET', `${P}/pipelines/${(res.body as Json).id}/variables`, { token: MARK })
    expect(vars.body).toEqual([
      {
        variable_type: 'file',
        key: 'TRIGGER_PAYLOAD',
        value: '{"ref":"main","variables":{},"id":"acme/app"}',
      },
    ])
  })

  it('takes the ref from the path form, slashes included', async () => {
    const res = await t.http('POST', `${P}/ref/feature/x/trigger/pipeline`, { form: `token=${MARK_TRIGGER}` })
    expect([res.status, (res.body as Json).ref]).toEqual([201, 'feature/x'])
    const bad = await t.http('POST', `${P}/ref/main/nothing`, { form: `token=${MARK_TRIGGER}` })
    expect(bad.status).toBe(404)
  })

  it.each([
    ['no token', 'ref=main', 400, { error: 'token is missing' }],
    ['no ref', `token=${MARK_TRIGGER}`, 400, { error: 'ref is missing, ref is empty' }],
    ['a blank ref', `ref=&token=${MARK_TRIGGER}`, 400, { error: 'ref is empty' }],
    [
      'variables that are no hash',
      `ref=main&token=${MARK_TRIGGER}&variables=x`,
      400,
      { error: 'variables is invalid' },
    ],
    [
      'nested variables',
      `ref=main&token=${MARK_TRIGGER}&variables[A][B]=c`,
      400,
      { message: 'variables needs to be a map of key-valued strings' },
    ],
    ['an unknown token', 'ref=main&token=glptt-nope', 404, { message: '404 Not Found' }],
    [
      "another project's token",
      `ref=main&token=glptt-${'cd34'.repeat(10)}`,
      404,
      { message: '404 Not Found' },
    ],
    ['an unknown ref', `ref=nope&token=${MARK_TRIGGER}`, 400, { message: { base: ['Reference not found'] } }],
  ])('refuses %s and creates nothing', async (_what, form, status, body) => {
    const res = await t.http('POST', `${P}/trigger/pipeline`, { form })
    expect([res.status, res.body]).toEqual([status, body])
    expect(await pipelineCount()).toBe(0)
  })

  it('refuses a project without CI configuration, an unknown project, and webhook loops', async () => {
    const nocfg = await t.http('POST', '/api/v4/projects/acme%2Fnocfg/trigger/pipeline', {
      form: `ref=main&token=glptt-${'ef56'.repeat(10)}`,
    })
    expect([nocfg.status, nocfg.body]).toEqual([400, { message: { base: ['Missing CI config file'] } }])
    const unknown = await t.http('POST', '/api/v4/projects/9999/trigger/pipeline', {
      form: `ref=main&token=${MARK_TRIGGER}`,
    })
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Not Found' }])
    const hook = await t.http('POST', `${P}/trigger/pipeline`, {
      form: `ref=main&token=${MARK_TRIGGER}`,
      headers: { 'x-gitlab-event': 'Pipeline Hook' },
    })
    expect([hook.status, hook.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await pipelineCount()).toBe(0)
  })

  it('refuses a trigger whose owner may no longer create pipelines', async () => {
    inspectDb(t.server.store)
      .prepare(
        "UPDATE members SET access_level = 10 WHERE user_id = (SELECT id FROM users WHERE username = 'mark')",
      )
      .run()
    const res = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=main&token=${MARK_TRIGGER}` })
    expect([res.status, res.body]).toEqual([
      400,
      { message: { base: ['Insufficient permissions to create a new pipeline'] } },
    ])
    expect(await pipelineCount()).toBe(0)
  })

  /** Sets a project feature as an administrator (`PUT /projects/:id`). */
  const feature = async (json: Json) =>
    expect((await t.http('PUT', P, { token: 'glpat-root-token', json })).status).toBe(200)
  const fire = async (ref = 'main') => {
    const res = await t.http('POST', `${P}/trigger/pipeline`, { form: `ref=${ref}&token=${MARK_TRIGGER}` })
    return [res.status, res.status === 201 ? undefined : res.body]
  }
  const refusal = (message: string) => [400, { message: { base: [message] } }]

  it('refuses while the CI/CD feature is disabled, or the repository is to the owner (Chain::Validate::Abilities)', async () => {
    await feature({ builds_access_level: 'disabled' })
    expect(await fire()).toEqual(refusal('Pipelines are disabled!'))
    await feature({ builds_access_level: 'enabled', repository_access_level: 'disabled' })
    expect(await fire()).toEqual(refusal('Insufficient permissions to create a new pipeline'))
    expect(await pipelineCount()).toBe(0)
    await feature({ repository_access_level: 'enabled' })
    expect(await fire()).toEqual([201, undefined])
  })

  it("refuses a ref its owner may not write: a Developer's trigger on the fully protected main", async () => {
    inspectDb(t.server.store)
      .prepare(
        "UPDATE members SET access_level = 30 WHERE user_id = (SELECT id FROM users WHERE username = 'mark')",
      )
      .run()
    expect(await fire('main')).toEqual(
      refusal(
        "You do not have sufficient permission to run a pipeline on 'main'. Please select a different branch or contact your administrator for assistance.",
      ),
    )
    expect(await pipelineCount()).toBe(0)
    expect(await fire('feature/x')).toEqual([201, undefined])
  })
})
