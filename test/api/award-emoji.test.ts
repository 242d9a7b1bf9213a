import { collect } from '../../src/api/client.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'

const W = 'acme/widgets'
const { as } = clientsOnSeed(detailSeed)

describe('award emoji through the client (answers validated against the schemas)', () => {
  it('awards, lists lazily, gets and takes back, on an issue and on a note', async () => {
    const gus = as(T.guest)
    const issue = { project: W, iid: 2 }
    const up = await gus.awardEmoji.award(issue, '+1')
    expect(up).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue', user: { username: 'gus' } })
    await as(T.reporter).awardEmoji.award(issue, 'tada')
    expect((await collect(gus.awardEmoji.list(issue, { perPage: 1 }))).map((a) => a.name)).toEqual([
      'thumbsup',
      'tada',
    ])
    expect((await gus.issues.get(W, 2)).upvotes).toBe(1)
    expect((await gus.awardEmoji.get(issue, up.id)).id).toBe(up.id)
    await gus.awardEmoji.remove(issue, up.id)
    expect((await gus.issues.get(W, 2)).upvotes).toBe(0)

    const note = await gus.notes.create(W, 2, { body: 'Nice' })
    if (!('id' in note)) throw new Error('expected a note')
    const onNote = { ...issue, noteId: note.id }
    expect((await gus.awardEmoji.award(onNote, 'eyes')).awardable_type).toBe('Note')
    expect((await collect(gus.awardEmoji.list(onNote))).map((a) => a.name)).toEqual(['eyes'])
  })

  it("throws GitLab's 404 and 401", async () => {
    const gus = as(T.guest)
    const issue = { project: W, iid: 2 }
    const bad = await apiFailure(gus.awardEmoji.award(issue, 'nope_nope'))
    expect([bad.status, bad.body]).toEqual([
      404,
      { message: '404 Award Emoji ["Name is not a valid emoji name"] Not Found' },
    ])
    const given = await gus.awardEmoji.award(issue, 'tada')
    const notYours = await apiFailure(as(T.reporter).awardEmoji.remove(issue, given.id))
    expect([notYours.status, notYours.body]).toEqual([401, { message: '401 Unauthorized' }])
  })
})
