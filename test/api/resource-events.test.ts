import { collect } from '../../src/api/client.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'

const W = 'acme/widgets'
const { as } = clientsOnSeed(detailSeed)

describe('resource events through the client (answers validated against the schemas)', () => {
  it('lists and gets each kind', async () => {
    const rita = as(T.reporter)
    await rita.issues.update(W, 2, { add_labels: ['bug'], state_event: 'close', weight: 1 })
    const [label] = await collect(rita.resourceEvents.list('label', W, 2))
    expect(label).toMatchObject({ action: 'add', label: { name: 'bug' } })
    const states = await collect(rita.resourceEvents.list('state', W, 2))
    expect(states.map((e) => e.state)).toEqual(['closed'])
    expect((await rita.resourceEvents.get('state', W, 2, states[0]!.id)).id).toBe(states[0]!.id)
    expect((await collect(rita.resourceEvents.list('weight', W, 2))).map((e) => e.weight)).toEqual([1])
    expect(await collect(rita.resourceEvents.list('milestone', W, 2))).toEqual([])
    const missing = await apiFailure(rita.resourceEvents.get('label', W, 2, 9999))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
  })
})
