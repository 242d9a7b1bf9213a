import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, T } from './issue-details-seed.js'

let t: TestServer
afterEach(() => t.close())

type Json = Record<string, unknown>

const comment = async (iid: number, token: string, body: string, internal = false) => {
  const res = await t.http('POST', `${P}/issues/${iid}/notes`, { token, json: { body, internal } })
  expect(res.status).toBe(201)
  return (res.body as Json).id as number
}
const note = (iid: number, id: number | string) => `${P}/issues/${iid}/notes/${id}`
const bodies = async (iid: number) =>
  (
    (await t.http('GET', `${P}/issues/${iid}/notes`, { token: T.root, query: 'sort=asc' })).body as Json[]
  ).map((n) => n.body)
const userNotes = async (iid: number) =>
  ((await t.http('GET', `${P}/issues/${iid}`, { token: T.root })).body as Json).user_notes_count

/** A system note on issue 2 (a time estimate's), by its id. */
const systemNote = async () => {
  expect(
    (await t.http('POST', `${P}/issues/2/time_estimate`, { token: T.reporter, json: { duration: '1h' } }))
      .status,
  ).toBe(200)
  const notes = (await t.http('GET', `${P}/issues/2/notes`, { token: T.root })).body as Json[]
  return notes.find((n) => n.system)?.id as number
}

describe('one issue note: get, edit, delete', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('gets a note, as the list shows it', async () => {
    const id = await comment(2, T.reporter, 'Hello')
    const res = await t.http('GET', note(2, id), { token: T.guest })
    expect(res.status).toBe(200)
    const [listed] = (await t.http('GET', `${P}/issues/2/notes`, { token: T.guest })).body as Json[]
    expect(res.body).toEqual(listed)
  })

  it('get: 401, hidden project, missing, another issue, invalid id, internal note', async () => {
    const id = await comment(2, T.reporter, 'Hello')
    const internal = await comment(2, T.planner, 'Members only', true)
    const cases: [string, string | undefined, number, unknown][] = [
      [note(2, id), undefined, 401, { message: '401 Unauthorized' }],
      [note(2, id), T.outsider, 404, { message: '404 Project Not Found' }],
      [note(2, 9999), T.guest, 404, { message: '404 Not found' }],
      [note(1, id), T.guest, 404, { message: '404 Not found' }],
      [note(2, 'abc'), T.guest, 400, { error: 'note_id is invalid' }],
      [note(2, internal), T.guest, 404, { message: '404 Note Not Found' }],
    ]
    for (const [path, token, status, body] of cases) {
      const res = await t.http('GET', path, token ? { token } : {})
      expect([path, token, res.status, res.body]).toEqual([path, token, status, body])
    }
    expect((await t.http('GET', note(2, internal), { token: T.reporter })).status).toBe(200)
  })

  it('edits: the author and Maintainers may; 200 with the new body', async () => {
    const id = await comment(2, T.guest, 'Frist')
    const before = (await t.http('GET', note(2, id), { token: T.guest })).body as Json
    const res = await t.http('PUT', note(2, id), { token: T.guest, json: { body: 'First' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, body: 'First', author: { username: 'gus' }, system: false })
    expect((res.body as Json).created_at).toBe(before.created_at)
    const byMaintainer = await t.http('PUT', note(2, id), { token: T.maintainer, json: { body: 'First!' } })
    expect([byMaintainer.status, (byMaintainer.body as Json).body]).toEqual([200, 'First!'])
    // No body: nothing changes.
    const none = await t.http('PUT', note(2, id), { token: T.guest, json: {} })
    expect([none.status, (none.body as Json).body]).toEqual([200, 'First!'])
    expect(await bodies(2)).toEqual(['First!'])
  })

  it("edit refusals: someone else's note, a system note, a blank or over-long body; nothing changes", async () => {
    const id = await comment(2, T.reporter, 'Mine')
    const sys = await systemNote()
    const forbidden = { message: '403 Forbidden' }
    const cases: [number, string | undefined, unknown, number, unknown][] = [
      [id, undefined, { body: 'x' }, 401, { message: '401 Unauthorized' }],
      [id, T.guest, { body: 'x' }, 403, forbidden],
      [id, T.reporter, { body: '' }, 400, { error: 'body is empty' }],
      [id, T.reporter, { body: '   ' }, 400, { error: 'body is empty' }],
      [
        id,
        T.reporter,
        { body: 'x'.repeat(1_000_001) },
        400,
        { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' },
      ],
      [sys, T.reporter, { body: 'x' }, 403, forbidden],
      [sys, T.root, { body: 'x' }, 403, forbidden],
      [9999, T.reporter, { body: 'x' }, 404, { message: '404 Not found' }],
    ]
    for (const [noteId, token, json, status, body] of cases) {
      const res = await t.http('PUT', note(2, noteId), { ...(token ? { token } : {}), json })
      expect([noteId, token, res.status, res.body]).toEqual([noteId, token, status, body])
    }
    expect(await bodies(2)).toEqual(['Mine', 'changed time estimate to 1h'])
  })

  it("deletes: 204, the count drops; someone else's note and system notes are refused", async () => {
    const mine = await comment(2, T.guest, 'one')
    const theirs = await comment(2, T.reporter, 'two')
    const sys = await systemNote()
    expect(await userNotes(2)).toBe(2)
    for (const [id, token] of [
      [theirs, T.guest],
      [sys, T.root],
      [sys, T.reporter],
    ] as const) {
      const res = await t.http('DELETE', note(2, id), { token })
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    expect((await t.http('DELETE', note(2, mine))).status).toBe(401)
    expect((await t.http('DELETE', note(2, mine), { token: T.outsider })).status).toBe(404)
    expect(await userNotes(2)).toBe(2)

    const del = await t.http('DELETE', note(2, mine), { token: T.guest })
    expect([del.status, del.text]).toEqual([204, ''])
    expect((await t.http('DELETE', note(2, theirs), { token: T.maintainer })).status).toBe(204)
    expect(await userNotes(2)).toBe(0)
    expect(await bodies(2)).toEqual(['changed time estimate to 1h'])
    const again = await t.http('DELETE', note(2, mine), { token: T.guest })
    expect([again.status, again.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('reset drops API-made notes and their edits', async () => {
    const id = await comment(2, T.guest, 'one')
    expect((await t.http('PUT', note(2, id), { token: T.guest, json: { body: 'two' } })).status).toBe(200)
    expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(200)
    expect(await bodies(2)).toEqual([])
    expect(await userNotes(2)).toBe(0)
  })
})
