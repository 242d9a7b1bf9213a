/*
 * Comments and the events writes record (services/notes.ts, services/events/record.ts) are told to
 * the caches as writes to their own project: a comment made, edited or deleted, or an issue opened
 * or closed, in one project leaves the kept lists and counts of the others alone (store/changes.ts).
 * A write told to no scope counts as a change to everything, which drops every cached list.
 */
import { startServer, type TestServer } from '../../support/server.js'

const ROOT = 'glpat-root-token'
const SEED = `
users:
  - { username: root, admin: true, token: ${ROOT} }
projects:
  - { path: root/a, issues: [{ title: In a }] }
  - { path: root/b, issues: [{ title: In b }] }
`
const A = '/api/v4/projects/root%2Fa'

let t: TestServer
beforeEach(async () => {
  t = await startServer(SEED)
  // The token's first use stamps its `last_used_at` (a change to everything): made before any test's write.
  expect((await t.http('GET', '/api/v4/user', { token: ROOT })).status).toBe(200)
})
afterEach(() => t.close())

/** Runs `write` (requests to project a) and says which projects' lists the store counts as changed. */
async function changedBy(write: () => Promise<void>) {
  const { changes, projects } = t.server.store
  const [a, b] = ['root/a', 'root/b'].map((p) => projects.byPath(p)!.id)
  const since = changes.version()
  await write()
  return {
    a: !changes.unchangedSince(since, [`project:${a}`]),
    b: !changes.unchangedSince(since, [`project:${b}`]),
  }
}
const request = async (method: string, path: string, json?: Record<string, unknown>) => {
  const res = await t.http(method, `${A}${path}`, { token: ROOT, ...(json ? { json } : {}) })
  expect(res.status).toBeLessThan(300)
  return res.body as { id: number }
}
const comment = () => request('POST', '/issues/1/notes', { body: 'Seen it' })
const actions = async () =>
  ((await t.http('GET', `${A}/events`, { token: ROOT })).body as { action_name: string }[]).map(
    (e) => e.action_name,
  )

it.each([
  ['a comment, with its event', () => comment(), 'commented on'],
  ['an issue opened, with its event', () => request('POST', '/issues', { title: 'New in a' }), 'opened'],
  ['an issue closed, with its event', () => request('PUT', '/issues/1', { state_event: 'close' }), 'closed'],
])('%s: a write to its own project only', async (_name, write, action) => {
  expect(await changedBy(async () => void (await write()))).toEqual({ a: true, b: false })
  expect(await actions()).toContain(action)
})

it('a comment edited or deleted: a write to its own project only', async () => {
  const { id } = await comment()
  expect(
    await changedBy(async () => void (await request('PUT', `/issues/1/notes/${id}`, { body: 'Edited' }))),
  ).toEqual({ a: true, b: false })
  expect(await changedBy(async () => void (await request('DELETE', `/issues/1/notes/${id}`)))).toEqual({
    a: true,
    b: false,
  })
  const issue = (await t.http('GET', `${A}/issues/1`, { token: ROOT })).body as { user_notes_count: number }
  expect(issue.user_notes_count).toBe(0)
})
