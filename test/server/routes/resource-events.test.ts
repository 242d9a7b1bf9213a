import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, T } from './issue-details-seed.js'

let t: TestServer
afterEach(() => t.close())

type Json = Record<string, unknown>

const events = async (kind: string, iid = 2, token: string = T.guest) => {
  const res = await t.http('GET', `${P}/issues/${iid}/resource_${kind}_events`, { token })
  expect(res.status).toBe(200)
  return res.body as Json[]
}
const edit = async (iid: number, json: Json, token: string = T.reporter) =>
  expect((await t.http('PUT', `${P}/issues/${iid}`, { token, json })).status).toBe(200)
const milestoneId = async () =>
  (((await t.http('GET', `${P}/issues/1`, { token: T.root })).body as Json).milestone as Json).id

describe('resource events (EE)', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('label events: added and removed, by whom, with the label, in GitLab key order', async () => {
    await edit(2, { add_labels: 'bug,only-here' })
    await edit(2, { remove_labels: 'bug' })
    const list = await events('label')
    expect(list.map((e) => [(e.label as Json).name, e.action])).toEqual([
      ['bug', 'add'],
      ['only-here', 'add'],
      ['bug', 'remove'],
    ])
    const issue = (await t.http('GET', `${P}/issues/2`, { token: T.root })).body as Json
    expect(Object.keys(list[0] as Json)).toEqual([
      'id',
      'user',
      'created_at',
      'resource_type',
      'resource_id',
      'label',
      'action',
    ])
    expect(list[0]).toMatchObject({
      user: { username: 'rita' },
      resource_type: 'Issue',
      resource_id: issue.id,
    })
    expect((list[0]?.label as Json).color).toBe('#d9534f')
    const one = await t.http('GET', `${P}/issues/2/resource_label_events/${list[2]?.id}`, { token: T.guest })
    expect(one.body).toEqual(list[2])
  })

  it('milestone and state events, from edits and quick actions; an issue created with both records them', async () => {
    const id = await milestoneId()
    await edit(2, { milestone_id: id })
    await edit(2, { state_event: 'close' })
    await edit(2, { milestone_id: 0 })
    const made = await t.http('POST', `${P}/issues/2/notes`, { token: T.reporter, json: { body: '/reopen' } })
    expect(made.status).toBe(202)
    const milestones = await events('milestone')
    expect(milestones.map((e) => [(e.milestone as Json).title, e.action, e.state])).toEqual([
      ['v1.0', 'add', 'opened'],
      ['v1.0', 'remove', 'closed'],
    ])
    expect(Object.keys(milestones[0] as Json)).toEqual([
      'id',
      'user',
      'created_at',
      'resource_type',
      'resource_id',
      'milestone',
      'action',
      'state',
    ])
    const states = await events('state')
    expect(states.map((e) => [e.state, (e.user as Json).username])).toEqual([
      ['closed', 'rita'],
      ['reopened', 'rita'],
    ])
    expect(Object.keys(states[0] as Json)).toEqual([
      'id',
      'user',
      'created_at',
      'resource_type',
      'resource_id',
      'source_commit',
      'source_merge_request_id',
      'state',
    ])

    const created = await t.http('POST', `${P}/issues`, {
      token: T.reporter,
      json: { title: 'New', labels: 'bug', milestone_id: id },
    })
    const iid = (created.body as Json).iid as number
    expect((await events('label', iid)).map((e) => e.action)).toEqual(['add'])
    expect((await events('milestone', iid)).map((e) => e.action)).toEqual(['add'])
    expect(await events('state', iid)).toEqual([])
  })

  it('weight events on EE, and an empty iteration list', async () => {
    await edit(2, { weight: 3 })
    const made = await t.http('POST', `${P}/issues/2/notes`, {
      token: T.reporter,
      json: { body: '/clear_weight' },
    })
    expect(made.status).toBe(202)
    const weights = await events('weight')
    expect(weights.map((e) => e.weight)).toEqual([3, null])
    expect(Object.keys(weights[0] as Json)).toEqual(['id', 'user', 'created_at', 'issue_id', 'weight'])
    expect(await events('iteration')).toEqual([])
  })

  it("refusals with GitLab's bodies", async () => {
    await edit(2, { state_event: 'close' })
    const [closed] = await events('state')
    const cases: [string, string | undefined, number, unknown][] = [
      [`${P}/issues/2/resource_state_events`, undefined, 401, { message: '401 Unauthorized' }],
      [`${P}/issues/2/resource_state_events`, T.outsider, 404, { message: '404 Project Not Found' }],
      [`${P}/issues/99/resource_state_events`, T.guest, 404, { message: '404 Not found' }],
      [`${P}/issues/x/resource_state_events`, T.guest, 404, { message: '404 Not found' }],
      [`${P}/issues/2/resource_state_events/9999`, T.guest, 404, { message: '404 Not found' }],
      [`${P}/issues/1/resource_state_events/${closed?.id}`, T.guest, 404, { message: '404 Not found' }],
      [`${P}/issues/2/resource_label_events/${closed?.id}x`, T.guest, 404, { message: '404 Not found' }],
    ]
    for (const [path, token, status, body] of cases) {
      const res = await t.http('GET', path, token ? { token } : {})
      expect([path, res.status, res.body]).toEqual([path, status, body])
    }
  })

  it('reset drops API-made events', async () => {
    await edit(2, { state_event: 'close' })
    expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(200)
    expect(await events('state')).toEqual([])
  })
})

describe('resource events (CE)', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed, { edition: 'ce' })
  })

  it('has no weight or iteration events', async () => {
    for (const kind of ['weight', 'iteration']) {
      const res = await t.http('GET', `${P}/issues/2/resource_${kind}_events`, { token: T.guest })
      expect(res.status).toBe(404)
    }
    expect(await events('state')).toEqual([])
  })
})
