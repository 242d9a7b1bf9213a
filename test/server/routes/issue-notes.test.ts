import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, PUBLIC, T } from './issue-details-seed.js'

let t: TestServer
beforeEach(async () => {
  t = await startServer(detailSeed)
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const get = async (path: string, token: string = T.root) =>
  (await t.http('GET', path, { token })).body as Json
const notes = async (iid: number, token: string = T.root) =>
  (await t.http('GET', `${P}/issues/${iid}/notes`, { token, query: 'sort=asc' })).body as Json[]

describe('POST .../subscribe and .../unsubscribe', () => {
  it('201 with subscribed, then 304 with an empty body when nothing changes', async () => {
    const sub = await t.http('POST', `${P}/issues/2/subscribe`, { token: T.guest })
    expect(sub.status).toBe(201)
    expect(sub.body).toMatchObject({ iid: 2, subscribed: true })
    const again = await t.http('POST', `${P}/issues/2/subscribe`, { token: T.guest })
    expect([again.status, again.text]).toEqual([304, ''])
    const unsub = await t.http('POST', `${P}/issues/2/unsubscribe`, { token: T.guest })
    expect([unsub.status, (unsub.body as Json).subscribed]).toEqual([201, false])
    const none = await t.http('POST', `${P}/issues/2/unsubscribe`, { token: T.guest })
    expect([none.status, none.text]).toEqual([304, ''])
    expect((await get(`${P}/issues/2`, T.guest)).subscribed).toBe(false)
  })

  it('authors and assignees are subscribed already: subscribe is 304, unsubscribe works', async () => {
    expect((await t.http('POST', `${P}/issues/1/subscribe`, { token: T.reporter })).status).toBe(304)
    expect((await t.http('POST', `${P}/issues/1/subscribe`, { token: T.maintainer })).status).toBe(304)
    expect((await t.http('POST', `${P}/issues/1/unsubscribe`, { token: T.reporter })).status).toBe(201)
  })

  it('commenters become subscribed unless they unsubscribed before', async () => {
    await t.http('POST', `${P}/issues/2/notes`, { token: T.planner, json: { body: 'hi' } })
    expect((await get(`${P}/issues/2`, T.planner)).subscribed).toBe(true)
    await t.http('POST', `${P}/issues/2/unsubscribe`, { token: T.planner })
    await t.http('POST', `${P}/issues/2/notes`, { token: T.planner, json: { body: 'again' } })
    expect((await get(`${P}/issues/2`, T.planner)).subscribed).toBe(false)
  })

  it('401 anonymous, 404 for a confidential issue the caller cannot read', async () => {
    expect((await t.http('POST', `${PUBLIC}/issues/1/subscribe`)).status).toBe(401)
    await t.http('POST', `${PUBLIC}/issues`, { token: T.root, json: { title: 'Hush', confidential: true } })
    const hidden = await t.http('POST', `${PUBLIC}/issues/2/subscribe`, { token: T.outsider })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Not found' }])
    const store = t.server.store
    const hush = store.issues.byIid(store.projects.byPath('acme/public')!.id, 2)!
    expect(store.issues.subscription(hush.id, 7)).toBeUndefined()
    const otto = await t.http('POST', `${PUBLIC}/issues/1/subscribe`, { token: T.outsider })
    expect(otto.status).toBe(201)
  })
})

describe('POST .../todo', () => {
  it('201 with a pending marked to-do, then 304', async () => {
    const res = await t.http('POST', `${P}/issues/2/todo`, { token: T.guest })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      project: { path_with_namespace: 'acme/widgets', name_with_namespace: 'ACME / Widgets' },
      author: { username: 'gus' },
      action_name: 'marked',
      target_type: 'Issue',
      target: { iid: 2, title: 'Second', subscribed: false },
      target_url: `${t.server.instance.baseUrl}/acme/widgets/-/issues/2`,
      body: 'Second',
      state: 'pending',
    })
    const again = await t.http('POST', `${P}/issues/2/todo`, { token: T.guest })
    expect([again.status, again.text]).toEqual([304, ''])
    expect(t.server.store.todos.ofUser(6)).toHaveLength(1)
  })

  it('401 anonymous, 404 for a hidden issue; nothing stored', async () => {
    expect((await t.http('POST', `${PUBLIC}/issues/1/todo`)).status).toBe(401)
    expect((await t.http('POST', `${P}/issues/2/todo`, { token: T.outsider })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect(t.server.store.todos.ofUser(7)).toHaveLength(0)
  })
})

describe('notes', () => {
  it('creates a comment (201, the note record) and lists it; user_notes_count follows', async () => {
    const res = await t.http('POST', `${P}/issues/2/notes`, { token: T.guest, json: { body: 'Looks bad' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      type: null,
      body: 'Looks bad',
      attachment: null,
      author: { username: 'gus' },
      system: false,
      noteable_type: 'Issue',
      noteable_iid: 2,
      resolvable: false,
      confidential: false,
      internal: false,
      commands_changes: {},
    })
    const list = await t.http('GET', `${P}/issues/2/notes`, { token: T.guest })
    expect((list.body as Json[]).map((n) => n.body)).toEqual(['Looks bad'])
    expect(list.headers['x-total']).toBe('1')
    expect((await get(`${P}/issues/2`)).user_notes_count).toBe(1)
  })

  it('lists newest first by default, oldest first with sort=asc, and filters activity', async () => {
    for (const body of ['one', 'two'])
      await t.http('POST', `${P}/issues/2/notes`, { token: T.guest, json: { body } })
    const desc = (await get(`${P}/issues/2/notes`)) as unknown as Json[]
    expect(desc.map((n) => n.body)).toEqual(['two', 'one'])
    expect((await notes(2)).map((n) => n.body)).toEqual(['one', 'two'])
    const activity = await t.http('GET', `${P}/issues/2/notes`, {
      token: T.root,
      query: 'activity_filter=only_activity',
    })
    expect(activity.body).toEqual([])
    const bad = await t.http('GET', `${P}/issues/2/notes`, { token: T.root, query: 'sort=sideways' })
    expect(bad.body).toEqual({ error: 'sort does not have a valid value' })
  })

  it.each([
    ['no body', {}, { error: 'body is missing' }],
    ['a blank body', { body: '  ' }, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }],
    [
      'a body over 1,000,000 characters',
      { body: 'x'.repeat(1_000_001) },
      { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' },
    ],
  ])('400 for %s and nothing stored', async (_what, json, body) => {
    const res = await t.http('POST', `${P}/issues/2/notes`, { token: T.guest, json })
    expect([res.status, res.body]).toEqual([400, body])
    expect(await notes(2)).toEqual([])
  })

  it('401 anonymous (list and create), 403 on a locked discussion for non-members', async () => {
    expect((await t.http('GET', `${PUBLIC}/issues/1/notes`)).status).toBe(401)
    expect((await t.http('POST', `${PUBLIC}/issues/1/notes`, { json: { body: 'x' } })).status).toBe(401)
    const guest = await t.http('POST', `${P}/issues/6/notes`, { token: T.guest, json: { body: 'member' } })
    expect(guest.status).toBe(201)
    await t.http('PUT', `${PUBLIC}/issues/1`, { token: T.root, json: { discussion_locked: true } })
    const otto = await t.http('POST', `${PUBLIC}/issues/1/notes`, { token: T.outsider, json: { body: 'x' } })
    expect([otto.status, otto.body]).toEqual([403, { message: '403 Forbidden' }])
    // Nothing was stored but the system note of the lock itself.
    const left = (await get(`${PUBLIC}/issues/1/notes`)) as unknown as Json[]
    expect(left.map((n) => [n.system, n.body])).toEqual([[true, 'locked the discussion in this issue']])
  })

  it('hides internal notes from guests', async () => {
    await t.http('POST', `${P}/issues/2/notes`, {
      token: T.reporter,
      json: { body: 'staff only', internal: true },
    })
    expect((await notes(2, T.reporter)).map((n) => n.internal)).toEqual([true])
    expect(await notes(2, T.guest)).toEqual([])
  })
})

describe('/promote', () => {
  it('a body of only /promote: 202, the epic exists, the issue is closed, no comment', async () => {
    const res = await t.http('POST', `${P}/issues/2/notes`, { token: T.reporter, json: { body: '/promote' } })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({
      commands_changes: { promote_to_epic: true },
      summary: ['Promoted issue to an epic.'],
    })
    const epic = t.server.store.epics.byIid(t.server.store.namespaces.byPath('acme')!.id, 1)
    expect(epic).toMatchObject({ title: 'Second', author_id: 4 })
    expect(await get(`${P}/issues/2`)).toMatchObject({ state: 'closed', user_notes_count: 0 })
    expect((await notes(2)).map((n) => [n.body, n.system])).toEqual([['promoted to epic &1', true]])
  })

  it('with text: 201, the rest of the body is the comment, commands_changes.promote_to_epic', async () => {
    const res = await t.http('POST', `${P}/issues/2/notes`, {
      token: T.reporter,
      json: { body: 'Too big for an issue.\n/promote\nSee the epic.' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      body: 'Too big for an issue.\nSee the epic.',
      commands_changes: { promote_to_epic: true },
    })
    // promoted once: a second /promote is unavailable, taken out of the text and not applied
    const again = await t.http('POST', `${P}/issues/2/notes`, {
      token: T.reporter,
      json: { body: '/promote' },
    })
    expect([again.status, again.body]).toEqual([
      202,
      { commands_changes: {}, summary: ['Could not apply promote command.'] },
    ])
  })

  it('unavailable to a guest, text inside a code fence and on CE (where it is not defined)', async () => {
    const guest = await t.http('POST', `${P}/issues/2/notes`, { token: T.guest, json: { body: '/promote' } })
    expect([guest.status, guest.body]).toEqual([
      202,
      { commands_changes: {}, summary: ['Could not apply promote command.'] },
    ])
    const fenced = await t.http('POST', `${P}/issues/1/notes`, {
      token: T.reporter,
      json: { body: '```\n/promote\n```' },
    })
    expect(fenced.status).toBe(201)
    expect(t.server.store.epics.byIid(t.server.store.namespaces.byPath('acme')!.id, 1)).toBeUndefined()
    const ce = await startServer(detailSeed, { edition: 'ce' })
    try {
      const res = await ce.http('POST', `${P}/issues/2/notes`, {
        token: T.reporter,
        json: { body: '/promote' },
      })
      expect([res.status, (res.body as Json).body]).toEqual([201, '/promote'])
    } finally {
      await ce.close()
    }
  })
})

describe('system notes', () => {
  const userId = async (username: string) =>
    (
      (await t.http('GET', '/api/v4/users', { token: T.root, query: `username=${username}` })).body as Json[]
    )[0]?.id as number
  const system = async (iid: number) =>
    (await notes(iid)).filter((n) => n.system).map((n) => [(n.author as Json).username, n.body])

  it("are GitLab's words for description, discussion lock, assignee and confidentiality changes, once per change", async () => {
    const [mark, rita, pam] = [await userId('mark'), await userId('rita'), await userId('pam')]
    const put = (json: Json) => t.http('PUT', `${P}/issues/2`, { token: T.maintainer, json })
    expect((await put({ assignee_ids: [mark] })).status).toBe(200)
    const edit = {
      description: 'new words',
      discussion_locked: true,
      assignee_ids: [rita, pam],
      confidential: true,
    }
    expect((await put(edit)).status).toBe(200)
    // The same values again change nothing, so they leave no note.
    expect((await put(edit)).status).toBe(200)
    expect((await put({ assignee_ids: [], confidential: false, discussion_locked: false })).status).toBe(200)
    expect(await system(2)).toEqual([
      ['mark', 'assigned to @mark'],
      ['mark', 'changed the description'],
      ['mark', 'locked the discussion in this issue'],
      ['mark', 'assigned to @rita and @pam and unassigned @mark'],
      ['mark', 'made the issue confidential'],
      ['mark', 'unlocked the discussion in this issue'],
      ['mark', 'unassigned @rita and @pam'],
      ['mark', 'made the issue visible to everyone'],
    ])
    // System notes are not comments: they do not count, and only_comments leaves them out.
    expect((await get(`${P}/issues/2`)).user_notes_count).toBe(0)
    const comments = await t.http('GET', `${P}/issues/2/notes`, {
      token: T.root,
      query: 'activity_filter=only_comments',
    })
    expect(comments.body).toEqual([])
  })

  it('record time tracking: estimates, time spent added and subtracted, and resets', async () => {
    const post = (action: string, json?: Json) =>
      t.http('POST', `${P}/issues/2/${action}`, { token: T.reporter, ...(json ? { json } : {}) })
    expect((await post('time_estimate', { duration: '3h30m' })).status).toBe(200)
    const updated = (await get(`${P}/issues/2`)).updated_at
    // An unchanged estimate is no change: no note, and the issue keeps its updated_at.
    expect((await post('time_estimate', { duration: '210m' })).status).toBe(200)
    expect((await get(`${P}/issues/2`)).updated_at).toBe(updated)
    expect((await post('add_spent_time', { duration: '1d2h' })).status).toBe(201)
    expect((await post('add_spent_time', { duration: '-30m' })).status).toBe(201)
    expect((await post('reset_spent_time')).status).toBe(200)
    expect((await post('reset_time_estimate')).status).toBe(200)
    // Nothing left to reset: no timelog and no note.
    expect((await post('reset_spent_time')).status).toBe(200)
    expect((await post('reset_time_estimate')).status).toBe(200)
    expect(await system(2)).toEqual([
      ['rita', 'changed time estimate to 3h 30m'],
      ['rita', 'added 1d 2h of time spent'],
      ['rita', 'subtracted 30m of time spent'],
      ['rita', 'removed time spent'],
      ['rita', 'removed time estimate'],
    ])
  })
})

describe("the notes' path parameter", () => {
  it('is named noteable_id, as lib/api/notes.rb names it, in the answer to a malformed one', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await t.http(method, `${P}/issues/first/notes`, { token: T.root, json: { body: 'Hi' } })
      expect([res.status, res.body]).toEqual([400, { error: 'noteable_id is invalid' }])
    }
  })
})
