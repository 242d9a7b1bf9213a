import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, OTHER, P, T } from './issue-details-seed.js'

let t: TestServer
beforeEach(async () => {
  t = await startServer(detailSeed)
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const get = async (path: string, token: string = T.root) =>
  (await t.http('GET', path, { token })).body as Json
const idOf = async (iid: number) => (await get(`${P}/issues/${iid}`)).id as number
const manualOrder = async () =>
  (
    (await t.http('GET', `${P}/issues`, { token: T.root, query: 'order_by=relative_position&sort=asc' }))
      .body as Json[]
  ).map((i) => i.iid)

describe('PUT /projects/:id/issues/:issue_iid/reorder', () => {
  it('places the issue after move_before_id and before move_after_id; lists follow', async () => {
    const res = await t.http('PUT', `${P}/issues/1/reorder`, {
      token: T.reporter,
      json: { move_before_id: await idOf(2), move_after_id: await idOf(3) },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ iid: 1, subscribed: true })
    expect(await manualOrder()).toEqual([2, 1, 3, 4, 5, 6])
  })

  it('takes one neighbour: after the last, before the first', async () => {
    await t.http('PUT', `${P}/issues/1/reorder`, {
      token: T.reporter,
      json: { move_before_id: await idOf(6) },
    })
    expect(await manualOrder()).toEqual([2, 3, 4, 5, 6, 1])
    await t.http('PUT', `${P}/issues/5/reorder`, {
      token: T.reporter,
      form: `move_after_id=${await idOf(2)}`,
    })
    expect(await manualOrder()).toEqual([5, 2, 3, 4, 6, 1])
  })

  it('keeps working when neighbours leave no room (positions are respread)', async () => {
    const [a, b] = [await idOf(2), await idOf(3)]
    for (let n = 0; n < 14; n++) {
      const iid = n % 2 === 0 ? 1 : 4
      const res = await t.http('PUT', `${P}/issues/${iid}/reorder`, {
        token: T.reporter,
        json: { move_before_id: a, move_after_id: n === 0 ? b : await idOf(n % 2 === 0 ? 4 : 1) },
      })
      expect(res.status).toBe(200)
    }
    const order = await manualOrder()
    expect(order.indexOf(2)).toBeLessThan(order.indexOf(1))
    expect(order.slice(0, 3)).toEqual([2, 4, 1])
  })

  it.each([
    [
      {},
      400,
      { error: 'move_after_id, move_before_id are missing, at least one parameter must be provided' },
    ],
    [{ move_after_id: 'x' }, 400, { error: 'move_after_id is invalid' }],
    [{ move_after_id: 0 }, 422, { message: { error: 'Unprocessable Entity' } }],
    [{ move_after_id: 999999 }, 422, { message: { error: 'Unprocessable Entity' } }],
  ])('refuses %j and changes nothing', async (json, status, body) => {
    const before = await manualOrder()
    const res = await t.http('PUT', `${P}/issues/1/reorder`, { token: T.reporter, json })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
    expect(await manualOrder()).toEqual(before)
  })

  it('refuses an issue of another root namespace with 422', async () => {
    const lab = (await get('/api/v4/projects/solo%2Flab/issues/1')).id
    const res = await t.http('PUT', `${P}/issues/1/reorder`, {
      token: T.maintainer,
      json: { move_after_id: lab },
    })
    expect(res.status).toBe(422)
  })

  it('403 for a guest, 404 Issue Not Found for a missing issue, 400 for a bad iid, 401 anonymous', async () => {
    const json = { move_after_id: await idOf(2) }
    const guest = await t.http('PUT', `${P}/issues/1/reorder`, { token: T.guest, json })
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    const missing = await t.http('PUT', `${P}/issues/99/reorder`, { token: T.reporter, json })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Issue Not Found' }])
    const bad = await t.http('PUT', `${P}/issues/x/reorder`, { token: T.reporter, json })
    expect([bad.status, bad.body]).toEqual([400, { error: 'issue_iid is invalid' }])
    expect((await t.http('PUT', `${P}/issues/1/reorder`, { json })).status).toBe(401)
    expect(await manualOrder()).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('lets the author (a guest) reorder their own issue', async () => {
    const res = await t.http('PUT', `${P}/issues/4/reorder`, {
      token: T.guest,
      json: { move_before_id: await idOf(6) },
    })
    expect(res.status).toBe(200)
  })
})

describe('POST /projects/:id/issues/:issue_iid/move', () => {
  const otherId = async () => (await get(OTHER)).id as number

  it('creates the issue in the target with the next iid, carries labels and milestone by name, closes the original', async () => {
    await t.http('POST', `${P}/issues/1/notes`, { token: T.reporter, json: { body: 'a comment' } })
    const res = await t.http('POST', `${P}/issues/1/move`, {
      token: T.maintainer,
      json: { to_project_id: await otherId() },
    })
    expect(res.status).toBe(201)
    const moved = res.body as Json
    expect(moved).toMatchObject({
      iid: 2,
      project_id: await otherId(),
      title: 'First',
      state: 'opened',
      labels: ['bug'],
      milestone: { title: 'v1.0', project_id: await otherId() },
      author: { username: 'mark' },
      assignees: [{ username: 'rita' }],
      user_notes_count: 1,
      time_stats: { time_estimate: 3600, total_time_spent: 1800 },
      moved_to_id: null,
      subscribed: true,
    })
    const original = await get(`${P}/issues/1`)
    expect(original).toMatchObject({
      state: 'closed',
      moved_to_id: moved.id,
      closed_by: { username: 'mark' },
    })
    const notes = (await get(`${OTHER}/issues/2/notes?sort=asc`)) as unknown as Json[]
    expect(notes.map((n) => [n.body, n.system])).toEqual([
      ['a comment', false],
      ['moved from widgets#1', true],
    ])
    const left = (await get(`${P}/issues/1/notes`)) as unknown as Json[]
    expect(left[0]).toMatchObject({ body: 'moved to other#2', system: true })
  })

  it.each([
    ['the same project', 'widgets', 1, T.maintainer, 'Cannot move issue to project it originates from!'],
    ['a test case', 'other', 5, T.maintainer, "Cannot move issues of 'test_case' type."],
    ['a guest', 'other', 2, T.guest, 'Cannot move issue due to insufficient permissions!'],
    [
      'a target the caller cannot see',
      'lab',
      2,
      T.reporter,
      'Cannot move issue due to insufficient permissions!',
    ],
  ])('400 for %s and nothing moves', async (_what, to, iid, token, message) => {
    const ids: Record<string, string> = { widgets: P, other: OTHER, lab: '/api/v4/projects/solo%2Flab' }
    const toId = (await get(ids[to] as string)).id
    const res = await t.http('POST', `${P}/issues/${iid}/move`, { token, json: { to_project_id: toId } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message })
    expect(await get(`${P}/issues/${iid}`)).toMatchObject({ moved_to_id: null, state: 'opened' })
    expect(((await get(`${OTHER}/issues`)) as unknown as Json[]).length).toBe(1)
  })

  it('refuses an issue that was moved already', async () => {
    const to = await otherId()
    await t.http('POST', `${P}/issues/2/move`, { token: T.maintainer, json: { to_project_id: to } })
    const again = await t.http('POST', `${P}/issues/2/move`, {
      token: T.maintainer,
      json: { to_project_id: to },
    })
    expect(again.body).toEqual({ message: 'Cannot move issue due to insufficient permissions!' })
  })

  it('validates to_project_id and finds the target', async () => {
    const missing = await t.http('POST', `${P}/issues/1/move`, { token: T.maintainer, json: {} })
    expect([missing.status, missing.body]).toEqual([400, { error: 'to_project_id is missing' }])
    const bad = await t.http('POST', `${P}/issues/1/move`, {
      token: T.maintainer,
      json: { to_project_id: 'x' },
    })
    expect(bad.body).toEqual({ error: 'to_project_id is invalid' })
    const none = await t.http('POST', `${P}/issues/1/move`, {
      token: T.maintainer,
      json: { to_project_id: 9999 },
    })
    expect([none.status, none.body]).toEqual([404, { message: '404 Project Not Found' }])
    const issue = await t.http('POST', `${P}/issues/99/move`, {
      token: T.maintainer,
      json: { to_project_id: 1 },
    })
    expect([issue.status, issue.body]).toEqual([404, { message: '404 Not found' }])
    expect(await get(`${P}/issues/1`)).toMatchObject({ state: 'opened', moved_to_id: null })
  })
})
