import { collect } from '../../src/api/client.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'

const W = 'acme/widgets'
const { as } = clientsOnSeed(detailSeed)

describe('discussions through the client (answers validated against the schemas)', () => {
  it('starts, replies, lists, edits and deletes', async () => {
    const rita = as(T.reporter)
    const made = await rita.discussions.create(W, 2, { body: 'Shall we?' })
    if (!('id' in made)) throw new Error('expected a discussion')
    const reply = await as(T.guest).discussions.reply(W, 2, made.id, { body: 'Yes' })
    if (!('id' in reply)) throw new Error('expected a note')
    const all = await collect(rita.discussions.list(W, 2, { perPage: 1 }))
    expect(all.map((d) => d.notes.map((n) => n.body))).toEqual([['Shall we?', 'Yes']])
    const first = made.notes[0]!.id
    expect((await rita.discussions.updateNote(W, 2, made.id, first, { body: 'Shall we now?' })).body).toBe(
      'Shall we now?',
    )
    await rita.discussions.removeNote(W, 2, made.id, first)
    expect((await rita.discussions.get(W, 2, made.id)).notes.map((n) => n.body)).toEqual(['Yes'])
    const missing = await apiFailure(rita.discussions.get(W, 2, 'f'.repeat(40)))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Discussion Not Found' }])
  })
})
