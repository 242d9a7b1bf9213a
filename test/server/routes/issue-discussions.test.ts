import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, T } from './issue-details-seed.js'

let t: TestServer
afterEach(() => t.close())

type Json = Record<string, unknown>

const D = `${P}/issues/2/discussions`
const start = async (body: string, token: string = T.reporter) => {
  const res = await t.http('POST', D, { token, json: { body } })
  expect(res.status).toBe(201)
  return res.body as { id: string; individual_note: boolean; notes: Json[] }
}
const list = async (token: string = T.root, query?: string) =>
  t.http('GET', D, { token, ...(query ? { query } : {}) })

describe('issue discussions', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('starts a thread: 201 with a 40-hex id and one DiscussionNote; replies join it', async () => {
    const thread = await start('Shall we?')
    expect(Object.keys(thread)).toEqual(['id', 'individual_note', 'notes'])
    expect(thread.id).toMatch(/^[0-9a-f]{40}$/)
    expect(thread.individual_note).toBe(false)
    expect(thread.notes).toHaveLength(1)
    expect(thread.notes[0]).toMatchObject({ body: 'Shall we?', type: 'DiscussionNote', resolvable: false })

    const reply = await t.http('POST', `${D}/${thread.id}/notes`, { token: T.guest, json: { body: 'Yes' } })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({ body: 'Yes', type: 'DiscussionNote', author: { username: 'gus' } })

    const one = await t.http('GET', `${D}/${thread.id}`, { token: T.guest })
    expect(one.status).toBe(200)
    expect((one.body as Json).notes as Json[]).toMatchObject([{ body: 'Shall we?' }, { body: 'Yes' }])
    expect(((await t.http('GET', `${P}/issues/2`, { token: T.root })).body as Json).user_notes_count).toBe(2)
  })

  it('lists individual notes as discussions of one note, in order, paged by discussion', async () => {
    await t.http('POST', `${P}/issues/2/notes`, { token: T.reporter, json: { body: 'Plain comment' } })
    const thread = await start('Thread')
    await t.http('POST', `${D}/${thread.id}/notes`, { token: T.guest, json: { body: 'Reply' } })
    await t.http('POST', `${P}/issues/2/time_estimate`, { token: T.reporter, json: { duration: '1h' } })
    const res = await list()
    expect(res.status).toBe(200)
    const all = res.body as { id: string; individual_note: boolean; notes: Json[] }[]
    expect(all.map((d) => [d.individual_note, d.notes.map((n) => n.body)])).toEqual([
      [true, ['Plain comment']],
      [false, ['Thread', 'Reply']],
      [true, ['changed time estimate to 1h']],
    ])
    expect(all[0]?.id).toMatch(/^[0-9a-f]{40}$/)
    expect(all[0]?.notes[0]?.type).toBeNull()
    expect(res.headers['x-total']).toBe('3')
    const second = await list(T.root, 'per_page=1&page=2')
    expect((second.body as { id: string }[]).map((d) => d.id)).toEqual([thread.id])
    // An individual note's discussion is found by its id.
    expect((await t.http('GET', `${D}/${all[0]?.id}`, { token: T.guest })).status).toBe(200)
  })

  it('a reply to an individual note makes it a thread; system notes cannot be replied to', async () => {
    await t.http('POST', `${P}/issues/2/notes`, { token: T.reporter, json: { body: 'Plain' } })
    await t.http('POST', `${P}/issues/2/time_estimate`, { token: T.reporter, json: { duration: '1h' } })
    const [plain, system] = (await list()).body as { id: string }[]
    const reply = await t.http('POST', `${D}/${plain?.id}/notes`, { token: T.guest, json: { body: 'Re' } })
    expect(reply.status).toBe(201)
    const thread = (await t.http('GET', `${D}/${plain?.id}`, { token: T.guest })).body as Json
    expect(thread.individual_note).toBe(false)
    expect((thread.notes as Json[]).map((n) => [n.body, n.type])).toEqual([
      ['Plain', 'DiscussionNote'],
      ['Re', 'DiscussionNote'],
    ])
    const refused = await t.http('POST', `${D}/${system?.id}/notes`, { token: T.guest, json: { body: 'Re' } })
    expect([refused.status, refused.body]).toEqual([
      400,
      { message: '400 Bad request - Discussion can not be replied to.' },
    ])
    expect(((await t.http('GET', `${D}/${system?.id}`, { token: T.guest })).body as Json).notes).toHaveLength(
      1,
    )
  })

  it('edits and deletes notes of a thread under the notes rules', async () => {
    const thread = await start('Frist', T.guest)
    const noteId = thread.notes[0]?.id as number
    const path = `${D}/${thread.id}/notes/${noteId}`
    expect((await t.http('GET', path, { token: T.guest })).body).toMatchObject({ id: noteId, body: 'Frist' })
    const edit = await t.http('PUT', path, { token: T.guest, json: { body: 'First' } })
    expect([edit.status, (edit.body as Json).body]).toEqual([200, 'First'])
    const cases: [string, unknown, number, unknown][] = [
      [T.reporter, { body: 'x' }, 403, { message: '403 Forbidden' }],
      [T.guest, {}, 400, { error: 'body, resolved are missing, exactly one parameter must be provided' }],
      [T.guest, { body: 'x', resolved: true }, 400, { error: 'body, resolved are mutually exclusive' }],
      [T.guest, { resolved: true }, 400, { message: '400 Bad request - Note is not resolvable' }],
      [T.guest, { body: '' }, 400, { message: `400 Bad request - Note {:note=>["can't be blank"]}` }],
    ]
    for (const [token, json, status, body] of cases) {
      const res = await t.http('PUT', path, { token, json })
      expect([json, res.status, res.body]).toEqual([json, status, body])
    }
    expect((await t.http('DELETE', path, { token: T.reporter })).status).toBe(403)
    expect((await t.http('DELETE', path, { token: T.guest })).status).toBe(204)
    const gone = await t.http('GET', `${D}/${thread.id}`, { token: T.guest })
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Discussion Not Found' }])
  })

  it("refusals with GitLab's bodies; nothing stored", async () => {
    const thread = await start('Thread')
    const missing = { message: '404 Discussion Not Found' }
    const cases: [string, string, string | undefined, unknown, number, unknown][] = [
      ['GET', D, undefined, undefined, 401, { message: '401 Unauthorized' }],
      ['POST', D, undefined, { body: 'x' }, 401, { message: '401 Unauthorized' }],
      ['GET', D, T.outsider, undefined, 404, { message: '404 Project Not Found' }],
      ['POST', D, T.outsider, { body: 'x' }, 404, { message: '404 Project Not Found' }],
      ['POST', D, T.guest, {}, 400, { error: 'body is missing' }],
      [
        'POST',
        D,
        T.guest,
        { body: ' ' },
        400,
        { message: `400 Bad request - Note {:note=>["can't be blank"]}` },
      ],
      ['GET', `${D}/${'0'.repeat(40)}`, T.guest, undefined, 404, missing],
      ['POST', `${D}/nope/notes`, T.guest, { body: 'x' }, 404, missing],
      ['GET', `${P}/issues/1/discussions/${thread.id}`, T.guest, undefined, 404, missing],
      ['GET', `${P}/issues/99/discussions`, T.guest, undefined, 404, { message: '404 Not found' }],
      ['GET', `${P}/issues/x/discussions`, T.guest, undefined, 400, { error: 'noteable_id is invalid' }],
      ['GET', `${D}/${thread.id}/notes/x`, T.guest, undefined, 400, { error: 'note_id is invalid' }],
    ]
    for (const [method, path, token, json, status, body] of cases) {
      const res = await t.http(method, path, { ...(token ? { token } : {}), ...(json ? { json } : {}) })
      expect([method, path, res.status, res.body]).toEqual([method, path, status, body])
    }
    expect(((await list()).body as Json[]).length).toBe(1)
  })

  it('internal notes stay out of the discussions of those who may not read them', async () => {
    await t.http('POST', `${P}/issues/2/notes`, { token: T.planner, json: { body: 'Hush', internal: true } })
    expect(((await list(T.guest)).body as Json[]).length).toBe(0)
    expect(((await list(T.planner)).body as Json[]).length).toBe(1)
  })

  it('reset drops API-made discussions', async () => {
    await start('Thread')
    expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(200)
    expect((await list()).body).toEqual([])
  })
})
