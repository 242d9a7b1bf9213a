import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Project milestones through the API (`lib/api/project_milestones.rb`, `lib/api/milestone_responses.rb`):
 * GitLab's entity, statuses and error bodies, who may write in which release, and nothing stored when
 * a request is refused.
 */

const ROOT = 'glpat-root-token'
const DEVELOPER = 'glpat-dana-token'
const REPORTER = 'glpat-rita-token'
const GUEST = 'glpat-gus-token'
const OUTSIDER = 'glpat-otto-token'
const P = '/api/v4/projects/acme%2Fapp'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
  - { username: dana, token: ${DEVELOPER} }
  - { username: rita, token: ${REPORTER} }
  - { username: gus, token: ${GUEST} }
  - { username: otto, token: ${OUTSIDER} }
groups:
  - { path: acme, visibility: private, members: { dana: developer, rita: reporter, gus: guest } }
projects:
  - path: acme/app
    visibility: private
    labels:
      - { name: bug, color: "#d9534f" }
      - { name: urgent, color: "#000000" }
    milestones:
      - { title: v1.0, due_date: 2026-06-30 }
    issues:
      - { title: Seeded, author: rita, milestone: v1.0 }
  - path: acme/other
    visibility: private
    milestones:
      - { title: elsewhere }
`
type Json = Record<string, unknown>
let t: TestServer
const start = async (options: { version?: string } = {}) => {
  t = await startServer(seed, {
    clock: manualClock('2026-03-01T10:00:00.000Z'),
    gitlabVersion: options.version,
  })
}
afterEach(() => t.close())

const rows = () =>
  inspectDb(t.server.store)
    .prepare(
      "SELECT m.iid, m.title, m.description, m.state, m.start_date, m.due_date FROM milestones m JOIN projects p ON p.id = m.project_id WHERE p.full_path = 'acme/app' ORDER BY m.id",
    )
    .all()
const create = async (json: Json, token = REPORTER) => {
  const res = await t.http('POST', `${P}/milestones`, { token, json })
  expect(res.status).toBe(201)
  return res.body as Json
}

describe('project milestones', () => {
  beforeEach(() => start())

  it('creates with 201 as Entities::Milestone, iids going on from the seed', async () => {
    const res = await t.http('POST', `${P}/milestones`, {
      token: REPORTER,
      json: { title: ' v2.0 ', description: 'Next', start_date: '2026-04-01', due_date: '2026-02-01x' },
    })
    expect(res.status).toBe(201)
    const made = res.body as Json
    expect(Object.keys(made)).toEqual([
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'due_date',
      'start_date',
      'expired',
      'web_url',
    ])
    expect(made).toMatchObject({
      iid: 2,
      title: 'v2.0',
      description: 'Next',
      state: 'active',
      created_at: '2026-03-01T10:00:00.000Z',
      due_date: null, // a date GitLab cannot read stays empty
      start_date: '2026-04-01',
      expired: false,
    })
    expect(made.web_url).toMatch(/\/acme\/app\/-\/milestones\/2$/)
    const one = await t.http('GET', `${P}/milestones/${made.id}`, { token: GUEST })
    expect(one.body).toEqual(made)
  })

  it('lists with state (all by default), title, search, iids and page headers', async () => {
    const beta = await create({ title: 'beta', description: 'Search me' })
    await t.http('PUT', `${P}/milestones/${beta.id}`, { token: REPORTER, json: { state_event: 'close' } })
    const list = async (query: string) =>
      ((await t.http('GET', `${P}/milestones`, { token: GUEST, query })).body as Json[]).map((m) => m.title)
    // By due date, none last, then the newest first (`MilestonesFinder`).
    await create({ title: 'gamma' })
    await create({ title: 'early', due_date: '2026-04-01' })
    expect(await list('')).toEqual(['early', 'v1.0', 'gamma', 'beta'])
    await t.http('DELETE', `${P}/milestones/${(beta.id as number) + 1}`, { token: REPORTER })
    await t.http('DELETE', `${P}/milestones/${(beta.id as number) + 2}`, { token: REPORTER })
    expect(await list('')).toEqual(['v1.0', 'beta'])
    expect(await list('state=closed')).toEqual(['beta'])
    expect(await list('state=active')).toEqual(['v1.0'])
    expect(await list('title=beta')).toEqual(['beta'])
    expect(await list('search=SEARCH')).toEqual(['beta'])
    expect(await list('iids[]=2')).toEqual(['beta'])
    expect(await list('iids=1,2')).toEqual(['v1.0', 'beta'])
    const page = await t.http('GET', `${P}/milestones`, { token: GUEST, query: 'per_page=1' })
    expect([page.headers['x-total'], page.headers['x-next-page']]).toEqual(['2', '2'])
    const bad = await t.http('GET', `${P}/milestones`, { token: GUEST, query: 'state=open' })
    expect([bad.status, bad.body]).toEqual([400, { error: 'state does not have a valid value' }])
    const both = await t.http('GET', `${P}/milestones`, {
      token: GUEST,
      query: 'include_ancestors=true&include_parent_milestones=true',
    })
    expect([both.status, both.body]).toEqual([
      400,
      { error: 'include_ancestors, include_parent_milestones are mutually exclusive' },
    ])
  })

  it('edits with state_event, dates and title; closes and reopens', async () => {
    const made = await create({ title: 'v2.0' })
    const closed = await t.http('PUT', `${P}/milestones/${made.id}`, {
      token: REPORTER,
      json: { state_event: 'close', title: 'v2.0.0', due_date: '2026-01-01' },
    })
    expect(closed.status).toBe(200)
    expect(closed.body).toMatchObject({
      state: 'closed',
      title: 'v2.0.0',
      due_date: '2026-01-01',
      expired: true,
    })
    const reopened = await t.http('PUT', `${P}/milestones/${made.id}`, {
      token: REPORTER,
      form: 'state_event=activate&due_date=',
    })
    expect(reopened.body).toMatchObject({ state: 'active', due_date: null, expired: false })
  })

  it('answers GitLab errors on create and edit, storing nothing', async () => {
    const made = await create({ title: 'v2.0', start_date: '2026-05-01' })
    const before = rows()
    const taken = {
      message:
        'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
    }
    const cases: [string, string, string | undefined, Json, number, unknown][] = [
      ['POST', `${P}/milestones`, REPORTER, {}, 400, { error: 'title is missing' }],
      ['POST', `${P}/milestones`, REPORTER, { title: 'v1.0' }, 400, taken],
      [
        'POST',
        `${P}/milestones`,
        REPORTER,
        { title: '' },
        400,
        { message: `Failed to create milestone {:title=>["can't be blank"]}` },
      ],
      [
        'POST',
        `${P}/milestones`,
        REPORTER,
        { title: 'later', start_date: '2026-05-01', due_date: '2026-04-01' },
        400,
        { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
      ],
      [
        'PUT',
        `${P}/milestones/${made.id}`,
        REPORTER,
        {},
        400,
        {
          error:
            'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided',
        },
      ],
      [
        'PUT',
        `${P}/milestones/${made.id}`,
        REPORTER,
        { state_event: 'reopen' },
        400,
        {
          error: 'state_event does not have a valid value',
        },
      ],
      [
        'PUT',
        `${P}/milestones/${made.id}`,
        REPORTER,
        { title: 'v1.0', due_date: '2026-05-01' },
        400,
        {
          message:
            'Failed to update milestone {:due_date=>["must be greater than start date"], :title=>["already being used for another group or project milestone."]}',
        },
      ],
      ['PUT', `${P}/milestones/9999`, REPORTER, { title: 'x' }, 404, { message: '404 Not found' }],
      ['PUT', `${P}/milestones/abc`, REPORTER, { title: 'x' }, 400, { error: 'milestone_id is invalid' }],
      ['PUT', `${P}/milestones/${made.id}`, GUEST, { title: 'x' }, 403, { message: '403 Forbidden' }],
      [
        'PUT',
        `${P}/milestones/${made.id}`,
        OUTSIDER,
        { title: 'x' },
        404,
        { message: '404 Project Not Found' },
      ],
      ['PUT', `${P}/milestones/${made.id}`, undefined, { title: 'x' }, 401, { message: '401 Unauthorized' }],
      ['POST', `${P}/milestones`, GUEST, { title: 'x' }, 403, { message: '403 Forbidden' }],
      ['DELETE', `${P}/milestones/${made.id}`, GUEST, {}, 403, { message: '403 Forbidden' }],
      ['DELETE', `${P}/milestones/9999`, REPORTER, {}, 404, { message: '404 Not found' }],
    ]
    for (const [method, path, token, json, status, body] of cases) {
      const res = await t.http(method, path, { token, json })
      expect([method, json, res.status, res.body]).toEqual([method, json, status, body])
    }
    expect(rows()).toEqual(before)
  })

  it("answers 404 Not found for another project's milestone", async () => {
    const other = inspectDb(t.server.store)
      .prepare("SELECT id FROM milestones WHERE title = 'elsewhere'")
      .pluck()
      .get() as number
    for (const path of [`${P}/milestones/${other}`, `${P}/milestones/${other}/issues`]) {
      const res = await t.http('GET', path, { token: ROOT })
      expect([path, res.status, res.body]).toEqual([path, 404, { message: '404 Not found' }])
    }
  })

  it('deletes with 204; its issues keep no milestone', async () => {
    const seeded = ((await t.http('GET', `${P}/milestones`, { token: GUEST })).body as Json[])[0] as Json
    const listed = async () => {
      const res = await t.http('GET', `${P}/issues`, { token: ROOT, query: 'milestone=v1.0' })
      return [(res.body as Json[]).length, res.headers['x-total']]
    }
    expect(await listed()).toEqual([1, '1'])
    const res = await t.http('DELETE', `${P}/milestones/${seeded.id}`, { token: REPORTER })
    expect([res.status, res.text]).toEqual([204, ''])
    expect(rows()).toEqual([])
    expect(((await t.http('GET', `${P}/issues/1`, { token: ROOT })).body as Json).milestone).toBeNull()
    expect(await listed()).toEqual([0, '0'])
  })

  it("lists a milestone's issues as IssueBasic, readable ones only, by label priority", async () => {
    const made = await create({ title: 'v2.0' })
    await t.http('PUT', `${P}/labels/urgent`, { token: REPORTER, json: { priority: 1 } })
    for (const [title, labels, confidential] of [
      ['Plain', '', false],
      ['Urgent one', 'urgent', false],
      ['Secret', '', true],
    ] as const)
      await t.http('POST', `${P}/issues`, {
        token: REPORTER,
        json: { title, labels, confidential, milestone_id: made.id },
      })
    const byReporter = await t.http('GET', `${P}/milestones/${made.id}/issues`, { token: REPORTER })
    expect(byReporter.status).toBe(200)
    expect((byReporter.body as Json[]).map((i) => i.title)).toEqual(['Urgent one', 'Secret', 'Plain'])
    const first = (byReporter.body as Json[])[0] as Json
    expect(Object.keys(first)).not.toContain('_links')
    // EE's IssueBasic adds `weight` and `blocking_issues_count` after `task_completion_status` (the
    // server behaves as EE by default); `epic`, `iteration` and `health_status` are EE's Issue only.
    expect(Object.keys(first).slice(-5)).toEqual([
      'web_url',
      'time_stats',
      'task_completion_status',
      'weight',
      'blocking_issues_count',
    ])
    expect(Object.keys(first)).not.toContain('epic')
    expect(first).toMatchObject({ milestone: { id: made.id, title: 'v2.0' }, labels: ['urgent'] })
    const byGuest = await t.http('GET', `${P}/milestones/${made.id}/issues`, { token: GUEST })
    expect((byGuest.body as Json[]).map((i) => i.title)).toEqual(['Urgent one', 'Plain'])
    expect(byGuest.headers['x-total']).toBe('2')
    const mrs = await t.http('GET', `${P}/milestones/${made.id}/merge_requests`, { token: GUEST })
    expect([mrs.status, mrs.body, mrs.headers['x-total']]).toEqual([200, [], '0'])
  })
})

describe('milestone rules by release', () => {
  it('needs Developer before GitLab 15.0 and Reporter from it', async () => {
    await start({ version: '14.10.0' })
    const reporter = await t.http('POST', `${P}/milestones`, { token: REPORTER, json: { title: 'x' } })
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const developer = await t.http('POST', `${P}/milestones`, { token: DEVELOPER, json: { title: 'x' } })
    expect(developer.status).toBe(201)
    // Before 16.7 `include_ancestors` is undeclared (ignored) and `include_parent_milestones` defaults to false.
    const list = await t.http('GET', `${P}/milestones`, {
      token: REPORTER,
      query: 'include_ancestors=true&include_parent_milestones=true&per_page=1',
    })
    expect(list.status).toBe(200)
    expect(list.headers.link).toContain('include_parent_milestones=true')
    expect(list.headers.link).not.toContain('include_ancestors')
  })
})
