import { collect, NOT_MODIFIED } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { widgetsSeed } from '../support/seeds.js'

/* `client.labels` and `client.milestones` against the reference server, every body checked against src/schema. */

const W = 'acme/widgets'
const ALICE = 'glpat-alice-token' // maintainer
const CAROL = 'glpat-carol-token' // no membership
const { as } = clientsOnSeed(widgetsSeed)

describe('client.labels', () => {
  it('creates, reads by title, edits, subscribes and deletes', async () => {
    const alice = as(ALICE)
    const made = await alice.labels.create(W, { name: 'needs/triage', color: 'gold', priority: 1 })
    expect(made).toMatchObject({
      name: 'needs/triage',
      color: '#FFD700',
      priority: 1,
      is_project_label: true,
    })
    expect(await alice.labels.get(W, 'needs/triage')).toEqual(made)
    const edited = await alice.labels.update(W, made.id, { new_name: 'triage', priority: null })
    expect(edited).toMatchObject({ id: made.id, name: 'triage', priority: null })
    expect(await alice.labels.subscribe(W, 'triage')).toMatchObject({ subscribed: true })
    expect(await alice.labels.subscribe(W, 'triage')).toBe(NOT_MODIFIED)
    expect(await alice.labels.unsubscribe(W, made.id)).toMatchObject({ subscribed: false })
    const searched = await collect(alice.labels.list(W, { search: 'TRI' }))
    expect(searched.map((l) => l.name)).toEqual(['triage'])
    await alice.labels.remove(W, 'triage')
    expect((await collect(alice.labels.list(W))).map((l) => l.name)).toEqual(['bug', 'docs', 'feature'])
  })

  it("surfaces GitLab's errors", async () => {
    const taken = await apiFailure(as(ALICE).labels.create(W, { name: 'bug', color: '#000' }))
    expect(taken).toMatchObject({ status: 409, body: { message: 'Label already exists' } })
    const invalid = await apiFailure(as(ALICE).labels.create(W, { name: 'x', color: 'nope' }))
    expect(invalid).toMatchObject({
      status: 400,
      body: { message: { color: ['must be a valid color code'] } },
    })
    const hidden = await apiFailure(as(CAROL).labels.get(W, 'bug'))
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
  })
})

describe('client.milestones', () => {
  it('creates, filters, closes, lists its issues and deletes', async () => {
    const alice = as(ALICE)
    const made = await alice.milestones.create(W, { title: 'v3.0', start_date: '2026-01-01' })
    expect(made).toMatchObject({ iid: 3, title: 'v3.0', state: 'active', start_date: '2026-01-01' })
    const closed = await alice.milestones.update(W, made.id, { state_event: 'close' })
    expect(closed.state).toBe('closed')
    expect((await collect(alice.milestones.list(W, { state: 'closed' }))).map((m) => m.title)).toEqual([
      'v3.0',
    ])
    expect((await collect(alice.milestones.list(W, { iids: [1, 3] }))).map((m) => m.title)).toEqual([
      'v1.0',
      'v3.0',
    ])
    const v1 = (await collect(alice.milestones.list(W, { title: 'v1.0' })))[0]!
    const issues = await collect(alice.milestones.issues(W, v1.id))
    expect(issues.map((i) => i.title)).toContain('Crash on start')
    expect(await collect(alice.milestones.mergeRequests(W, v1.id))).toEqual([])
    await alice.milestones.remove(W, made.id)
    const gone = await apiFailure(alice.milestones.get(W, made.id))
    expect(gone).toMatchObject({ status: 404, body: { message: '404 Not found' } })
  })
})

describe('client.labels.group and client.milestones.group', () => {
  it('creates, reads, edits and deletes group labels and milestones, and promotes', async () => {
    const alice = as(ALICE)
    const label = await alice.labels.group.create('acme', { name: 'team', color: 'teal' })
    expect(label).toMatchObject({ name: 'team', color: '#008080', subscribed: false })
    expect(await alice.labels.group.get('acme', 'team')).toEqual(label)
    expect(await alice.labels.group.update('acme', label.id, { new_name: 'crew' })).toMatchObject({
      name: 'crew',
    })
    expect(await alice.labels.group.subscribe('acme', 'crew')).toMatchObject({ subscribed: true })
    expect(await alice.labels.group.subscribe('acme', 'crew')).toBe(NOT_MODIFIED)
    expect(await alice.labels.group.unsubscribe('acme', 'crew')).toMatchObject({ subscribed: false })
    expect((await collect(alice.labels.group.list('acme/platform'))).map((l) => l.name)).toEqual(['crew'])
    const taken = await apiFailure(alice.labels.group.create('acme', { name: 'crew', color: '#000' }))
    expect(taken).toMatchObject({ status: 409, body: { message: 'Label already exists' } })
    await alice.labels.group.remove('acme', 'crew')
    expect(await collect(alice.labels.group.list('acme'))).toEqual([])

    const promoted = await alice.labels.promote(W, 'docs')
    expect(promoted).toMatchObject({ name: 'docs', description: 'Documentation' })
    expect((await collect(alice.labels.list(W))).find((l) => l.name === 'docs')).toMatchObject({
      id: promoted.id,
      is_project_label: false,
    })

    const milestone = await alice.milestones.group.create('acme', { title: 'Q3', due_date: '2026-09-30' })
    expect(milestone).toMatchObject({ iid: 1, title: 'Q3', group_id: expect.any(Number) })
    expect(await alice.milestones.group.get('acme', milestone.id)).toEqual(milestone)
    const closed = await alice.milestones.group.update('acme', milestone.id, { state_event: 'close' })
    expect(closed.state).toBe('closed')
    expect(await collect(alice.milestones.group.issues('acme', milestone.id))).toEqual([])
    expect(await collect(alice.milestones.group.mergeRequests('acme', milestone.id))).toEqual([])
    const both = await collect(alice.milestones.list(W, { include_ancestors: true, state: 'closed' }))
    expect(both.map((m) => m.title)).toEqual(['Q3'])
    await alice.milestones.group.remove('acme', milestone.id)
    const missing = await apiFailure(alice.milestones.group.get('acme', milestone.id))
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Not found' } })

    const [v1] = await collect(alice.milestones.list(W, { title: 'v1.0' }))
    expect(await alice.milestones.promote(W, (v1 as { id: number }).id)).toBe(200)
    expect((await collect(alice.milestones.group.list('acme'))).map((m) => [m.title, m.iid])).toEqual([
      ['v1.0', 1],
    ])
  })
})
