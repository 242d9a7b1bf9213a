import { collect } from '../../src/api/client.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { startServer, type TestServer } from '../support/server.js'
import { apiFailure, clientPool } from '../support/client-pool.js'

const W = 'acme/widgets'
let t: TestServer
const { as, closeAll } = clientPool(() => t.baseUrl)
afterEach(async () => {
  await closeAll()
  await t.close()
})

describe('issue notes through the client (EE)', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('creates a comment (the note record) and lists lazily, newest first or oldest first', async () => {
    const gus = as(T.guest)
    const note = await gus.notes.create(W, 2, { body: 'one' })
    if (!('id' in note)) throw new Error('expected a note')
    expect(note).toMatchObject({
      body: 'one',
      author: { username: 'gus' },
      system: false,
      noteable_type: 'Issue',
      noteable_iid: 2,
      commands_changes: {},
    })
    await gus.notes.create(W, 2, { body: 'two' })
    await gus.notes.create(W, 2, { body: 'three' })
    expect((await collect(gus.notes.list(W, 2))).map((n) => n.body)).toEqual(['three', 'two', 'one'])
    const asc = await collect(gus.notes.list(W, 2, { sort: 'asc' }, { perPage: 2 }))
    expect(asc.map((n) => n.body)).toEqual(['one', 'two', 'three'])
    expect((await gus.issues.get(W, 2)).user_notes_count).toBe(3)
  })

  it('a body of only /promote answers 202 {commands_changes, summary}: the issue becomes an epic', async () => {
    const rita = as(T.reporter)
    const result = await rita.notes.create(W, 2, { body: '/promote' })
    expect(result).toEqual({
      commands_changes: { promote_to_epic: true },
      summary: ['Promoted issue to an epic.'],
    })
    expect(await rita.issues.get(W, 2)).toMatchObject({ state: 'closed', user_notes_count: 0 })
    const system = await collect(rita.notes.list(W, 2))
    expect(system.map((n) => [n.body, n.system])).toEqual([['promoted to epic &1', true]])
  })

  it('/promote with text: the note, with commands_changes.promote_to_epic', async () => {
    const note = await as(T.reporter).notes.create(W, 1, { body: 'Too big.\n/promote\nSee the epic.' })
    expect(note).toMatchObject({
      body: 'Too big.\nSee the epic.',
      commands_changes: { promote_to_epic: true },
    })
  })

  it("surfaces GitLab's 400, 401 and 403 as GitLabApiError; nothing stored", async () => {
    const gus = as(T.guest)
    const blank = await apiFailure(gus.notes.create(W, 2, { body: '  ' }))
    expect(blank).toMatchObject({
      status: 400,
      method: 'POST',
      path: '/projects/acme%2Fwidgets/issues/2/notes',
      body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' },
    })
    const anon = await apiFailure(as().notes.create('acme/public', 1, { body: 'hi' }))
    expect(anon.status).toBe(401)
    const anonList = await apiFailure(collect(as().notes.list('acme/public', 1)))
    expect(anonList.status).toBe(401)
    await as(T.root).issues.update('acme/public', 1, { discussion_locked: true })
    const locked = await apiFailure(as(T.outsider).notes.create('acme/public', 1, { body: 'x' }))
    expect(locked).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect(await collect(gus.notes.list(W, 2))).toEqual([])
  })
  it('gets, edits and deletes one note; refusals are GitLabApiError', async () => {
    const gus = as(T.guest)
    const made = await gus.notes.create(W, 2, { body: 'Frist' })
    if (!('id' in made)) throw new Error('expected a note')
    expect((await gus.notes.get(W, 2, made.id)).body).toBe('Frist')
    expect((await gus.notes.update(W, 2, made.id, { body: 'First' })).body).toBe('First')
    const other = await apiFailure(as(T.reporter).notes.update(W, 2, made.id, { body: 'Mine now' }))
    expect([other.status, other.body]).toEqual([403, { message: '403 Forbidden' }])
    await gus.notes.remove(W, 2, made.id)
    const gone = await apiFailure(gus.notes.get(W, 2, made.id))
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }])
  })
})

it('/promote stays text on CE (201 with the note)', async () => {
  t = await startServer(detailSeed, { edition: 'ce' })
  const note = await as(T.reporter).notes.create(W, 2, { body: '/promote' })
  expect(note).toMatchObject({ body: '/promote', commands_changes: {} })
})
