import { commitFiles } from '../../support/ci-files.js'
import { developersMerge, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Pipeline schedules (lib/api/ci/pipeline_schedules.rb) against the real server: GitLab's entities,
 * validations and policies, play, the variables sub-resource, and the due schedules the emulator's
 * clock runs (PipelineScheduleWorker, aligned to its `3-59/10 * * * *` cron).
 */

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token' // maintainer
const MAYA = 'glpat-maya-token' // maintainer
const DANA = 'glpat-dana-token' // developer
const GUS = 'glpat-gus-token' // guest
const OTTO = 'glpat-otto-token' // not a member
const P = '/api/v4/projects/acme%2Fapp'
const S = `${P}/pipeline_schedules`
const T0 = '2030-01-01T00:00:00.000Z'
type Json = Record<string, unknown>
/** `Entities::Ci::PipelineSchedule`'s keys up to `owner`, in its order. */
const SCHEDULE_KEYS = [
  'id',
  'description',
  'ref',
  'cron',
  'cron_timezone',
  'next_run_at',
  'active',
  'created_at',
  'updated_at',
  'owner',
]

let t: TestServer
beforeEach(async () => {
  t = await startServer(pipelineSeed, { frozenAt: new Date(T0) })
  // Developers may merge into main, so Dana may update it and keep schedules there (a ref the caller may
  // not write is refused: 'protected refs' below).
  await developersMerge(t, 'acme/app')
})
afterEach(() => t.close())

const create = async (json: Json, token = DANA) => {
  const res = await t.http('POST', S, { token, json })
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`)
  return res.body as Json
}
const nightly = { description: 'nightly', ref: 'main', cron: '0 1 * * *' }
const schedule = async (id: unknown, token = MARK) =>
  (await t.http('GET', `${S}/${id}`, { token })).body as Json
const clock = (json: Json) => t.http('POST', '/-/emulator/clock', { token: ROOT, json })
const scheduleCount = () =>
  inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM ci_pipeline_schedules').pluck().get() as number
/** Protects main again as GitLab's default does: only Maintainers push and merge. */
const protectMainFully = async () => {
  const path = `${P}/protected_branches`
  expect((await t.http('DELETE', `${path}/main`, { token: ROOT })).status).toBe(204)
  expect((await t.http('POST', path, { token: ROOT, json: { name: 'main' } })).status).toBe(201)
}
const scheduled = async (id: unknown) =>
  (await t.http('GET', `${S}/${id}/pipelines`, { token: MARK })).body as Json[]

describe('pipeline schedule CRUD', () => {
  it("creates one for the caller: the full ref, UTC, active, next_run_at on the worker's next run after the cron", async () => {
    const res = await t.http('POST', S, {
      token: DANA,
      form: 'description=nightly&ref=main&cron=0%201%20*%20*%20*',
    })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body as Json)).toEqual([...SCHEDULE_KEYS, 'last_pipeline'])
    expect(res.body).toMatchObject({
      description: 'nightly',
      ref: 'refs/heads/main',
      cron: '0 1 * * *',
      cron_timezone: 'UTC',
      // 01:00 is not a run of the worker (minutes 3, 13, 23...): its first run after it.
      next_run_at: '2030-01-01T01:03:00.000Z',
      active: true,
      created_at: T0,
      owner: { username: 'dana' },
      last_pipeline: null,
    })
    // GitLab keeps the cron's time only when it is the worker's very next run; any other is put off to the
    // worker's first run strictly after it, even one the worker runs at (02:13 gives 02:23).
    expect((await create({ ...nightly, cron: '3 0 * * *' })).next_run_at).toBe('2030-01-01T00:03:00.000Z')
    expect((await create({ ...nightly, cron: '13 2 * * *' })).next_run_at).toBe('2030-01-01T02:23:00.000Z')
    // A zone moves it: 09:00 in Tokyo is 00:00 UTC.
    const tokyo = await create({ ...nightly, cron: '0 9 * * *', cron_timezone: 'Asia/Tokyo', active: false })
    expect(tokyo).toMatchObject({ next_run_at: '2030-01-02T00:03:00.000Z', active: false })
    const list = await t.http('GET', `${S}?scope=inactive`, { token: MARK })
    expect([list.status, list.headers['x-total'], (list.body as Json[]).map((s) => s.id)]).toEqual([
      200,
      '1',
      [tokyo.id],
    ])
    expect(Object.keys((list.body as Json[])[0]!)).not.toContain('variables')
  })

  it('answers create, update and take_ownership without inputs or variables, as GitLab presents them without the caller', async () => {
    const made = await create({ ...nightly, inputs: [{ name: 'target', value: 'staging' }] })
    expect(made).not.toHaveProperty('inputs')
    expect(made).not.toHaveProperty('variables')
    const added = await t.http('POST', `${S}/${made.id}/variables`, {
      token: DANA,
      json: { key: 'NIGHTLY', value: 'yes' },
    })
    expect(added.status).toBe(201)
    const edited = await t.http('PUT', `${S}/${made.id}`, {
      token: DANA,
      json: { description: 'renamed', inputs: [{ name: 'target', value: 'production' }] },
    })
    expect(edited.status).toBe(200)
    expect(Object.keys(edited.body as Json)).toEqual([...SCHEDULE_KEYS, 'last_pipeline'])
    expect(edited.body).toMatchObject({ description: 'renamed', owner: { username: 'dana' } })
    const taken = await t.http('POST', `${S}/${made.id}/take_ownership`, { token: MAYA })
    const again = await t.http('POST', `${S}/${made.id}/take_ownership`, { token: MAYA })
    for (const [res, status] of [
      [taken, 201],
      [again, 200],
    ] as const) {
      expect(res.status).toBe(status)
      expect(Object.keys(res.body as Json)).toEqual([...SCHEDULE_KEYS, 'last_pipeline'])
    }
    // The list and GET present with the caller: a Maintainer sees both, `inputs` right after `owner`.
    const read = await schedule(made.id, MAYA)
    expect(Object.keys(read)).toEqual([...SCHEDULE_KEYS, 'inputs', 'last_pipeline', 'variables'])
    expect(read).toMatchObject({
      inputs: [{ name: 'target', value: 'production' }],
      variables: [{ key: 'NIGHTLY', value: 'yes' }],
    })
    const [listed] = (await t.http('GET', S, { token: MAYA })).body as Json[]
    expect(Object.keys(listed!)).toEqual([...SCHEDULE_KEYS, 'inputs'])
  })

  it("takes ActiveSupport's zone names, as GitLab's CronParser looks them up, and keeps the name given", async () => {
    // 09:00 Pacific Standard Time (UTC-8) is 17:00 UTC: the worker runs at 17:03.
    const pacific = await create({
      ...nightly,
      cron: '0 9 * * *',
      cron_timezone: 'Pacific Time (US & Canada)',
    })
    expect(pacific).toMatchObject({
      cron_timezone: 'Pacific Time (US & Canada)',
      next_run_at: '2030-01-01T17:03:00.000Z',
    })
    const edited = await t.http('PUT', `${S}/${pacific.id}`, {
      token: DANA,
      json: { cron_timezone: 'Tokyo' },
    })
    expect([edited.status, (edited.body as Json).cron_timezone, (edited.body as Json).next_run_at]).toEqual([
      200,
      'Tokyo',
      '2030-01-02T00:03:00.000Z',
    ])
  })

  it("refuses bad input with GitLab's 400 bodies and stores nothing", async () => {
    const cases: [Json, number, unknown][] = [
      [{ ...nightly, cron: 'every day' }, 400, { message: { cron: ['syntax is invalid'] } }],
      [{ ...nightly, cron: '* * * *' }, 400, { message: { cron: ['syntax is invalid'] } }],
      [{ ...nightly, cron: '61 * * * *' }, 400, { message: { cron: ['syntax is invalid'] } }],
      [
        { ...nightly, cron_timezone: 'Mars/Olympus' },
        400,
        { message: { cron_timezone: ['syntax is invalid'] } },
      ],
      [
        { ...nightly, cron: 'x', cron_timezone: '+01:00', description: ' ' },
        400,
        {
          message: {
            cron: ['syntax is invalid'],
            cron_timezone: ['syntax is invalid'],
            description: ["can't be blank"],
          },
        },
      ],
      // A ref that names no branch or tag cannot be expanded: `Ref is ambiguous` is all GitLab says, first.
      [{ ...nightly, ref: 'nope', cron: 'x' }, 400, { message: { ref: ['is ambiguous'] } }],
      [{ description: 'x', cron: '* * * * *' }, 400, { error: 'ref is missing, ref is empty' }],
      [{ ...nightly, ref: '' }, 400, { error: 'ref is empty' }],
      [{ ref: 'main', cron: '* * * * *' }, 400, { error: 'description is missing' }],
    ]
    for (const [json, status, body] of cases) {
      const res = await t.http('POST', S, { token: DANA, json })
      expect([json, res.status, res.body]).toEqual([json, status, body])
    }
    expect(scheduleCount()).toBe(0)
    const made = await create(nightly)
    const bad = await t.http('PUT', `${S}/${made.id}`, { token: DANA, json: { cron: 'nope' } })
    expect([bad.status, bad.body]).toEqual([400, { message: { cron: ['syntax is invalid'] } }])
    expect((await schedule(made.id)).cron).toBe('0 1 * * *')
  })

  it('follows the policies: read Reporter, create Developer, edit the owner, take over and delete a Maintainer', async () => {
    const made = await create(nightly)
    expect((await t.http('GET', S)).status).toBe(401)
    expect((await t.http('GET', S, { token: OTTO })).body).toEqual({ message: '404 Project Not Found' })
    expect((await t.http('GET', S, { token: GUS })).status).toBe(403)
    const hidden = await t.http('GET', `${S}/${made.id}`, { token: GUS })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Pipeline Schedule Not Found' }])
    expect((await t.http('POST', S, { token: GUS, json: nightly })).status).toBe(403)
    const missing = await t.http('GET', `${S}/999`, { token: MARK })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Pipeline Schedule Not Found' }])

    // Only the owner edits, even against a Maintainer; a Maintainer takes it over (201), then owns it (200).
    expect((await t.http('PUT', `${S}/${made.id}`, { token: MAYA, json: { description: 'x' } })).status).toBe(
      403,
    )
    const edited = await t.http('PUT', `${S}/${made.id}`, {
      token: DANA,
      json: { ref: 'develop', active: false },
    })
    expect(edited.body).toMatchObject({ ref: 'refs/heads/develop', active: false, description: 'nightly' })
    const taken = await t.http('POST', `${S}/${made.id}/take_ownership`, { token: MAYA })
    expect([taken.status, (taken.body as Json).owner]).toEqual([
      201,
      expect.objectContaining({ username: 'maya' }),
    ])
    expect((await t.http('POST', `${S}/${made.id}/take_ownership`, { token: MAYA })).status).toBe(200)
    expect((await t.http('POST', `${S}/${made.id}/take_ownership`, { token: DANA })).status).toBe(403)
    expect((await t.http('DELETE', `${S}/${made.id}`, { token: DANA })).status).toBe(403)
    // `destroy_conditionally!`: changed after If-Unmodified-Since is a 412, and nothing is deleted.
    const updatedAt = Date.parse((taken.body as Json).updated_at as string)
    const before = new Date(updatedAt - 60_000).toUTCString()
    const early = await t.http('DELETE', `${S}/${made.id}`, {
      token: MARK,
      headers: { 'if-unmodified-since': before },
    })
    expect([early.status, early.body]).toEqual([412, { message: '412 Precondition Failed' }])
    expect((await t.http('GET', `${S}/${made.id}`, { token: MARK })).status).toBe(200)
    const gone = await t.http('DELETE', `${S}/${made.id}`, {
      token: MARK,
      headers: { 'if-unmodified-since': new Date(updatedAt + 60_000).toUTCString() },
    })
    expect([gone.status, gone.text]).toEqual([204, ''])
    expect((await t.http('GET', `${S}/${made.id}`, { token: MARK })).status).toBe(404)
  })
  it("refuses an 11th schedule in a project (the default plan's ci_pipeline_schedules limit), on create only", async () => {
    const made = []
    for (let i = 0; i < 10; i++) made.push(await create({ ...nightly, description: `n${i}` }))
    const res = await t.http('POST', S, { token: DANA, json: { ...nightly, cron: 'nope' } })
    expect([res.status, res.body]).toEqual([
      400,
      {
        message: {
          base: ['Maximum number of ci pipeline schedules (10) exceeded'],
          cron: ['syntax is invalid'],
        },
      },
    ])
    expect(scheduleCount()).toBe(10)
    // Edits are not creations: the full project's schedules still change.
    const edited = await t.http('PUT', `${S}/${made[0]!.id}`, { token: DANA, json: { description: 'x' } })
    expect(edited.status).toBe(200)
    // Another project has its own count; one deleted makes room again.
    expect(
      (
        await t.http('POST', '/api/v4/projects/acme%2Fother/pipeline_schedules', {
          token: MARK,
          json: nightly,
        })
      ).status,
    ).toBe(201)
    expect((await t.http('DELETE', `${S}/${made[9]!.id}`, { token: MARK })).status).toBe(204)
    expect((await t.http('POST', S, { token: DANA, json: nightly })).status).toBe(201)
  })

  it('goes with its project, variables and pipeline links too', async () => {
    const made = await create(nightly, MARK)
    await t.http('POST', `${S}/${made.id}/variables`, { token: MARK, json: { key: 'A', value: 'x' } })
    await t.http('POST', `${S}/${made.id}/play`, { token: MARK })
    // Marked for deletion first (this release delays it), then removed for good.
    const id = ((await t.http('GET', P, { token: ROOT })).body as Json).id
    expect((await t.http('DELETE', P, { token: ROOT })).status).toBe(202)
    const marked = (await t.http('GET', `/api/v4/projects/${id}`, { token: ROOT })).body as Json
    const fullPath = encodeURIComponent(marked.path_with_namespace as string)
    const gone = await t.http(
      'DELETE',
      `/api/v4/projects/${id}?permanently_remove=true&full_path=${fullPath}`,
      {
        token: ROOT,
      },
    )
    expect(gone.status).toBe(202)
    const db = inspectDb(t.server.store)
    const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get()
    expect(
      ['ci_pipeline_schedules', 'ci_pipeline_schedule_variables', 'ci_pipeline_schedule_pipelines'].map(
        count,
      ),
    ).toEqual([0, 0, 0])
  })
})

describe('variables of a schedule', () => {
  it('adds, edits and deletes them (202 with the variable), sealed, with GitLab key checks', async () => {
    const made = await create(nightly)
    const V = `${S}/${made.id}/variables`
    const added = await t.http('POST', V, { token: DANA, json: { key: 'NIGHTLY', value: 'secret-value' } })
    expect([added.status, added.body]).toEqual([
      201,
      { variable_type: 'env_var', key: 'NIGHTLY', value: 'secret-value', raw: false },
    ])
    const stored = inspectDb(t.server.store)
      .prepare('SELECT value_encrypted FROM ci_pipeline_schedule_variables')
      .pluck()
      .get() as string
    expect(stored).not.toContain('secret-value')
    const again = await t.http('POST', V, { token: DANA, json: { key: 'NIGHTLY', value: 'x' } })
    expect([again.status, again.body]).toEqual([400, { message: { key: ['has already been taken'] } }])
    const badKey = await t.http('POST', V, { token: DANA, json: { key: 'NO-DASH', value: 'x' } })
    expect(badKey.body).toEqual({ message: { key: ["can contain only letters, digits and '_'."] } })
    expect((await t.http('POST', V, { token: MARK, json: { key: 'B', value: 'x' } })).status).toBe(403)

    const edited = await t.http('PUT', `${V}/NIGHTLY`, { token: DANA, json: { variable_type: 'file' } })
    expect(edited.body).toEqual({ variable_type: 'file', key: 'NIGHTLY', value: 'secret-value', raw: false })
    expect((await schedule(made.id)).variables).toEqual([edited.body])
    const none = await t.http('PUT', `${V}/NOPE`, { token: DANA, json: { value: 'x' } })
    expect([none.status, none.body]).toEqual([404, { message: '404 Pipeline Schedule Variable Not Found' }])
    // A Maintainer may delete (admin_pipeline_schedule) what only the owner may edit.
    const removed = await t.http('DELETE', `${V}/NIGHTLY`, { token: MARK })
    expect([removed.status, removed.body]).toEqual([202, edited.body])
    expect((await schedule(made.id)).variables).toEqual([])
  })

  it("shows them to a Maintainer and the schedule's owner only: a Reporter reads the schedule without them", async () => {
    const made = await create(nightly)
    await t.http('POST', `${S}/${made.id}/variables`, {
      token: DANA,
      json: { key: 'TOKEN', value: 'secret-value' },
    })
    const otto = await t.http('GET', '/api/v4/users?username=otto', { token: ROOT })
    const member = await t.http('POST', `${P}/members`, {
      token: ROOT,
      json: { user_id: (otto.body as Json[])[0]!.id, access_level: 20 },
    })
    expect(member.status).toBe(201)
    const read = async (token: string) => {
      const res = await t.http('GET', `${S}/${made.id}`, { token })
      return [res.status, (res.body as Json).variables]
    }
    const variables = [{ variable_type: 'env_var', key: 'TOKEN', value: 'secret-value', raw: false }]
    expect(await read(DANA)).toEqual([200, variables])
    expect(await read(MAYA)).toEqual([200, variables])
    expect(await read(OTTO)).toEqual([200, undefined])
    expect((await t.http('GET', `${S}/${made.id}`, { token: OTTO })).text).not.toContain('secret-value')
  })
})

describe('running schedules', () => {
  it('play makes a schedule pipeline for the caller now; next_run_at stays', async () => {
    const made = await create(nightly, MARK)
    await t.http('POST', `${S}/${made.id}/variables`, { token: MARK, json: { key: 'NIGHTLY', value: 'yes' } })
    await protectMainFully()
    expect((await t.http('POST', `${S}/${made.id}/play`, { token: DANA })).status).toBe(403) // main: Maintainers push
    const played = await t.http('POST', `${S}/${made.id}/play`, { token: MAYA })
    expect([played.status, played.body]).toEqual([201, { message: '201 Created' }])
    const [pipeline] = await scheduled(made.id)
    expect(pipeline).toMatchObject({ source: 'schedule', ref: 'main' })
    const full = (await t.http('GET', `${P}/pipelines/${pipeline!.id}`, { token: MARK })).body as Json
    expect(full.user).toMatchObject({ username: 'maya' })
    const after = await schedule(made.id)
    expect(after).toMatchObject({ next_run_at: made.next_run_at, last_pipeline: { id: pipeline!.id } })
    const vars = await t.http('GET', `${P}/pipelines/${pipeline!.id}/variables`, { token: MARK })
    // GitLab keeps them with the schedule, not as the pipeline's variables (its jobs see them all the same).
    expect([vars.status, vars.body]).toEqual([200, []])
  })

  it('the clock runs each due active schedule once per move, as its owner, and moves next_run_at past now', async () => {
    const made = await create(nightly, MARK)
    const idle = await create({ ...nightly, active: false }, MARK)
    expect((await clock({ action: 'set', time: '2030-01-01T01:02:00Z' })).status).toBe(200)
    expect(await scheduled(made.id)).toEqual([])
    await clock({ action: 'set', time: '2030-01-01T01:04:00Z' })
    const first = await scheduled(made.id)
    expect(first.map((p) => p.source)).toEqual(['schedule'])
    expect((await schedule(made.id)).next_run_at).toBe('2030-01-02T01:03:00.000Z')
    // Three days in one move: one pipeline, and the next run after the new time.
    await clock({ action: 'advance', seconds: 3 * 86_400 })
    expect(await scheduled(made.id)).toHaveLength(2)
    expect((await schedule(made.id)).next_run_at).toBe('2030-01-05T01:03:00.000Z')
    expect(await scheduled(idle.id)).toEqual([])
    // Settle runs pipelines to their end but never a schedule, which would never end.
    expect((await t.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
    expect(await scheduled(made.id)).toHaveLength(2)
    const sorted = await t.http('GET', `${S}/${made.id}/pipelines?sort=desc`, { token: MARK })
    expect((sorted.body as Json[]).map((p) => p.id)).toEqual(
      (await scheduled(made.id)).map((p) => p.id).reverse(),
    )
  })

  it("a blocked owner's schedule makes no pipeline and still moves on; a removed owner's stays due", async () => {
    const made = await create(nightly, DANA)
    await create({ ...nightly, description: 'maya' }, MAYA)
    const dana = inspectDb(t.server.store)
      .prepare("SELECT id FROM users WHERE username = 'dana'")
      .pluck()
      .get()
    expect((await t.http('POST', `/api/v4/users/${dana}/block`, { token: ROOT })).status).toBe(201)
    await clock({ action: 'set', time: '2030-01-01T01:04:00Z' })
    expect(await scheduled(made.id)).toEqual([])
    expect((await schedule(made.id)).next_run_at).toBe('2030-01-02T01:03:00.000Z')
    inspectDb(t.server.store)
      .prepare('UPDATE ci_pipeline_schedules SET owner_id = NULL WHERE id = ?')
      .run(made.id)
    await clock({ action: 'set', time: '2030-01-02T02:00:00Z' })
    expect(await schedule(made.id)).toMatchObject({ next_run_at: '2030-01-02T01:03:00.000Z', owner: null })
    expect(await scheduled(made.id)).toEqual([])
  })

  it('jobs see the source and the variables: rules:if on $CI_PIPELINE_SOURCE and a schedule variable', async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `
nightly:
  script: [echo "$NIGHTLY"]
  rules:
    - if: '$CI_PIPELINE_SOURCE == "schedule" && $NIGHTLY == "yes"'
always:
  script: [echo hi]
`,
    })
    const made = await create({ ...nightly, ref: 'ci' }, MARK)
    await t.http('POST', `${S}/${made.id}/variables`, { token: MARK, json: { key: 'NIGHTLY', value: 'yes' } })
    await clock({ action: 'set', time: '2030-01-01T01:04:00Z' })
    const [pipeline] = await scheduled(made.id)
    const jobs = (await t.http('GET', `${P}/pipelines/${pipeline!.id}/jobs`, { token: MARK })).body as Json[]
    expect(jobs.map((j) => j.name).sort()).toEqual(['always', 'nightly'])
  })
})

describe('protected refs (`protected_ref` of Ci::PipelineSchedulePolicy)', () => {
  it('refuses a Developer a schedule on a branch only Maintainers update: create and a move there 400, edit, play and variables 403', async () => {
    const onMain = await create(nightly)
    const onDevelop = await create({ ...nightly, ref: 'develop' })
    await protectMainFully()

    const made = await t.http('POST', S, { token: DANA, json: nightly })
    expect([made.status, made.body]).toEqual([
      400,
      { message: { base: ['The current user is not authorized to create the pipeline schedule'] } },
    ])
    expect(scheduleCount()).toBe(2)
    const moved = await t.http('PUT', `${S}/${onDevelop.id}`, { token: DANA, json: { ref: 'main' } })
    expect([moved.status, moved.body]).toEqual([
      400,
      { message: { base: ['The current user is not authorized to update the pipeline schedule'] } },
    ])
    expect((await schedule(onDevelop.id)).ref).toBe('refs/heads/develop')

    const id = onMain.id as number
    const refused = [
      await t.http('PUT', `${S}/${id}`, { token: DANA, json: { description: 'still mine?' } }),
      await t.http('POST', `${S}/${id}/play`, { token: DANA }),
      await t.http('POST', `${S}/${id}/variables`, { token: DANA, json: { key: 'K', value: 'v' } }),
    ]
    expect(refused.map((r) => [r.status, r.body])).toEqual(
      Array(3).fill([403, { message: '403 Forbidden' }]) as unknown[],
    )
    expect((await schedule(id)).description).toBe('nightly')
    // A Maintainer may update main: theirs is made there, and edited.
    const marks = await create(nightly, MARK)
    const edited = await t.http('PUT', `${S}/${marks.id}`, {
      token: MARK,
      json: { description: 'nightly, mine' },
    })
    expect(edited.status).toBe(200)
  })
})

describe('inputs of a schedule (GitLab 17.11+)', () => {
  const SPEC = `spec:
  inputs:
    target: { options: [staging, production] }
    replicas: { type: number, default: 1 }
    canary: { type: boolean, default: false }
---
deploy:
  script: echo deploy to $[[ inputs.target ]] x$[[ inputs.replicas ]] canary=$[[ inputs.canary ]]
`
  const scripts = async (pipelineId: unknown) =>
    t.server.store.pipelines
      .jobs(pipelineId as number)
      .map((j) => t.server.store.jobDefinitions.get(j.id)?.script)

  it('creates, changes, adds and destroys inputs by name; values keep their JSON type and are sealed', async () => {
    const made = await create({
      ...nightly,
      inputs: [
        { name: 'target', value: 'staging' },
        { name: 'replicas', value: 2 },
        { name: 'list', value: ['a', 1] },
      ],
    })
    expect((await schedule(made.id, DANA)).inputs).toEqual([
      { name: 'target', value: 'staging' },
      { name: 'replicas', value: 2 },
      { name: 'list', value: ['a', 1] },
    ])
    const sealed = inspectDb(t.server.store)
      .prepare('SELECT value_encrypted FROM ci_pipeline_schedule_inputs')
      .pluck()
      .all() as string[]
    expect(sealed).toHaveLength(3)
    expect(sealed.join()).not.toContain('staging')

    const res = await t.http('PUT', `${S}/${made.id}`, {
      token: DANA,
      json: {
        inputs: [
          { name: 'target', value: 'production' },
          { name: 'list', destroy: true },
          { name: 'unknown', destroy: true },
          { name: 'canary', value: true },
        ],
      },
    })
    expect(res.status).toBe(200)
    const changed = [
      { name: 'target', value: 'production' },
      { name: 'replicas', value: 2 },
      { name: 'canary', value: true },
    ]
    expect((await schedule(made.id, DANA)).inputs).toEqual(changed)
    // A PUT without inputs leaves them.
    await t.http('PUT', `${S}/${made.id}`, { token: DANA, json: { description: 'renamed' } })
    expect((await schedule(made.id, DANA)).inputs).toEqual(changed)
  })

  it('shows inputs to its owner and Maintainers only (read_pipeline_schedule_inputs), in lists too', async () => {
    const made = await create({ ...nightly, inputs: [{ name: 'target', value: 'staging' }] })
    const shown = [{ name: 'target', value: 'staging' }]
    expect((await schedule(made.id, DANA)).inputs).toEqual(shown)
    expect((await schedule(made.id, MARK)).inputs).toEqual(shown)
    const other = await create({ ...nightly, description: 'maya' }, MAYA)
    // Dana, a Developer, reads Maya's schedule but not its inputs (an empty list would tell her none).
    const read = await schedule(other.id, DANA)
    expect(read.description).toBe('maya')
    expect(read).not.toHaveProperty('inputs')
    const list = (await t.http('GET', S, { token: DANA })).body as Json[]
    expect(list.map((s) => s.inputs)).toEqual([shown, undefined])
    const byMaintainer = (await t.http('GET', S, { token: MARK })).body as Json[]
    expect(byMaintainer.map((s) => s.inputs)).toEqual([shown, []])
  })

  it("refuses bad inputs with GitLab's 400 bodies and changes nothing", async () => {
    const long = 'x'.repeat(1100)
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `in${i}`, value: i }))
    const cases: [Json, unknown][] = [
      [{ inputs: [{ name: 'a' }] }, { error: 'inputs[0][value] is missing' }],
      [
        { inputs: [{ value: 'a' }, { name: 'b' }] },
        { error: 'inputs[0][name] is missing, inputs[1][value] is missing' },
      ],
      [{ inputs: [{ name: 'b', value: { x: 1 } }] }, { error: 'inputs[0][value] is invalid' }],
      [{ inputs: ['b'] }, { error: 'inputs is invalid' }],
      [{ inputs: [{ name: ' ', value: 'a' }] }, { message: { 'inputs.name': ["can't be blank"] } }],
      [
        { inputs: [{ name: 'n'.repeat(256), value: long }], description: ' ' },
        {
          message: {
            'inputs.name': ['is too long (maximum is 255 characters)'],
            'inputs.value': ['exceeds max serialized size: 1024 characters'],
            description: ["can't be blank"],
          },
        },
      ],
      [
        {
          inputs: [
            { name: 'a', value: 1 },
            { name: 'a', value: 2 },
          ],
        },
        { message: { inputs: ['have duplicate values (a)'] } },
      ],
      [{ inputs: many }, { message: { inputs: ['exceeds the limit of 20.'] } }],
    ]
    for (const [json, body] of cases) {
      const res = await t.http('POST', S, { token: DANA, json: { ...nightly, ...json } })
      expect([json, res.status, res.body]).toEqual([json, 400, body])
    }
    expect(scheduleCount()).toBe(0)

    const made = await create({ ...nightly, inputs: [{ name: 'a', value: 1 }] })
    const put = (json: Json) => t.http('PUT', `${S}/${made.id}`, { token: DANA, json })
    const missing = await put({ inputs: [{ name: 'a', destroy: false }] })
    expect([missing.status, missing.body]).toEqual([400, { error: 'inputs[0][value] is missing' }])
    const tooBig = await put({ cron: 'nope', inputs: [{ name: 'a', value: long }] })
    expect([tooBig.status, tooBig.body]).toEqual([
      400,
      {
        message: {
          'inputs.value': ['exceeds max serialized size: 1024 characters'],
          cron: ['syntax is invalid'],
        },
      },
    ])
    // 20 more new ones than the one kept is one too many; naming the kept one again is no duplicate.
    const over = await put({ inputs: [{ name: 'a', value: 2 }, ...many.slice(1)] })
    expect([over.status, over.body]).toEqual([400, { message: { inputs: ['exceeds the limit of 20.'] } }])
    expect((await schedule(made.id, DANA)).inputs).toEqual([{ name: 'a', value: 1 }])
    expect((await put({ inputs: [{ name: 'a', value: 2 }, ...many.slice(2)] })).status).toBe(200)
  })

  it('the scheduled and the played pipeline get the inputs; inputs the config refuses make no pipeline', async () => {
    await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': SPEC })
    const made = await create(
      {
        ...nightly,
        ref: 'ci',
        inputs: [
          { name: 'target', value: 'production' },
          { name: 'replicas', value: 3 },
          { name: 'canary', value: true },
        ],
      },
      MARK,
    )
    await clock({ action: 'set', time: '2030-01-01T01:04:00Z' })
    const [run] = await scheduled(made.id)
    expect(await scripts(run!.id)).toEqual([['echo deploy to production x3 canary=true']])

    await t.http('PUT', `${S}/${made.id}`, {
      token: MARK,
      json: {
        inputs: [
          { name: 'replicas', destroy: true },
          { name: 'target', value: 'staging' },
        ],
      },
    })
    expect((await t.http('POST', `${S}/${made.id}/play`, { token: MARK })).status).toBe(201)
    const [, played] = await scheduled(made.id)
    expect(await scripts(played!.id)).toEqual([['echo deploy to staging x1 canary=true']])

    // Not in the options: GitLab queues the run (201) and the refused pipeline leaves nothing.
    await t.http('PUT', `${S}/${made.id}`, {
      token: MARK,
      json: { inputs: [{ name: 'target', value: 'qa' }] },
    })
    expect((await t.http('POST', `${S}/${made.id}/play`, { token: MARK })).status).toBe(201)
    expect(await scheduled(made.id)).toHaveLength(2)
  })

  it("keeps an array of hashes as a value (GitLab's COMPLEX_ARRAY): created, changed and given to the pipeline", async () => {
    await commitFiles(t, 'acme/app', 'ci', {
      '.gitlab-ci.yml': `spec:
  inputs:
    services: { type: array }
---
deploy:
  script: echo $[[ inputs.services ]]
`,
    })
    const services = [
      { name: 'web', ports: [80, 443] },
      { name: 'db', primary: true, replicas: null },
    ]
    const made = await create(
      { ...nightly, ref: 'ci', inputs: [{ name: 'services', value: services }] },
      MARK,
    )
    expect((await schedule(made.id)).inputs).toEqual([{ name: 'services', value: services }])
    await clock({ action: 'set', time: '2030-01-01T01:04:00Z' })
    const [run] = await scheduled(made.id)
    expect(await scripts(run!.id)).toEqual([[`echo ${JSON.stringify(services)}`]])

    const changed = [{ name: 'cache', size: '1G' }]
    const res = await t.http('PUT', `${S}/${made.id}`, {
      token: MARK,
      json: { inputs: [{ name: 'services', value: changed }] },
    })
    expect(res.status).toBe(200)
    expect((await schedule(made.id)).inputs).toEqual([{ name: 'services', value: changed }])
    expect((await t.http('POST', `${S}/${made.id}/play`, { token: MARK })).status).toBe(201)
    const [, played] = await scheduled(made.id)
    expect(await scripts(played!.id)).toEqual([[`echo ${JSON.stringify(changed)}`]])
  })

  it('GitLab 17.10 drops the parameter and shows no inputs', async () => {
    const old = await startServer(pipelineSeed, { frozenAt: new Date(T0), gitlabVersion: '17.10.0' })
    try {
      await developersMerge(old, 'acme/app')
      const res = await old.http('POST', S, {
        token: DANA,
        json: { ...nightly, inputs: [{ name: 'target', value: 'staging' }] },
      })
      expect(res.status).toBe(201)
      expect(res.body).not.toHaveProperty('inputs')
      const rows = inspectDb(old.server.store).prepare('SELECT COUNT(*) FROM ci_pipeline_schedule_inputs')
      expect(rows.pluck().get()).toBe(0)
    } finally {
      await old.close()
    }
  })
})
