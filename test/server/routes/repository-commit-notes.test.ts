import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { DANA, GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
let before: string
let sha: string
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock })
  before = await write('create', 'a\nb\nc\n')
  // Line 2 `b` becomes `B` (old line 2 removed, new line 2 added) and `d` is added as new line 4.
  sha = await write('update', 'a\nB\nc\nd\n')
})
afterEach(() => t.close())

async function write(action: 'create' | 'update', content: string) {
  clock.advance(1000)
  const res = await t.http('POST', `${P}/repository/commits`, {
    token: MARK,
    json: { branch: 'main', commit_message: action, actions: [{ action, file_path: 'f.txt', content }] },
  })
  expect(res.status).toBe(201)
  return (res.body as Json).id as string
}
const comment = (json: Json, ref = sha, token = RITA) =>
  t.http('POST', `${P}/repository/commits/${ref}/comments`, { token, json })
const comments = async (ref = sha, query = '') =>
  (await t.http('GET', `${P}/repository/commits/${ref}/comments${query}`, { token: RITA })).body as Json[]

describe('commit comments', () => {
  it("comments on a commit and on lines of its diff, as GitLab's CommitNote", async () => {
    clock.advance(1000)
    const plain = await comment({ note: 'Nice' })
    expect(plain.status).toBe(201)
    expect(plain.body).toEqual({
      note: 'Nice',
      path: null,
      line: null,
      line_type: null,
      author: expect.objectContaining({ username: 'rita', name: 'Rita Reporter', state: 'active' }),
      created_at: '2026-03-01T10:00:03.000Z',
    })
    const added = await comment({ note: 'new B', path: 'f.txt', line: 2 })
    expect(added.body).toMatchObject({ path: 'f.txt', line: 2, line_type: 'new' })
    const removed = await comment({ note: 'old b', path: 'f.txt', line: 2, line_type: 'old' })
    expect(removed.body).toMatchObject({ path: 'f.txt', line: 2, line_type: 'old' })
    expect((await comment({ note: 'd', path: 'f.txt', line: 4 })).body).toMatchObject({ line: 4 })
    // A context line, a line the diff does not have, a file the commit did not change, or nulls (as
    // go-gitlab sends a comment without a line): a plain comment.
    for (const json of [
      { path: null, line: null, line_type: null },
      { path: 'f.txt', line: 1 },
      { path: 'f.txt', line: 4, line_type: 'old' },
      { path: 'g.txt', line: 2 },
    ])
      expect((await comment({ note: 'x', ...json })).body).toMatchObject({
        path: null,
        line: null,
        line_type: null,
      })
  })

  it("lists a commit's comments oldest first, by SHA, short SHA or branch, with pages", async () => {
    for (const note of ['one', 'two', 'three']) {
      clock.advance(1000)
      expect((await comment({ note }, 'main')).status).toBe(201)
    }
    expect((await comments()).map((n) => n.note)).toEqual(['one', 'two', 'three'])
    expect((await comments(sha.slice(0, 8))).map((n) => n.note)).toEqual(['one', 'two', 'three'])
    const page = await t.http('GET', `${P}/repository/commits/main/comments?per_page=2&page=2`, {
      token: RITA,
    })
    expect((page.body as Json[]).map((n) => n.note)).toEqual(['three'])
    expect(page.headers['x-total']).toBe('3')
    expect(await comments(before)).toEqual([])
  })

  it("answers GitLab's 404, 400s, 403 and 401, storing nothing", async () => {
    const unknown = '0'.repeat(40)
    expect((await comment({ note: 'x' }, unknown)).body).toEqual({ message: '404 Commit Not Found' })
    expect((await t.http('GET', `${P}/repository/commits/nope/comments`, { token: RITA })).body).toEqual({
      message: '404 Commit Not Found',
    })
    expect((await comment({})).body).toEqual({ error: 'note is missing' })
    expect((await comment({ note: 'x', path: 'f.txt' })).body).toEqual({ error: 'line is missing' })
    expect((await comment({ note: 'x', path: 'f.txt', line: 1, line_type: 'mid' })).body).toEqual({
      error: 'line_type does not have a valid value',
    })
    expect((await comment({ note: 'x', path: 'f.txt', line: 'one' })).body).toEqual({
      error: 'line is invalid',
    })
    // Grape's `given :path`: a blank `path` is none, and its missing `line` is then no error
    expect((await comment({ note: 'x', path: '', line_type: 'mid' }, unknown)).body).toEqual({
      message: '404 Commit Not Found',
    })
    expect((await comment({ note: 'x', line: 'one', line_type: 'mid' }, unknown)).body).toEqual({
      message: '404 Commit Not Found',
    })
    expect((await comment({ note: '  ' })).body).toEqual({
      message: '400 Bad request - Note {:note=>["can\'t be blank"]}',
    })
    expect((await comment({ note: 'x' }, sha, GUS)).status).toBe(403)
    expect((await comment({ note: 'x' }, sha, OTTO)).body).toEqual({ message: '404 Project Not Found' })
    // `before { authorize_read_code! }`: who may not read the code is told so before the parameters.
    expect((await comment({}, sha, OTTO)).body).toEqual({ message: '404 Project Not Found' })
    expect((await comment({}, sha, GUS)).body).toEqual({ message: '403 Forbidden' })
    const list = await t.http('GET', `${P}/repository/commits?since=never`, { token: OTTO })
    expect(list.body).toEqual({ message: '404 Project Not Found' })
    expect(
      (await t.http('POST', `${P}/repository/commits/${sha}/comments`, { json: { note: 'x' } })).status,
    ).toBe(401)
    expect((await t.http('GET', `${P}/repository/commits/${sha}/comments`, { token: GUS })).status).toBe(403)
    expect(await comments()).toEqual([])
  })

  it("a deleted author's comments pass to the Ghost User", async () => {
    await comment({ note: 'by dana' }, sha, DANA)
    const dana = ((await t.http('GET', '/api/v4/user', { token: DANA })).body as Json).id as number
    expect((await t.http('DELETE', `/api/v4/users/${dana}`, { token: ROOT })).status).toBe(204)
    expect((await comments()).map((n) => [n.note, (n.author as Json).username])).toEqual([
      ['by dana', 'ghost'],
    ])
  })

  it('a reset drops them, a snapshot brings them back, and the project takes them when it goes', async () => {
    await comment({ note: 'kept' })
    expect((await t.http('POST', '/-/emulator/snapshots/one', { token: ROOT })).status).toBe(201)
    await comment({ note: 'later' })
    expect((await t.http('POST', '/-/emulator/snapshots/one/restore', { token: ROOT })).status).toBe(200)
    expect((await comments()).map((n) => n.note)).toEqual(['kept'])
    expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    sha = await write('create', 'x\n')
    await comment({ note: 'doomed' })
    const id = ((await t.http('GET', P, { token: ROOT })).body as Json).id as number
    const rows = () => inspectDb(t.server.store).prepare('SELECT COUNT(*) AS n FROM commit_notes').get()
    expect(rows()).toEqual({ n: 1 })
    expect((await t.http('DELETE', P, { token: ROOT })).status).toBe(202)
    const gone = await t.http('DELETE', `/api/v4/projects/${id}`, {
      token: ROOT,
      query: `permanently_remove=true&full_path=${encodeURIComponent(`acme/app-deletion_scheduled-${id}`)}`,
    })
    expect(gone.status).toBe(202)
    expect(rows()).toEqual({ n: 0 })
  })
})
