/*
 * Group CI/CD variables (`lib/api/ci/group_variables.rb`) against the real server: the project
 * variables' routes under `/groups/:id`, for the group's Owners, and what a project's jobs see of the
 * variables of its group and the group's ancestors.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const OLGA = 'glpat-olga-token' // owner of acme
const MARK = 'glpat-mark-token' // maintainer of acme
const OTTO = 'glpat-otto-token' // not a member
const ROOT = 'glpat-root-token'
const TRIGGER = `glptt-${'ab12'.repeat(10)}`
const ACME = '/api/v4/groups/acme'
const TEAM = '/api/v4/groups/acme%2Fteam'
const APP = '/api/v4/projects/acme%2Fteam%2Fapp'
type Json = Record<string, unknown>

const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: olga, name: Olga Owner, token: ${OLGA} }
  - { username: mark, name: Mark Maintainer, token: ${MARK} }
  - { username: otto, name: Otto Outsider, token: ${OTTO} }
groups:
  - { path: acme, visibility: private, members: { olga: owner, mark: maintainer } }
  - { path: acme/team, visibility: private }
projects:
  - path: acme/team/app
    ci_jobs: [build]
    ci_job_duration: 2s
    triggers: [ { description: deploy, owner: mark, token: ${TRIGGER} } ]
`

let clock: ReturnType<typeof manualClock>
const t = serverEach(seed, () => ({ clock: (clock = manualClock()) }))
const create = (group: string, json: Json, token = OLGA) =>
  t.http('POST', `${group}/variables`, { token, json })

describe('group variables API', () => {
  it('creates, lists, reads, edits and deletes a group variable with GitLab fields, sealed at rest', async () => {
    const made = await create(ACME, { key: 'REGISTRY', value: 'registry-secret', masked: true })
    expect(made.status).toBe(201)
    expect(made.body).toEqual({
      variable_type: 'env_var',
      key: 'REGISTRY',
      value: 'registry-secret',
      hidden: false,
      protected: false,
      masked: true,
      raw: false,
      environment_scope: '*',
      description: null,
    })
    const list = await t.http('GET', `${ACME}/variables`, { token: OLGA })
    expect(list.headers['x-total']).toBe('1')
    expect((list.body as Json[]).map((v) => v.key)).toEqual(['REGISTRY'])
    // A subgroup has its own variables; the project's table holds none of the group's.
    expect((await t.http('GET', `${TEAM}/variables`, { token: OLGA })).body).toEqual([])
    expect((await t.http('GET', `${APP}/variables`, { token: OLGA })).body).toEqual([])
    const edited = await t.http('PUT', `${ACME}/variables/REGISTRY`, {
      token: OLGA,
      form: 'value=other-secret&protected=true',
    })
    expect(edited.body).toMatchObject({ value: 'other-secret', protected: true, masked: true })
    const rows = inspectDb(t.server.store).prepare('SELECT * FROM ci_group_variables').all()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain('other-secret')
    expect((await t.http('DELETE', `${ACME}/variables/REGISTRY`, { token: OLGA })).status).toBe(204)
    expect(await t.http('GET', `${ACME}/variables/REGISTRY`, { token: OLGA })).toMatchObject({
      status: 404,
      body: { message: '404 Variable Not Found' },
    })
  })

  it("answers the project variables' 400 and 409 bodies and writes nothing", async () => {
    expect(await create(ACME, { key: 'bad-key', value: 'x' })).toMatchObject({
      status: 400,
      body: { message: { key: ["can contain only letters, digits and '_'."] } },
    })
    expect((await create(ACME, { key: 'URL', value: 'p', environment_scope: 'production' })).status).toBe(201)
    expect((await create(ACME, { key: 'URL', value: 's', environment_scope: 'staging' })).status).toBe(201)
    expect(await create(ACME, { key: 'URL', value: 'again', environment_scope: 'staging' })).toMatchObject({
      status: 400,
      body: { message: { key: ['(URL) has already been taken'] } },
    })
    expect(await t.http('GET', `${ACME}/variables/URL`, { token: OLGA })).toMatchObject({
      status: 409,
      body: {
        message:
          "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
      },
    })
    const one = await t.http('GET', `${ACME}/variables/URL`, {
      token: OLGA,
      query: 'filter[environment_scope]=staging',
    })
    expect(one.body).toMatchObject({ value: 's' })
    expect((await t.http('GET', `${ACME}/variables`, { token: OLGA })).headers['x-total']).toBe('2')
  })

  it("refuses a variable past a self-managed GitLab's default plan limit, 30000 per group, and only in that group", async () => {
    const acme = (await t.http('GET', ACME, { token: OLGA })).body as Json
    inspectDb(t.server.store)
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
         INSERT INTO ci_group_variables (group_id, key, value_encrypted) SELECT ?, 'K' || i, 'x' FROM n`,
      )
      .run(acme.id as number)
    expect(await create(ACME, { key: 'ONE_MORE', value: 'v' })).toMatchObject({
      status: 400,
      body: { message: { base: ['Maximum number of group ci variables (30000) exceeded'] } },
    })
    expect((await create(TEAM, { key: 'ONE_MORE', value: 'v' })).status).toBe(201)
  })

  it('401 to anonymous callers, 404 to outsiders of a private group, 403 to Maintainers; Owners and admins pass', async () => {
    await create(ACME, { key: 'K', value: 'v' })
    expect((await t.http('GET', `${ACME}/variables`)).status).toBe(401)
    expect(await t.http('GET', `${ACME}/variables`, { token: OTTO })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    })
    expect((await t.http('GET', `${ACME}/variables/K`, { token: MARK })).status).toBe(403)
    expect((await create(ACME, { key: 'M', value: 'v' }, MARK)).status).toBe(403)
    expect((await t.http('DELETE', `${ACME}/variables/K`, { token: MARK })).status).toBe(403)
    // Owners of a group own its subgroups too.
    expect((await create(TEAM, { key: 'SUB', value: 'v' })).status).toBe(201)
    expect((await t.http('GET', `${ACME}/variables/K`, { token: ROOT })).status).toBe(200)
    expect((await t.http('GET', `/api/v4/groups/nope/variables`, { token: ROOT })).status).toBe(404)
  })
})

describe('group variables in pipelines', () => {
  const CONFIG = `
show:
  script:
    - echo "top=$TOP near=$NEAR own=$OWN secret=$SECRET prot=$PROT"
`
  const traceOf = async (pid: number) => {
    const jobs = (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[]
    return (await t.http('GET', `${APP}/jobs/${jobs[0]!.id as number}/trace`, { token: MARK })).text
  }
  const run = async () => {
    const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${TRIGGER}` })
    expect(res.status).toBe(201)
    await runOut(t, clock, { project: 'acme/team/app', steps: 20 })
    return traceOf((res.body as Json).id as number)
  }

  beforeEach(async () => {
    await commitFiles(t, 'acme/team/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    for (const [group, v] of [
      [ACME, { key: 'TOP', value: 'acme' }],
      [ACME, { key: 'NEAR', value: 'acme' }],
      [ACME, { key: 'OWN', value: 'acme' }],
      [ACME, { key: 'SECRET', value: 'group-secret-1', masked: true }],
      [ACME, { key: 'PROT', value: 'protected-one', protected: true }],
      [TEAM, { key: 'NEAR', value: 'team' }],
      [TEAM, { key: 'OWN', value: 'team' }],
    ] as const)
      expect((await create(group, v)).status).toBe(201)
    const own = await t.http('POST', `${APP}/variables`, {
      token: MARK,
      json: { key: 'OWN', value: 'project' },
    })
    expect(own.status).toBe(201)
  })

  it("gives jobs their groups' variables under the project's, the closer group winning, masked, protected ones off unprotected refs", async () => {
    const trace = await run()
    expect(trace).toContain('top=acme near=team own=project secret=[MASKED] prot=\n')
    expect(trace).not.toContain('group-secret-1')
  })

  it('gives protected group variables to a protected branch', async () => {
    const protect = await t.http('POST', `${APP}/protected_branches`, { token: ROOT, json: { name: 'ci' } })
    expect(protect.status).toBe(201)
    expect(await run()).toContain('prot=protected-one')
  })
})
