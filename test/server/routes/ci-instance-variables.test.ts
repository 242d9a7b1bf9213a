/*
 * Instance CI/CD variables (`lib/api/admin/ci/variables.rb`) against the real server: administrators
 * only, GitLab's fields, validations and plan limit, and what jobs see of them under the groups', the
 * project's and the pipeline's variables.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // maintainer of acme/app, not an administrator
const TRIGGER = `glptt-${'cd34'.repeat(10)}`
const URL = '/api/v4/admin/ci/variables'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: mark, name: Mark Maintainer, token: ${MARK} }
groups:
  - { path: acme, visibility: private, members: { mark: owner } }
projects:
  - path: acme/app
    ci_jobs: [build]
    ci_job_duration: 2s
    triggers: [ { description: deploy, owner: mark, token: ${TRIGGER} } ]
`

let clock: ReturnType<typeof manualClock>
const t = serverEach(seed, () => ({ clock: (clock = manualClock()) }))
const create = (json: Json, token = ROOT) => t.http('POST', URL, { token, json })

describe('instance variables API', () => {
  it("creates, lists, reads, edits and deletes an instance variable with GitLab's fields, sealed at rest", async () => {
    const made = await create({
      key: 'REGISTRY',
      value: 'registry-secret',
      masked: true,
      environment_scope: 'x',
    })
    expect(made.status).toBe(201)
    // No `hidden` and no `environment_scope`: `Ci::InstanceVariable` has neither.
    expect(made.text).toBe(
      '{"variable_type":"env_var","key":"REGISTRY","value":"registry-secret","protected":false,' +
        '"masked":true,"raw":false,"description":null}',
    )
    const list = await t.http('GET', URL, { token: ROOT })
    expect(list.headers['x-total']).toBe('1')
    expect((list.body as Json[]).map((v) => v.key)).toEqual(['REGISTRY'])
    const edited = await t.http('PUT', `${URL}/REGISTRY`, {
      token: ROOT,
      form: 'value=other-secret&protected=true&description=the+registry',
    })
    expect(edited.body).toMatchObject({ value: 'other-secret', protected: true, description: 'the registry' })
    expect((await t.http('GET', `${URL}/REGISTRY`, { token: ROOT })).body).toMatchObject({
      value: 'other-secret',
    })
    const rows = inspectDb(t.server.store).prepare('SELECT * FROM ci_instance_variables').all()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain('other-secret')
    expect((await t.http('DELETE', `${URL}/REGISTRY`, { token: ROOT })).status).toBe(204)
    for (const method of ['GET', 'PUT', 'DELETE'] as const)
      expect(await t.http(method, `${URL}/REGISTRY`, { token: ROOT, json: {} })).toMatchObject({
        status: 404,
        body: { message: '404 InstanceVariable Not Found' },
      })
  })

  it('401 to anonymous callers and 403 to non-administrators, before the parameters are read', async () => {
    await create({ key: 'K', value: 'v' })
    expect(await t.http('GET', URL)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } })
    expect(await t.http('GET', URL, { token: MARK })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect((await t.http('GET', `${URL}/K`, { token: MARK })).status).toBe(403)
    // A non-administrator's POST without `value` is refused for who they are, not for what they sent.
    expect((await create({ key: 'M' }, MARK)).status).toBe(403)
    expect((await t.http('PUT', `${URL}/K`, { token: MARK, json: { value: 'w' } })).status).toBe(403)
    expect((await t.http('DELETE', `${URL}/K`, { token: MARK })).status).toBe(403)
    expect((await t.http('GET', `${URL}/K`, { token: ROOT })).body).toMatchObject({ value: 'v' })
  })

  it("answers the model's 400 bodies and writes nothing", async () => {
    expect(await create({ key: 'M' })).toMatchObject({ status: 400, body: { error: 'value is missing' } })
    expect(await create({ key: 'bad-key', value: 'x' })).toMatchObject({
      status: 400,
      body: { message: { key: ["can contain only letters, digits and '_'."] } },
    })
    expect(await create({ key: 'SHORT', value: 'short', masked: true })).toMatchObject({
      status: 400,
      body: { message: { value: ['is invalid'] } },
    })
    expect(await create({ key: 'LONG', value: 'x'.repeat(10_001) })).toMatchObject({
      status: 400,
      body: { message: { value: ['The value of the provided variable exceeds the 10000 character limit'] } },
    })
    expect(await create({ key: 'D', value: 'v', description: 'd'.repeat(256) })).toMatchObject({
      status: 400,
      body: { message: { description: ['is too long (maximum is 255 characters)'] } },
    })
    expect((await create({ key: 'EDGE', value: 'é'.repeat(10_000) })).status).toBe(201)
    expect(await create({ key: ' EDGE ', value: 'again' })).toMatchObject({
      status: 400,
      body: { message: { key: ['(EDGE) has already been taken'] } },
    })
    expect(
      await t.http('PUT', `${URL}/EDGE`, { token: ROOT, json: { value: 'y'.repeat(10_001) } }),
    ).toMatchObject({
      status: 400,
      body: { message: { value: ['The value of the provided variable exceeds the 10000 character limit'] } },
    })
    expect((await t.http('GET', URL, { token: ROOT })).headers['x-total']).toBe('1')
  })

  it('refuses a 26th variable (the default plan limit) and pages the 25 there are', async () => {
    for (let i = 1; i <= 25; i++) expect((await create({ key: `V${i}`, value: 'v' })).status).toBe(201)
    expect(await create({ key: 'V26', value: 'v', masked: true })).toMatchObject({
      status: 400,
      body: {
        message: {
          value: ['is invalid'],
          base: ['Maximum number of ci instance level variables (25) exceeded'],
        },
      },
    })
    const refused = (await create({ key: 'V26', value: 'v', masked: true })).body as { message: Json }
    expect(Object.keys(refused.message)).toEqual(['value', 'base'])
    // An edit is not a create: the limit leaves it alone.
    expect((await t.http('PUT', `${URL}/V25`, { token: ROOT, json: { value: 'w' } })).status).toBe(200)
    const page = await t.http('GET', URL, { token: ROOT, query: 'per_page=10&page=3' })
    expect(page.headers).toMatchObject({ 'x-total': '25', 'x-total-pages': '3', 'x-page': '3' })
    expect((page.body as Json[]).map((v) => v.key)).toEqual(['V21', 'V22', 'V23', 'V24', 'V25'])
  })
})

describe('instance variables in pipelines', () => {
  const CONFIG = `
show:
  script:
    - echo "inst=$INST grp=$GRP proj=$PROJ pipe=$PIPE secret=$SECRET prot=$PROT"
`
  const step = async () => {
    clock.advance(250)
    await t.http('GET', `${APP}/pipelines`, { token: MARK })
  }
  const jobOf = async (pid: number) =>
    ((await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[])[0]!
  const trigger = async (variables = '') => {
    const res = await t.http('POST', `${APP}/trigger/pipeline`, {
      form: `ref=ci&token=${TRIGGER}${variables}`,
    })
    expect(res.status).toBe(201)
    return (res.body as Json).id as number
  }
  const until = async (pid: number, status: string) => {
    for (let i = 0; i < 80 && (await jobOf(pid)).status !== status; i++) await step()
    expect((await jobOf(pid)).status).toBe(status)
  }
  const traceOf = async (pid: number) => {
    await until(pid, 'success')
    return (await t.http('GET', `${APP}/jobs/${(await jobOf(pid)).id as number}/trace`, { token: MARK })).text
  }
  const setProj = (value: string) =>
    t
      .http('PUT', `${APP}/variables/PROJ`, { token: MARK, json: { value } })
      .then((r) => expect(r.status).toBe(200))

  beforeEach(async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    for (const v of [
      { key: 'INST', value: 'instance' },
      { key: 'GRP', value: 'instance' },
      { key: 'PROJ', value: 'instance' },
      { key: 'PIPE', value: 'instance' },
      { key: 'SECRET', value: 'instance-secret-1', masked: true },
      { key: 'PROT', value: 'protected-one', protected: true },
    ])
      expect((await create(v)).status).toBe(201)
    for (const [path, key] of [
      ['/api/v4/groups/acme', 'GRP'],
      ['/api/v4/groups/acme', 'PROJ'],
      [APP, 'PROJ'],
    ] as const)
      expect(
        (await t.http('POST', `${path}/variables`, { token: MARK, json: { key, value: path } })).status,
      ).toBe(201)
  })

  it("gives jobs the instance variables under the groups', the project's and the pipeline's, masked, protected ones off unprotected refs", async () => {
    const trace = await traceOf(await trigger('&variables[PIPE]=pipeline'))
    expect(trace).toContain(
      `inst=instance grp=/api/v4/groups/acme proj=${APP} pipe=pipeline secret=[MASKED] prot=\n`,
    )
    expect(trace).not.toContain('instance-secret-1')
  })

  it('gives protected instance variables to a protected branch', async () => {
    const protect = await t.http('POST', `${APP}/protected_branches`, { token: ROOT, json: { name: 'ci' } })
    expect(protect.status).toBe(201)
    expect(await traceOf(await trigger())).toContain('prot=protected-one')
  })

  it('reads the variables when the job starts running: a change while it is pending reaches it, one while it runs does not', async () => {
    const pid = await trigger()
    await until(pid, 'pending')
    await setProj('while-pending')
    await until(pid, 'running')
    await setProj('while-running')
    const late = await t.http('PUT', `${URL}/INST`, { token: ROOT, json: { value: 'while-running' } })
    expect(late.status).toBe(200)
    const trace = await traceOf(pid)
    expect(trace).toContain('inst=instance grp=/api/v4/groups/acme proj=while-pending ')
    // Kept sealed: the job's state holds no value in the open.
    const states = inspectDb(t.server.store).prepare('SELECT runner_variables FROM ci_job_states').all()
    expect(JSON.stringify(states)).not.toContain('while-pending')
  })
})
