import { serverEach } from '../../support/server.js'
import { plannerAndGuest, plannerTokens } from '../../support/seeds.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Group milestones through the API (`lib/api/group_milestones.rb`, `lib/api/milestone_responses.rb`),
 * their use by the group's projects' issues, and promoting a project milestone
 * (`Milestones::PromoteService`): GitLab's entity, statuses and bodies, nothing stored on refusal.
 */

const { root: ROOT, planner: PLANNER, guest: GUEST, outsider: OUTSIDER } = plannerTokens
const G = '/api/v4/groups/acme'
const P = '/api/v4/projects/acme%2Fapp'
const seed = plannerAndGuest(`  - { path: other, visibility: private, members: { pia: planner } }
projects:
  - path: acme/app
    visibility: private
    milestones:
      - { title: v1.0, due_date: 2026-06-30 }
    issues:
      - { title: Seeded, author: pia, milestone: v1.0 }
  - path: acme/web
    visibility: private
    milestones:
      - { title: v1.0 }
    issues:
      - { title: Web, author: pia, milestone: v1.0 }
  - path: other/far
    visibility: private
  - path: pia/solo
    visibility: private
    milestones:
      - { title: mine }
`)
type Json = Record<string, unknown>
const t = serverEach(seed, () => ({ clock: manualClock('2026-03-01T10:00:00.000Z') }))

const db = () => inspectDb(t.server.store)
const groupRows = () =>
  db()
    .prepare('SELECT iid, title, state, group_id FROM milestones WHERE group_id IS NOT NULL ORDER BY id')
    .all()
const KEYS = [
  'id',
  'iid',
  'group_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'due_date',
  'start_date',
  'expired',
  'web_url',
]

describe('POST /groups/:id/milestones', () => {
  it('creates a group milestone with its own iids, in GitLab key order', async () => {
    const res = await t.http('POST', `${G}/milestones`, {
      token: PLANNER,
      json: { title: 'Q3', due_date: '2026-09-30', description: 'Quarter' },
    })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body as Json)).toEqual(KEYS)
    expect(res.body).toMatchObject({
      iid: 1,
      title: 'Q3',
      state: 'active',
      due_date: '2026-09-30',
      expired: false,
      web_url: expect.stringMatching(/\/groups\/acme\/-\/milestones\/1$/),
    })
    const second = await t.http('POST', `${G}/milestones`, { token: PLANNER, json: { title: 'Q4' } })
    expect((second.body as Json).iid).toBe(2)
    const other = await t.http('POST', '/api/v4/groups/other/milestones', {
      token: PLANNER,
      json: { title: 'Q3' },
    })
    expect((other.body as Json).iid).toBe(1)
  })

  it('refuses a missing title, a taken one, bad dates, a guest and a stranger, storing nothing', async () => {
    const cases: [string, Json, number, unknown][] = [
      [PLANNER, {}, 400, { error: 'title is missing' }],
      [
        PLANNER,
        { title: 'v1.0' },
        400,
        {
          message:
            'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
        },
      ],
      [
        PLANNER,
        { title: 'd', start_date: '2026-05-01', due_date: '2026-04-01' },
        400,
        { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
      ],
      [GUEST, { title: 'g' }, 403, { message: '403 Forbidden' }],
      [OUTSIDER, { title: 'o' }, 404, { message: '404 Group Not Found' }],
    ]
    for (const [token, json, status, body] of cases) {
      const res = await t.http('POST', `${G}/milestones`, { token, json })
      expect([res.status, res.body]).toEqual([status, body])
    }
    expect(groupRows()).toEqual([])
  })
})

describe('GET, PUT, DELETE /groups/:id/milestones/:milestone_id', () => {
  it('reads, lists, closes and deletes; 404 for another owner', async () => {
    const made = (await t.http('POST', `${G}/milestones`, { token: PLANNER, json: { title: 'Q3' } }))
      .body as Json
    const read = await t.http('GET', `${G}/milestones/${made.id}`, { token: GUEST })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(made)
    const projectOne = db()
      .prepare('SELECT id FROM milestones WHERE project_id IS NOT NULL LIMIT 1')
      .pluck()
      .get()
    const foreign = await t.http('GET', `${G}/milestones/${projectOne}`, { token: GUEST })
    expect([foreign.status, foreign.body]).toEqual([404, { message: '404 Not found' }])

    const list = await t.http('GET', `${G}/milestones?state=active`, { token: GUEST })
    expect((list.body as Json[]).map((m) => m.title)).toEqual(['Q3'])

    const closed = await t.http('PUT', `${G}/milestones/${made.id}`, {
      token: PLANNER,
      json: { state_event: 'close' },
    })
    expect(closed.status).toBe(200)
    expect((closed.body as Json).state).toBe('closed')
    const none = await t.http('PUT', `${G}/milestones/${made.id}`, { token: PLANNER, json: {} })
    expect(none.status).toBe(400)
    expect(
      (await t.http('PUT', `${G}/milestones/${made.id}`, { token: GUEST, json: { title: 'x' } })).status,
    ).toBe(403)
    expect((await t.http('DELETE', `${G}/milestones/${made.id}`, { token: GUEST })).status).toBe(403)
    expect(groupRows()).toEqual([{ iid: 1, title: 'Q3', state: 'closed', group_id: expect.any(Number) }])
    expect((await t.http('DELETE', `${G}/milestones/${made.id}`, { token: PLANNER })).status).toBe(204)
    expect(groupRows()).toEqual([])
  })

  it("is taken by the group's projects' issues, listed with include_ancestors and under /issues", async () => {
    const made = (await t.http('POST', `${G}/milestones`, { token: PLANNER, json: { title: 'Q3' } }))
      .body as Json
    const issue = await t.http('POST', `${P}/issues`, {
      token: PLANNER,
      json: { title: 'New', milestone_id: made.id },
    })
    expect(issue.status).toBe(201)
    expect((issue.body as Json).milestone).toEqual(made)
    // Another group's project cannot take it.
    const far = await t.http('POST', '/api/v4/projects/other%2Ffar/issues', {
      token: PLANNER,
      json: { title: 'Far', milestone_id: made.id },
    })
    expect((far.body as Json).milestone).toBeNull()

    const withGroup = await t.http('GET', `${P}/milestones?include_ancestors=true`, { token: PLANNER })
    expect(
      (withGroup.body as Json[]).map((m) => [m.title, m.project_id ?? null, m.group_id ?? null]),
    ).toEqual([
      ['v1.0', expect.any(Number), null],
      ['Q3', null, made.group_id],
    ])
    const own = await t.http('GET', `${P}/milestones`, { token: PLANNER })
    expect((own.body as Json[]).map((m) => m.title)).toEqual(['v1.0'])

    const issues = await t.http('GET', `${G}/milestones/${made.id}/issues`, { token: PLANNER })
    expect(issues.status).toBe(200)
    expect((issues.body as Json[]).map((i) => i.title)).toEqual(['New'])
    const mrs = await t.http('GET', `${G}/milestones/${made.id}/merge_requests`, { token: PLANNER })
    expect([mrs.status, mrs.body]).toEqual([200, []])
  })
})

describe('POST /projects/:id/milestones/:milestone_id/promote', () => {
  it("makes the milestone the group's, merging the sibling's of the same title", async () => {
    const id = db()
      .prepare("SELECT m.id FROM milestones m JOIN projects p ON p.id = m.project_id WHERE p.path = 'app'")
      .pluck()
      .get() as number
    const res = await t.http('POST', `${P}/milestones/${id}/promote`, { token: PLANNER })
    expect([res.status, res.body]).toEqual([200, 200])
    expect(groupRows()).toEqual([{ iid: 1, title: 'v1.0', state: 'active', group_id: expect.any(Number) }])
    expect(db().prepare("SELECT COUNT(*) FROM milestones WHERE title = 'v1.0'").pluck().get()).toBe(1)
    const web = await t.http('GET', '/api/v4/projects/acme%2Fweb/issues/1', { token: PLANNER })
    expect((web.body as Json).milestone).toMatchObject({ id, group_id: expect.any(Number), title: 'v1.0' })
  })

  it('answers 403 without the role or a group, 404 for a missing milestone, changing nothing', async () => {
    const before = db().prepare('SELECT * FROM milestones ORDER BY id').all()
    const id = before[0] as { id: number }
    expect((await t.http('POST', `${P}/milestones/${id.id}/promote`, { token: GUEST })).status).toBe(403)
    // A personal project has no group to promote to: `authorize! :admin_milestone, nil` is 403.
    const mine = db().prepare("SELECT id FROM milestones WHERE title = 'mine'").pluck().get()
    const solo = await t.http('POST', `/api/v4/projects/pia%2Fsolo/milestones/${mine}/promote`, {
      token: PLANNER,
    })
    expect([solo.status, solo.body]).toEqual([403, { message: '403 Forbidden' }])
    const missing = await t.http('POST', `${P}/milestones/99999/promote`, { token: PLANNER })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    expect(db().prepare('SELECT * FROM milestones ORDER BY id').all()).toEqual(before)
  })
})

describe('reset', () => {
  it('drops the group milestones made through the API', async () => {
    await t.http('POST', `${G}/milestones`, { token: ROOT, json: { title: 'gone' } })
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBeLessThan(300)
    expect(groupRows()).toEqual([])
  })
})
