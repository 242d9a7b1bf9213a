import { startServer, type TestServer } from '../../support/server.js'
import { matrixSeed, tokens, widgetsSeed } from '../../support/seeds.js'
import { manualClock } from '../../support/pipeline-seed.js'

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // group maintainer
const BOB = 'glpat-bob-token' // project developer
const P = '/api/v4/projects/acme%2Fwidgets'
let t: TestServer
beforeEach(async () => {
  t = await startServer(widgetsSeed)
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const iids = async () =>
  ((await t.http('GET', `${P}/issues`, { token: ROOT, query: 'per_page=100' })).body as Json[]).map(
    (i) => i.iid,
  )

describe('POST /projects/:id/issues', () => {
  it('creates with 201, creates unknown labels, subscribes the author', async () => {
    const res = await t.http('POST', `${P}/issues`, {
      token: BOB,
      json: {
        title: 'New bug',
        description: 'It broke',
        labels: 'bug,regression',
        assignee_ids: [2, 3],
        due_date: '2026-12-24',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      iid: 6,
      title: 'New bug',
      state: 'opened',
      labels: ['bug', 'regression'],
      due_date: '2026-12-24',
      subscribed: true,
      closed_at: null,
      user_notes_count: 0,
      author: { username: 'bob' },
    })
    expect(((res.body as Json).assignees as Json[]).map((a) => a.username)).toEqual(['alice', 'bob'])
    const again = await t.http('GET', `${P}/issues/6`, { token: BOB })
    expect((again.body as Json).labels).toEqual(['bug', 'regression'])
  })

  it('accepts form fields as GitLab clients send them', async () => {
    const res = await t.http('POST', `${P}/issues`, {
      token: BOB,
      form: 'title=From+a+form&confidential=yes&labels=docs',
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ title: 'From a form', confidential: true, labels: ['docs'] })
  })

  it("takes a JSON null for a Boolean as Grape does, as nil: no 'is invalid'", async () => {
    const res = await t.http('POST', `${P}/issues`, {
      token: BOB,
      json: { title: 'nulls', discussion_locked: null },
    })
    expect([res.status, (res.body as Json).discussion_locked]).toEqual([201, null])
  })

  it.each([
    [{ description: 'x' }, 400, { error: 'title is missing' }],
    [{ title: '   ' }, 400, { message: { title: ["can't be blank"] } }],
    [{ title: 'x'.repeat(256) }, 400, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    [
      { title: 'ok', description: 'x'.repeat(1_048_577) },
      400,
      { message: { description: ['is too long (1 MiB). The maximum size is 1 MiB.'] } },
    ],
    [{ title: 'ok', confidential: 'foo' }, 400, { error: 'confidential is invalid' }],
    [{ title: 'ok', issue_type: 'epic' }, 400, { error: 'issue_type does not have a valid value' }],
  ])('refuses %j and creates nothing', async (json, status, body) => {
    const res = await t.http('POST', `${P}/issues`, { token: BOB, json })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
    expect(await iids()).toEqual([5, 4, 3, 2, 1])
  })

  it('honours iid and created_at for administrators only; a taken iid is 409', async () => {
    const dev = await t.http('POST', `${P}/issues`, {
      token: BOB,
      json: { title: 'a', iid: 42, created_at: '2020-01-01T00:00:00Z' },
    })
    expect(dev.body).toMatchObject({ iid: 6 })
    expect((dev.body as Json).created_at).not.toBe('2020-01-01T00:00:00.000Z')
    const admin = await t.http('POST', `${P}/issues`, {
      token: ROOT,
      json: { title: 'b', iid: 42, created_at: '2020-01-01T00:00:00Z' },
    })
    expect(admin.body).toMatchObject({ iid: 42, created_at: '2020-01-01T00:00:00.000Z' })
    const dup = await t.http('POST', `${P}/issues`, { token: ROOT, json: { title: 'c', iid: 42 } })
    expect(dup.status).toBe(409)
    expect(dup.body).toEqual({ message: 'Duplicated issue' })
  })

  it('401 without a token, 404 for a project the caller cannot see', async () => {
    const anon = await t.http('POST', `${P}/issues`, { json: { title: 'x' } })
    expect(anon.status).toBe(401) // the issues API authenticates every non-GET request first
    expect(anon.body).toEqual({ message: '401 Unauthorized' })
    const carol = await t.http('POST', `${P}/issues`, { token: 'glpat-carol-token', json: { title: 'x' } })
    expect(carol.status).toBe(404)
    expect(carol.body).toEqual({ message: '404 Project Not Found' })
    expect(await iids()).toEqual([5, 4, 3, 2, 1])
  })
})

describe("the project's last_activity_at under issue writes", () => {
  // GitLab moves it from events, and only once it is over an hour old (`Event#reset_project_activity`).
  it('moves with a write only once an hour has passed since it last moved', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z')
    const s = await startServer(widgetsSeed, { clock })
    try {
      const activity = async () =>
        ((await s.http('GET', P, { token: ROOT })).body as Json).last_activity_at as string
      const seeded = await activity()
      const write = async (title: string) => {
        const res = await s.http('POST', `${P}/issues`, { token: ROOT, json: { title } })
        expect(res.status).toBe(201)
      }
      clock.advance(59 * 60_000)
      await write('within the hour')
      expect(await activity()).toBe(seeded)
      clock.advance(2 * 60_000)
      await write('past the hour')
      expect(await activity()).toBe('2026-03-01T11:01:00.000Z')
      clock.advance(30 * 60_000)
      const edit = await s.http('PUT', `${P}/issues/1`, { token: ROOT, json: { title: 'edited' } })
      expect(edit.status).toBe(200)
      expect(await activity()).toBe('2026-03-01T11:01:00.000Z')
    } finally {
      await s.close()
    }
  })
})

describe('what a guest may set on an issue', () => {
  const MP = '/api/v4/projects/acme%2Fprivate-proj'
  let m: TestServer
  beforeEach(async () => {
    m = await startServer(matrixSeed)
  })
  afterEach(() => m.close())

  it("drops a guest's weight, due date and incident type on create, as GitLab's filter_params does", async () => {
    const json = { title: 'From a guest', weight: 3, due_date: '2026-12-24', issue_type: 'incident' }
    const res = await m.http('POST', `${MP}/issues`, { token: tokens.guest, json })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ weight: null, due_date: null, issue_type: 'issue', type: 'ISSUE' })
    const stored = await m.http('GET', `${MP}/issues/${(res.body as Json).iid}`, { token: tokens.root })
    expect(stored.body).toMatchObject({ weight: null, due_date: null, issue_type: 'issue' })
  })

  it('keeps them for a reporter', async () => {
    const json = { title: 'From a reporter', weight: 3, due_date: '2026-12-24', issue_type: 'incident' }
    const res = await m.http('POST', `${MP}/issues`, { token: tokens.reporter, json })
    expect(res.body).toMatchObject({ weight: 3, due_date: '2026-12-24', issue_type: 'incident' })
  })

  it("refuses a negative weight with the model's error, beside the title's; a guest's is dropped unread", async () => {
    const post = (token: string, json: Json) => m.http('POST', `${MP}/issues`, { token, json })
    const count = async () =>
      ((await m.http('GET', `${MP}/issues`, { token: tokens.root })).body as Json[]).length
    const before = await count()
    expect((await post(tokens.reporter, { title: ' ', weight: -1 })).body).toEqual({
      message: { title: ["can't be blank"], weight: ['must be greater than or equal to 0'] },
    })
    expect(await post(tokens.reporter, { title: 'Negative', weight: -1 })).toMatchObject({
      status: 400,
      body: { message: { weight: ['must be greater than or equal to 0'] } },
    })
    // Grape's plain Integer: text is `is invalid`, and nothing more.
    expect((await post(tokens.reporter, { title: 'Text', weight: 'abc' })).body).toEqual({
      error: 'weight is invalid',
    })
    expect(await count()).toBe(before)
    const made = await post(tokens.reporter, { title: 'Weighed', weight: 2 })
    const iid = (made.body as Json).iid as number
    const edit = await m.http('PUT', `${MP}/issues/${iid}`, { token: tokens.reporter, json: { weight: -2 } })
    expect(edit).toMatchObject({
      status: 400,
      body: { message: { weight: ['must be greater than or equal to 0'] } },
    })
    expect((await m.http('GET', `${MP}/issues/${iid}`, { token: tokens.root })).body).toMatchObject({
      weight: 2,
    })
    expect(await post(tokens.guest, { title: 'From a guest', weight: -1 })).toMatchObject({
      status: 201,
      body: { weight: null },
    })
  })

  it("leaves the type of a guest's own issue unchanged when the guest asks for an incident", async () => {
    const made = await m.http('POST', `${MP}/issues`, { token: tokens.guest, json: { title: 'Mine' } })
    const iid = (made.body as Json).iid
    const res = await m.http('PUT', `${MP}/issues/${iid}`, {
      token: tokens.guest,
      json: { issue_type: 'incident', title: 'Still mine' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ title: 'Still mine', issue_type: 'issue' })
  })
})

describe('reads after the writes that change who may read an issue, or its time stats', () => {
  const PP = '/api/v4/projects/acme%2Fpublic-proj'
  let m: TestServer
  beforeEach(async () => {
    m = await startServer(matrixSeed)
  })
  afterEach(() => m.close())
  const read = async (token: string, path = '') =>
    (await m.http('GET', `${PP}/issues/1${path}`, { token })).status

  it('answers as the issue is now: made confidential, visible again, deleted', async () => {
    // Read first, so that what the read checked is kept.
    expect([await read(tokens.guest), await read(tokens.outsider)]).toEqual([200, 200])
    const secret = await m.http('PUT', `${PP}/issues/1`, {
      token: tokens.maintainer,
      json: { confidential: true },
    })
    expect(secret.status).toBe(200)
    expect([await read(tokens.guest), await read(tokens.outsider), await read(tokens.reporter)]).toEqual([
      404, 404, 200,
    ])
    expect(await read(tokens.outsider, '/time_stats')).toBe(404)
    await m.http('PUT', `${PP}/issues/1`, { token: tokens.maintainer, json: { confidential: false } })
    expect([await read(tokens.guest), await read(tokens.outsider, '/time_stats')]).toEqual([200, 200])
    expect((await m.http('DELETE', `${PP}/issues/1`, { token: tokens.owner })).status).toBe(204)
    expect([await read(tokens.guest), await read(tokens.reporter, '/time_stats')]).toEqual([404, 404])
  })

  it('shows the time spent and estimated since the last read', async () => {
    const stats = async () => (await m.http('GET', `${PP}/issues/1/time_stats`, { token: tokens.guest })).body
    expect(await stats()).toMatchObject({ time_estimate: 0, total_time_spent: 0 })
    const spent = await m.http('POST', `${PP}/issues/1/add_spent_time`, {
      token: tokens.reporter,
      json: { duration: '1h' },
    })
    expect(spent.status).toBe(201)
    await m.http('POST', `${PP}/issues/1/time_estimate`, { token: tokens.reporter, json: { duration: '2h' } })
    expect(await stats()).toEqual({
      time_estimate: 7200,
      total_time_spent: 3600,
      human_time_estimate: '2h',
      human_total_time_spent: '1h',
    })
  })
})

describe('PUT /projects/:id/issues/:issue_iid', () => {
  it('needs at least one parameter, in GitLab EE words', async () => {
    const res = await t.http('PUT', `${P}/issues/1`, {
      token: ALICE,
      json: { updated_at: '2026-01-01T00:00:00Z' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error:
        'assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type, weight, epic_id, epic_iid are missing, at least one parameter must be provided',
    })
  })

  it('closes and reopens', async () => {
    const closed = await t.http('PUT', `${P}/issues/1`, { token: ALICE, json: { state_event: 'close' } })
    expect(closed.status).toBe(200)
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: { username: 'alice' }, subscribed: true })
    expect((closed.body as Json).closed_at).toEqual(expect.any(String))
    const reopened = await t.http('PUT', `${P}/issues/1`, { token: ALICE, form: 'state_event=reopen' })
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null })
    const bad = await t.http('PUT', `${P}/issues/1`, { token: ALICE, json: { state_event: 'explode' } })
    expect(bad.body).toEqual({ error: 'state_event does not have a valid value' })
  })

  it('replaces, adds and removes labels; 0 unassigns and removes the milestone', async () => {
    let res = await t.http('PUT', `${P}/issues/1`, {
      token: ALICE,
      json: { add_labels: 'feature,urgent', remove_labels: 'bug' },
    })
    expect((res.body as Json).labels).toEqual(['feature', 'urgent'])
    res = await t.http('PUT', `${P}/issues/1`, { token: ALICE, json: { labels: '' } })
    expect((res.body as Json).labels).toEqual([])
    res = await t.http('PUT', `${P}/issues/1`, { token: ALICE, json: { assignee_ids: [0], milestone_id: 0 } })
    expect(res.body).toMatchObject({ assignees: [], assignee: null, milestone: null })
  })

  it('makes no label of a blank item in a comma-separated list (`,bug`)', async () => {
    const res = await t.http('PUT', `${P}/issues/2`, {
      token: ALICE,
      json: { labels: ',docs, ,', add_labels: ['', ' ,feature'] },
    })
    expect(res.status).toBe(200)
    expect((res.body as Json).labels).toEqual(['docs', 'feature'])
    const labels = await t.http('GET', `${P}/labels`, { token: ALICE, query: 'per_page=100' })
    expect((labels.body as Json[]).map((l) => l.name)).not.toContain('')
  })

  it('recounts tasks when the description changes', async () => {
    const res = await t.http('PUT', `${P}/issues/2`, {
      token: ALICE,
      json: { description: '- [x] one\n* [ ] two\n1. [X] three' },
    })
    expect(res.body).toMatchObject({
      task_completion_status: { count: 3, completed_count: 2 },
      has_tasks: false,
    })
    expect(res.body).not.toHaveProperty('task_status')
  })

  it('403 for someone who may read but not edit; 404 Not found for a missing issue', async () => {
    // bob is a developer: he may edit; carol sees nothing at all.
    const carol = await t.http('PUT', `${P}/issues/1`, { token: 'glpat-carol-token', json: { title: 'x' } })
    expect(carol.status).toBe(404)
    const missing = await t.http('PUT', `${P}/issues/999`, { token: ALICE, json: { title: 'x' } })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ message: '404 Not found' })
  })
})

describe('labels named by issue writes, between label writes', () => {
  const labelsOf = async (iid: number) =>
    ((await t.http('GET', `${P}/issues/${iid}`, { token: ALICE })).body as Json).labels
  const projectLabels = async () =>
    ((await t.http('GET', `${P}/labels`, { token: ALICE, query: 'per_page=100' })).body as Json[]).map(
      (l) => [l.name, l.color],
    )

  it('finds a label by its title as it is now: renamed, deleted, a group label gone', async () => {
    // Each edit below looks its title up once before a label write, which must not leave it stale.
    const edit = async (iid: number, json: Json) =>
      expect((await t.http('PUT', `${P}/issues/${iid}`, { token: ALICE, json })).status).toBe(200)
    await edit(1, { add_labels: 'feature' })
    const renamed = await t.http('PUT', `${P}/labels/feature`, { token: ALICE, json: { new_name: 'feat' } })
    expect(renamed.status).toBe(200)
    // The old title names no label now: the edit makes a new one, as GitLab's FindOrCreateService does.
    await edit(2, { add_labels: 'feature' })
    expect(await labelsOf(1)).toEqual(['bug', 'feat'])
    expect(await labelsOf(2)).toEqual(['feat', 'feature'])
    expect(await projectLabels()).toContainEqual(['feature', '#6699cc'])

    const group = '/api/v4/groups/acme/labels'
    const made = await t.http('POST', group, { token: ALICE, json: { name: 'shared', color: '#123456' } })
    expect(made.status).toBe(201)
    await edit(1, { add_labels: 'shared' })
    expect((await t.http('DELETE', `${group}/shared`, { token: ALICE })).status).toBe(204)
    await edit(2, { add_labels: 'shared' })
    expect(await labelsOf(1)).toEqual(['bug', 'feat'])
    expect(await labelsOf(2)).toEqual(['feat', 'feature', 'shared'])
    expect(await projectLabels()).toContainEqual(['shared', '#6699cc'])

    expect((await t.http('DELETE', `${P}/labels/shared`, { token: ALICE })).status).toBe(204)
    const created = await t.http('POST', `${P}/issues`, {
      token: ALICE,
      json: { title: 'x', labels: 'shared' },
    })
    expect([created.status, (created.body as Json).labels]).toEqual([201, ['shared']])
    expect(await labelsOf(2)).toEqual(['feat', 'feature'])
  })
})

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  it('is for owners and administrators: 403 for a maintainer, 204 for root, then 404 Issue Not Found', async () => {
    const maint = await t.http('DELETE', `${P}/issues/2`, { token: ALICE })
    expect(maint.status).toBe(403)
    expect(maint.body).toEqual({ message: '403 Forbidden' })
    const root = await t.http('DELETE', `${P}/issues/2`, { token: ROOT })
    expect(root.status).toBe(204)
    expect(root.text).toBe('')
    expect(await iids()).toEqual([5, 4, 3, 1])
    const gone = await t.http('DELETE', `${P}/issues/2`, { token: ROOT })
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ message: '404 Issue Not Found' })
  })
})

describe('/projects/:id/issues/:issue_iid that is not an integer', () => {
  it("is Grape's 400 on read, edit and delete, before the project is looked up; 401 first for writes", async () => {
    const invalid = [400, { error: 'issue_iid is invalid' }]
    const answer = async (method: string, path: string, token?: string) => {
      const res = await t.http(method, path, { token, ...(method === 'PUT' ? { json: { title: 'x' } } : {}) })
      return [res.status, res.body]
    }
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect(await answer(method, `${P}/issues/first`, ROOT)).toEqual(invalid)
      expect(await answer(method, `${P}/issues/1.5`, ALICE)).toEqual(invalid)
      // Even on a project the caller cannot see: the path is checked first.
      expect(await answer(method, `${P}/issues/x`, 'glpat-carol-token')).toEqual(invalid)
    }
    expect(await answer('PUT', `${P}/issues/x`)).toEqual([401, { message: '401 Unauthorized' }])
    expect(await answer('DELETE', `${P}/issues/x`)).toEqual([401, { message: '401 Unauthorized' }])
    // Grape's Integer takes a sign and surrounding blanks.
    expect((await t.http('GET', `${P}/issues/%2B1`, { token: ROOT })).body).toMatchObject({ iid: 1 })
    expect(await iids()).toEqual([5, 4, 3, 2, 1])
  })

  it('is reported with the other parameter problems in one 400, path first, as Grape validates them together', async () => {
    const fieldless = await t.http('PUT', `${P}/issues/1`, { token: ROOT, json: {} })
    const { error } = fieldless.body as { error: string }
    expect(error).toMatch(/ are missing, at least one parameter must be provided$/)
    const res = await t.http('PUT', `${P}/issues/x`, { token: ROOT, json: {} })
    expect([res.status, res.body]).toEqual([400, { error: `issue_iid is invalid, ${error}` }])
    // lib/api/notes.rb names the issue of its paths `:noteable_id`.
    const note = await t.http('POST', `${P}/issues/x/notes`, { token: ROOT, json: {} })
    expect([note.status, note.body]).toEqual([400, { error: 'noteable_id is invalid, body is missing' }])
    const spent = await t.http('POST', `${P}/issues/1.5/add_spent_time`, { token: ROOT, json: {} })
    expect([spent.status, spent.body]).toEqual([400, { error: 'issue_iid is invalid, duration is missing' }])
  })
})

describe('GET /issues/:id', () => {
  it('is for administrators', async () => {
    const first = ((await t.http('GET', `${P}/issues/1`, { token: ROOT })).body as Json).id
    expect((await t.http('GET', `/api/v4/issues/${first}`, { token: ROOT })).body).toMatchObject({ iid: 1 })
    expect((await t.http('GET', `/api/v4/issues/${first}`, { token: ALICE })).status).toBe(403)
    expect((await t.http('GET', `/api/v4/issues/${first}`)).status).toBe(401)
    expect((await t.http('GET', '/api/v4/issues/99999', { token: ROOT })).body).toEqual({
      message: '404 Not found',
    })
  })

  it("reads `:id` as a String cast by Ruby's to_i, as Issue.find does: no Grape 400, and no digits finds nothing", async () => {
    const first = ((await t.http('GET', `${P}/issues/1`, { token: ROOT })).body as Json).id
    const abc = await t.http('GET', '/api/v4/issues/abc', { token: ROOT })
    expect([abc.status, abc.body]).toEqual([404, { message: '404 Not found' }])
    expect((await t.http('GET', `/api/v4/issues/%2B${first}`, { token: ROOT })).body).toMatchObject({
      iid: 1,
    })
    expect((await t.http('GET', '/api/v4/issues/abc')).status).toBe(401)
  })
})
