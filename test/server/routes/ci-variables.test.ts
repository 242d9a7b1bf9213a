/*
 * Project CI/CD variables (`lib/api/ci/variables.rb`) against the real server: CRUD, GitLab's
 * validation bodies, environment scopes and their 409, the access matrix, and what jobs see of them.
 */
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { serverEach } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const MARK = 'glpat-mark-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const OTTO = 'glpat-otto-token' // not a member
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))
const create = (json: Json, token = MARK) => t.http('POST', `${APP}/variables`, { token, json })

describe('project variables API', () => {
  it('creates, lists, reads, edits and deletes a variable with GitLab fields', async () => {
    const made = await create({
      key: 'DEPLOY_TOKEN',
      value: 'secret-value-1',
      protected: true,
      description: 'd',
    })
    expect(made.status).toBe(201)
    expect(made.body).toEqual({
      variable_type: 'env_var',
      key: 'DEPLOY_TOKEN',
      value: 'secret-value-1',
      hidden: false,
      protected: true,
      masked: false,
      raw: false,
      environment_scope: '*',
      description: 'd',
    })
    const list = await t.http('GET', `${APP}/variables`, { token: MARK })
    expect(list.status).toBe(200)
    expect(list.headers['x-total']).toBe('1')
    expect((list.body as Json[]).map((v) => v.key)).toEqual(['DEPLOY_TOKEN'])
    const edited = await t.http('PUT', `${APP}/variables/DEPLOY_TOKEN`, {
      token: MARK,
      form: 'value=other&variable_type=file&protected=false',
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({
      value: 'other',
      variable_type: 'file',
      protected: false,
      description: 'd',
    })
    expect((await t.http('GET', `${APP}/variables/DEPLOY_TOKEN`, { token: MARK })).body).toMatchObject({
      value: 'other',
    })
    expect((await t.http('DELETE', `${APP}/variables/DEPLOY_TOKEN`, { token: MARK })).status).toBe(204)
    expect(await t.http('GET', `${APP}/variables/DEPLOY_TOKEN`, { token: MARK })).toMatchObject({
      status: 404,
      body: { message: '404 Variable Not Found' },
    })
  })

  it('keeps values sealed at rest', async () => {
    await create({ key: 'AT_REST', value: 'plain-secret-text' })
    const rows = inspectDb(t.server.store).prepare('SELECT * FROM ci_variables').all()
    expect(JSON.stringify(rows)).not.toContain('plain-secret-text')
  })

  it("answers GitLab's 400 bodies for bad keys, masked values, scopes and duplicates, and writes nothing", async () => {
    expect(await create({ key: 'bad-key', value: 'x' })).toMatchObject({
      status: 400,
      body: { message: { key: ["can contain only letters, digits and '_'."] } },
    })
    expect(await create({ key: 'SHORT', value: 'short', masked: true })).toMatchObject({
      status: 400,
      body: { message: { value: ['is invalid'] } },
    })
    expect(await create({ key: 'SPACES', value: 'has spaces in it', masked: true })).toMatchObject({
      status: 400,
      body: { message: { value: ['is invalid'] } },
    })
    // Raw masked values may hold any character but whitespace.
    expect((await create({ key: 'RAWMASK', value: 'a$b!c#d%e', masked: true, raw: true })).status).toBe(201)
    expect(await create({ key: 'SCOPE', value: 'x', environment_scope: 'a!b' })).toMatchObject({
      status: 400,
      body: {
        message: {
          environment_scope: [
            "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
          ],
        },
      },
    })
    expect((await create({ key: 'DUP', value: 'x' })).status).toBe(201)
    expect(await create({ key: ' DUP ', value: 'y' })).toMatchObject({
      status: 400,
      body: { message: { key: ['(DUP) has already been taken'] } },
    })
    expect(await create({ key: 'DUP', value: 'y', variable_type: 'other' })).toMatchObject({
      status: 400,
      body: { error: 'variable_type does not have a valid value' },
    })
    expect(await t.http('POST', `${APP}/variables`, { token: MARK, json: { key: 'NOVALUE' } })).toMatchObject(
      {
        status: 400,
        body: { error: 'value is missing' },
      },
    )
    const keys = ((await t.http('GET', `${APP}/variables`, { token: MARK })).body as Json[]).map((v) => v.key)
    expect(keys).toEqual(['RAWMASK', 'DUP'])
  })

  it('needs filter[environment_scope] when scopes share a key: 409 otherwise', async () => {
    expect((await create({ key: 'URL', value: 'prod', environment_scope: 'production' })).status).toBe(201)
    expect((await create({ key: 'URL', value: 'stage', environment_scope: 'staging' })).status).toBe(201)
    const conflict = {
      status: 409,
      body: {
        message:
          "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
      },
    }
    expect(await t.http('GET', `${APP}/variables/URL`, { token: MARK })).toMatchObject(conflict)
    expect(await t.http('PUT', `${APP}/variables/URL`, { token: MARK, form: 'value=z' })).toMatchObject(
      conflict,
    )
    expect(await t.http('DELETE', `${APP}/variables/URL`, { token: MARK })).toMatchObject(conflict)
    const one = await t.http('GET', `${APP}/variables/URL`, {
      token: MARK,
      query: 'filter[environment_scope]=staging',
    })
    expect(one.body).toMatchObject({ value: 'stage', environment_scope: 'staging' })
    const put = await t.http('PUT', `${APP}/variables/URL`, {
      token: MARK,
      form: 'value=prod2&filter[environment_scope]=production',
    })
    expect(put.body).toMatchObject({ value: 'prod2', environment_scope: 'production' })
    const del = await t.http('DELETE', `${APP}/variables/URL`, {
      token: MARK,
      query: 'filter[environment_scope]=staging',
    })
    expect(del.status).toBe(204)
    expect((await t.http('GET', `${APP}/variables/URL`, { token: MARK })).body).toMatchObject({
      value: 'prod2',
    })
  })

  it('hides the value of a masked_and_hidden variable and keeps it masked', async () => {
    const made = await create({ key: 'HIDDEN', value: 'hidden-value-1', masked_and_hidden: true })
    expect(made.body).toMatchObject({ value: null, hidden: true, masked: true })
    expect((await t.http('GET', `${APP}/variables/HIDDEN`, { token: MARK })).body).toMatchObject({
      value: null,
    })
    expect(
      await t.http('PUT', `${APP}/variables/HIDDEN`, { token: MARK, form: 'masked=false' }),
    ).toMatchObject({
      status: 400,
      body: {
        message: { base: ['Updating masked attribute is not allowed on updates for hidden variables.'] },
      },
    })
  })

  it("refuses a variable past a self-managed GitLab's default plan limit, 8000 per project; an edit still passes", async () => {
    expect((await create({ key: 'FIRST', value: 'v' })).status).toBe(201)
    const project = (await t.http('GET', APP, { token: MARK })).body as Json
    inspectDb(t.server.store)
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 8000)
         INSERT INTO ci_variables (project_id, key, value_encrypted)
         SELECT ?, 'K' || i, (SELECT value_encrypted FROM ci_variables WHERE key = 'FIRST') FROM n`,
      )
      .run(project.id as number)
    expect(await create({ key: 'bad-key', value: 'v' })).toMatchObject({
      status: 400,
      body: {
        message: {
          key: ["can contain only letters, digits and '_'."],
          base: ['Maximum number of project ci variables (8000) exceeded'],
        },
      },
    })
    const edit = await t.http('PUT', `${APP}/variables/FIRST`, { token: MARK, json: { value: 'w' } })
    expect(edit.status).toBe(200)
    expect((await t.http('GET', `${APP}/variables`, { token: MARK })).headers['x-total']).toBe('8000')
  })

  it('401 to anonymous callers, 404 to outsiders of a private project, 403 to developers', async () => {
    await create({ key: 'K', value: 'v' })
    expect((await t.http('GET', `${APP}/variables`)).status).toBe(401)
    expect((await t.http('GET', `${APP}/variables`, { token: OTTO })).status).toBe(404)
    expect((await t.http('GET', `${APP}/variables/K`, { token: DANA })).status).toBe(403)
    expect((await create({ key: 'D', value: 'v' }, DANA)).status).toBe(403)
    expect((await t.http('DELETE', `${APP}/variables/K`, { token: DANA })).status).toBe(403)
    expect((await t.http('GET', `${APP}/variables/K`, { token: ROOT })).status).toBe(200)
  })
})

describe('project variables in pipelines', () => {
  const CONFIG = `
variables:
  FROM_YAML: yaml
  OVERRIDDEN: yaml
show:
  rules:
    - if: $GATE == "open"
  script:
    - echo "yaml=$FROM_YAML over=$OVERRIDDEN secret=$SECRET prot=$PROT ref=$REF_TO raw=$RAW_ONE file=$A_FILE"
    - cat "$A_FILE"
`
  const trigger = (variables = '') =>
    t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}${variables}` })
  const traceOf = async (pid: number) => {
    const jobs = (await t.http('GET', `${APP}/pipelines/${pid}/jobs`, { token: MARK })).body as Json[]
    return (await t.http('GET', `${APP}/jobs/${jobs[0]!.id as number}/trace`, { token: MARK })).text
  }

  beforeEach(async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
    for (const v of [
      { key: 'GATE', value: 'open' },
      { key: 'OVERRIDDEN', value: 'project' },
      { key: 'SECRET', value: 'very-secret-1', masked: true },
      { key: 'PROT', value: 'protected-one', protected: true },
      { key: 'REF_TO', value: 'see-$GATE' },
      { key: 'RAW_ONE', value: 'keep-$GATE', raw: true },
      { key: 'A_FILE', value: 'content of the file', variable_type: 'file' },
    ])
      expect((await create(v)).status).toBe(201)
  })

  it("joins the job with GitLab precedence, masks, expands all but raw, gives a file variable's path, and keeps protected ones off unprotected refs", async () => {
    const res = await trigger()
    expect(res.status).toBe(201)
    await runOut(t, clock, { steps: 20 })
    const trace = await traceOf((res.body as Json).id as number)
    expect(trace).toContain(
      'yaml=yaml over=project secret=[MASKED] prot= ref=see-open raw=keep-$GATE file=/builds/acme/app.tmp/A_FILE',
    )
    expect(trace).toContain('\ncontent of the file\n')
    expect(trace).not.toContain('very-secret-1')
  })

  it('gives protected variables to a protected branch; trigger variables win over project ones', async () => {
    const protect = await t.http('POST', `${APP}/protected_branches`, { token: ROOT, json: { name: 'ci' } })
    expect(protect.status).toBe(201)
    const res = await trigger('&variables[OVERRIDDEN]=trigger')
    await runOut(t, clock, { steps: 20 })
    expect(await traceOf((res.body as Json).id as number)).toContain(
      'over=trigger secret=[MASKED] prot=protected-one',
    )
  })

  it('feeds rules:if: without the project variable the job is left out', async () => {
    expect((await t.http('DELETE', `${APP}/variables/GATE`, { token: MARK })).status).toBe(204)
    const res = await trigger()
    expect(res.status).toBe(400)
  })

  it('expands in include locations', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': 'include: "ci/$PART.yml"\n',
      'ci/real.yml': CONFIG,
    })
    expect((await create({ key: 'PART', value: 'real' })).status).toBe(201)
    const res = await trigger()
    expect(res.status).toBe(201)
  })
})
