import { commitFiles } from '../../support/ci-files.js'
import { defineJobs } from '../../support/job-definitions.js'
import { manualClock, pipelineSeed, runningJobToken } from '../../support/pipeline-seed.js'
import { serverEach, startServer } from '../../support/server.js'

/*
 * CI/CD job tokens route by route: every operation `/api/v4/openapi.json` says takes a `JOB-TOKEN`
 * (a route whose spec has `jobToken: true`, GitLab's `route_setting :authentication, job_token_allowed:
 * true`) is called with a job's token, so that a route added later is covered without editing this
 * list. A running job's token acts as the job's user (mark, a Maintainer) in the job's own project, and in
 * another only where that one's job token scope lets the job's project in (app/models/ci/job_token/scope.rb:
 * its allowlist holds the project or a group above it, or its limit is off); a finished job's token is `401 Unauthorized`
 * (`Ci::AuthJobFinder`), and routes without the setting ignore the token (`lib/gitlab/auth/auth_finders.rb`
 * reads it only where the route allows it), so those that need a user answer 401.
 */

const ROOT = 'glpat-root-token'
const OWN = 'acme%2Fapp'
const OTHER = 'acme%2Fother' // mark, the job's user, maintains it too
type Json = Record<string, unknown>
interface Param {
  name: string
  in: string
  required: boolean
}
interface Operation {
  security?: Record<string, unknown>[]
  parameters: Param[]
  requestBody?: { content: { 'application/json': { schema: { required?: string[] } } } }
}
interface Call {
  method: string
  /** The document's path, `/projects/{id}/...`. */
  path: string
  op: Operation
}

let clock: ReturnType<typeof manualClock>
const t = serverEach(pipelineSeed, () => ({ clock: (clock = manualClock()) }))

/** The document's operations, those that take a job token (`jobToken`) or not. */
async function operations(jobToken: boolean): Promise<Call[]> {
  const doc = (await t.http('GET', '/api/v4/openapi.json')).body as {
    paths: Record<string, Record<string, Operation>>
  }
  const calls: Call[] = []
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      if (op.security && op.security.some((s) => 'jobToken' in s) === jobToken)
        calls.push({ method: method.toUpperCase(), path, op })
  return calls
}

/** The running job's token of a new pipeline of acme/app (its first job, after a second). */
const runningToken = () => runningJobToken(t, clock)

/**
 * A finished pipeline with an artifact (its `build` job's token, kept from while it ran, is the finished
 * job's), and a second pipeline whose first job runs: the clock stays still from then on.
 */
async function jobs() {
  await commitFiles(t, 'acme/app', 'main', { 'notes.txt': 'notes\n' }, ROOT)
  const finished = await runningToken()
  defineJobs(t, finished.pipelineId, {
    build: { script: ['echo art > a.txt'], artifacts: { paths: ['a.txt'], when: 'on_success' } },
  })
  for (let i = 0; i < 10; i++) {
    clock.advance(1000)
    await t.http('GET', `/api/v4/projects/${OWN}/jobs`, { token: ROOT })
  }
  const done = (
    await t.http('GET', `/api/v4/projects/${OWN}/pipelines/${finished.pipelineId}`, { token: ROOT })
  ).body as Json
  expect(done.status).toBe('success')
  const builds = (
    await t.http('GET', `/api/v4/projects/${OWN}/pipelines/${finished.pipelineId}/jobs`, { token: ROOT })
  ).body as Json[]
  const build = builds.find((j) => j.name === 'build')!
  const running = await runningToken()
  return {
    finished: finished.token,
    running: running.token,
    pipelineId: finished.pipelineId,
    build,
    sha: done.sha,
  }
}

let made = 0
/** A new environment of acme/app with one deployment, so that no call finds what another removed. */
async function environment(sha: unknown) {
  const name = `env-${++made}`
  const env = await t.http('POST', `/api/v4/projects/${OWN}/environments`, { token: ROOT, json: { name } })
  const deployment = await t.http('POST', `/api/v4/projects/${OWN}/deployments`, {
    token: ROOT,
    json: { environment: name, sha, ref: 'main', tag: false, status: 'success' },
  })
  expect([env.status, deployment.status]).toEqual([201, 201])
  return { name, environment_id: (env.body as Json).id, deployment_id: (deployment.body as Json).id }
}

/**
 * The request a caller would send: the path's placeholders, required query and body parameters filled in
 * from `values`, else with `fallback` when one is given.
 */
function request(call: Call, values: Record<string, unknown>, fallback?: string) {
  const fill = (name: string) => {
    if (name in values) return String(values[name])
    if (fallback === undefined) throw new Error(`no value for ${name} (${call.method} ${call.path})`)
    return fallback
  }
  const url = `/api/v4${call.path.replace(/\{(\w+)\}/g, (_, name: string) => fill(name))}`
  const query = call.op.parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${encodeURIComponent(fill(p.name))}`)
    .join('&')
  const required = call.op.requestBody?.content['application/json'].schema.required ?? []
  const json = call.op.requestBody
    ? Object.fromEntries(required.map((name) => [name, values[name]]))
    : undefined
  return { url, query, json }
}

const send = (call: Call, values: Record<string, unknown>, token: string, fallback?: string) => {
  const { url, query, json } = request(call, values, fallback)
  return t.http(call.method, url, {
    headers: { 'job-token': token },
    ...(query ? { query } : {}),
    ...(json ? { json } : {}),
  })
}

async function world() {
  const w = await jobs()
  const base = {
    pipeline_id: w.pipelineId,
    job_id: w.build.id,
    artifact_path: 'a.txt',
    ref_name: 'main',
    job: 'build',
    file_path: 'notes.txt',
    sha: 'main',
    // Bodies: a new environment's name, a stale date, a deployment's fields.
    before: '2020-01-01T00:00:00Z',
    ref: 'main',
    tag: false,
    status: 'success',
  }
  /** Values for a call in `project`, with a fresh environment and deployment of acme/app. */
  const values = async (project: string) => {
    const env = await environment(w.sha)
    return { ...base, ...env, id: project, name: `made-${made}`, environment: env.name, sha: w.sha }
  }
  return { ...w, values }
}

/** GETs first: a call that changes something comes after every read. */
const readsFirst = (calls: Call[]) =>
  [...calls].sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'))

describe('routes that take a CI/CD job token (jobToken: true)', () => {
  it("the document lists them, GitLab's job token routes among them", async () => {
    const listed = (await operations(true)).map((c) => `${c.method} ${c.path}`)
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /job',
        'GET /projects/{id}/pipelines/{pipeline_id}/jobs',
        'GET /projects/{id}/repository/branches',
        'GET /projects/{id}/repository/tags',
        'GET /projects/{id}/repository/commits/{sha}',
        'GET /projects/{id}/repository/files/{file_path}/raw',
      ]),
    )
  })

  it("read the job's branches, tags and commits, which GitLab's job token routes include", async () => {
    const w = await world()
    const read = async (path: string) => {
      const res = await t.http('GET', `/api/v4/projects/${OWN}${path}`, {
        headers: { 'job-token': w.running },
      })
      return [path, res.status, res.body] as const
    }
    const branches = await read('/repository/branches')
    expect(branches.slice(0, 2)).toEqual(['/repository/branches', 200])
    expect((branches[2] as Json[]).map((b) => b.name)).toEqual(expect.arrayContaining(['main', 'develop']))
    expect((await read('/repository/tags')).slice(0, 2)).toEqual(['/repository/tags', 200])
    expect(await read('/repository/commits/main')).toEqual([
      '/repository/commits/main',
      200,
      expect.objectContaining({ id: w.sha }),
    ])
  })

  it("answer a running job's token in the job's own project as they answer its user", async () => {
    const w = await world()
    const answers: string[] = []
    for (const call of readsFirst(await operations(true))) {
      const res = await send(call, await w.values(OWN), w.running)
      answers.push(`${call.method} ${call.path} ${res.status} ${res.status === 404 ? res.text : ''}`)
    }
    // Not refused as a token (401), not hidden (404), nothing broken (5xx): the user's own answer.
    expect(answers.filter((a) => / (401|404|5\d\d) /.test(a))).toEqual([])
    expect(answers).toContain('GET /job 200 ')
  })

  /** Each project route in acme/other with the job token, next to the answer of the job's user's own token. */
  async function inOther(w: Awaited<ReturnType<typeof world>>) {
    const answers: { route: string; job: [number, string]; user: [number, string] }[] = []
    for (const call of readsFirst(await operations(true)).filter((c) =>
      c.path.startsWith('/projects/{id}'),
    )) {
      const values = await w.values(OTHER)
      const job = await send(call, values, w.running)
      // The same call as mark's own: a GET reads the same; a write, compared by status alone, gets
      // values of its own (a second environment of one name would be refused).
      const { url, query, json } = request(call, call.method === 'GET' ? values : await w.values(OTHER))
      const user = await t.http(call.method, url, {
        token: 'glpat-mark-token',
        ...(query ? { query } : {}),
        ...(json ? { json } : {}),
      })
      const text = (r: { text: string }) => (call.method === 'GET' ? r.text : '')
      answers.push({
        route: `${call.method} ${call.path}`,
        job: [job.status, text(job)],
        user: [user.status, text(user)],
      })
    }
    return answers
  }

  /** What the job token gets in acme/other: its user's own answers, never a 401, a hidden project or a 5xx. */
  async function expectUsersAnswers(w: Awaited<ReturnType<typeof world>>) {
    const answers = await inOther(w)
    expect(answers.length).toBeGreaterThan(5)
    for (const a of answers) {
      expect([a.route, a.job]).toEqual([a.route, a.user])
      expect([a.route, a.job[0] === 401 || a.job[0] >= 500, a.job[1]]).toEqual([
        a.route,
        false,
        expect.not.stringContaining('404 Project Not Found'),
      ])
    }
  }

  const scope = (method: string, path: string, json?: Json) =>
    t.http(method, `/api/v4/projects/${OTHER}/job_token_scope${path}`, {
      token: ROOT,
      ...(json ? { json } : {}),
    })
  const idOf = async (path: string) =>
    ((await t.http('GET', `/api/v4/${path}`, { token: ROOT })).body as Json).id as number

  it("reach a project whose allowlist holds the job's project: its user's own answers", async () => {
    const w = await world()
    const other = await idOf(`projects/${OTHER}`)
    const res = await t.http('POST', `/api/v4/projects/${other}/job_token_scope/allowlist`, {
      token: ROOT,
      json: { target_project_id: await idOf(`projects/${OWN}`) },
    })
    expect(res.status).toBe(201)
    await expectUsersAnswers(w)
  })

  it("reach a project whose groups allowlist holds a group above the job's project", async () => {
    const w = await world()
    const other = await idOf(`projects/${OTHER}`)
    const res = await t.http('POST', `/api/v4/projects/${other}/job_token_scope/groups_allowlist`, {
      token: ROOT,
      json: { target_group_id: await idOf('groups/acme') },
    })
    expect(res.status).toBe(201)
    await expectUsersAnswers(w)
  })

  it('reach a project whose inbound limit is off', async () => {
    const w = await world()
    expect((await scope('PATCH', '', { enabled: false })).status).toBe(204)
    await expectUsersAnswers(w)
  })

  it('trigger a multi-project pipeline only where the scope lets the job in (token=<job token>)', async () => {
    const w = await world()
    const trigger = () =>
      t.http('POST', `/api/v4/projects/${OTHER}/trigger/pipeline`, { form: `ref=main&token=${w.running}` })
    const hidden = await trigger()
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Not Found' }])
    const other = await idOf(`projects/${OTHER}`)
    const added = await t.http('POST', `/api/v4/projects/${other}/job_token_scope/allowlist`, {
      token: ROOT,
      json: { target_project_id: await idOf(`projects/${OWN}`) },
    })
    expect(added.status).toBe(201)
    const made = await trigger()
    expect([made.status, made.body]).toEqual([
      201,
      expect.objectContaining({ source: 'pipeline', user: expect.objectContaining({ username: 'mark' }) }),
    ])
  })

  it("hide every other project whose scope leaves it out, one the job's user reads too: 404 Project Not Found", async () => {
    const w = await world()
    const projectRoutes = (await operations(true)).filter((c) => c.path.startsWith('/projects/{id}'))
    for (const call of projectRoutes) {
      const res = await send(call, await w.values(OTHER), w.running)
      expect([`${call.method} ${call.path}`, res.status, res.body]).toEqual([
        `${call.method} ${call.path}`,
        404,
        { message: '404 Project Not Found' },
      ])
    }
    // The same user's own token reads it: only the job token is held to its project.
    const pipelines = await t.http('GET', `/api/v4/projects/${OTHER}/pipelines`, {
      token: 'glpat-mark-token',
    })
    expect(pipelines.status).toBe(200)
  })

  it("refuse a finished job's token: 401 Unauthorized, and change nothing", async () => {
    const w = await world()
    const environments = async () =>
      ((await t.http('GET', `/api/v4/projects/${OWN}/environments`, { token: ROOT })).body as Json[]).length
    for (const call of await operations(true)) {
      const values = await w.values(OWN)
      const before = await environments()
      const res = await send(call, values, w.finished)
      expect([`${call.method} ${call.path}`, res.status, res.body]).toEqual([
        `${call.method} ${call.path}`,
        401,
        { message: '401 Unauthorized' },
      ])
      expect(await environments()).toBe(before)
    }
  })
})

describe('routes without jobToken', () => {
  it('ignore a job token, as GitLab does: those that need a user answer 401', async () => {
    const w = await world()
    // Every GET of a project that needs a user and takes no job token.
    const sample = (await operations(false)).filter(
      (c) =>
        c.method === 'GET' &&
        c.path.startsWith('/projects/{id}/') &&
        !c.op.security!.some((s) => Object.keys(s).length === 0),
    )
    expect(sample.length).toBeGreaterThan(5)
    const values = await w.values(OWN)
    for (const call of sample) {
      // Ids of nothing where no value is known: the 401 comes before any lookup.
      const res = await send(call, values, w.running, '1')
      expect([`${call.method} ${call.path}`, res.status, res.body]).toEqual([
        `${call.method} ${call.path}`,
        401,
        { message: '401 Unauthorized' },
      ])
    }
  })
})

describe('the job token scope by release (--gitlab-version)', () => {
  /**
   * What a running job of acme/app gets from acme/other's branches at `version`, once `seed` is added to the
   * pipeline seed, and the trigger's status for the same token (`token=<job token>`).
   */
  async function reach(version: string, seed?: Json) {
    const clock = manualClock()
    const s = await startServer(pipelineSeed, { gitlabVersion: version, clock })
    try {
      if (seed)
        expect((await s.http('POST', '/-/emulator/seed', { token: ROOT, json: seed })).status).toBe(201)
      const { token } = await runningJobToken(s, clock)
      const branches = await s.http('GET', `/api/v4/projects/${OTHER}/repository/branches`, {
        headers: { 'job-token': token },
      })
      const trigger = await s.http('POST', `/api/v4/projects/${OTHER}/trigger/pipeline`, {
        form: `ref=main&token=${token}`,
      })
      return [branches.status === 200 ? 200 : [branches.status, branches.body], trigger.status]
    } finally {
      await s.close()
    }
  }
  const hidden = [[404, { message: '404 Project Not Found' }], 404]
  const allowlist = (entry: string) => ({ projects: [{ path: 'acme/other', job_token_allowlist: [entry] }] })

  it("reaches any project its user reads before 15.9, then only those whose scope lets the job's project in", async () => {
    expect(await reach('15.8.0')).toEqual([200, 201])
    expect(await reach('15.9.0')).toEqual(hidden)
    expect(await reach('15.9.0', allowlist('acme/app'))).toEqual([200, 201])
  })

  it('is let in by a group of the allowlist from 17.0 only, when groups joined it', async () => {
    expect(await reach('16.11.0', allowlist('acme'))).toEqual(hidden)
    expect(await reach('17.0.0', allowlist('acme'))).toEqual([200, 201])
  })
})
