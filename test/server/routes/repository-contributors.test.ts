import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'

const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock })
})
afterEach(() => t.close())

/** A commit on `branch` authored by `author_name` <`author_email`>. */
const commit = async (branch: string, author_name: string, author_email: string) => {
  clock.advance(1000)
  const res = await t.http('POST', `${P}/repository/commits`, {
    token: MARK,
    json: {
      branch,
      commit_message: `by ${author_name}`,
      author_name,
      author_email,
      actions: [{ action: 'create', file_path: `f-${clock.now()}.txt`, content: 'x' }],
    },
  })
  expect(res.status).toBe(201)
}

const contributors = async (query = '', token = RITA) => {
  const res = await t.http('GET', `${P}/repository/contributors${query}`, { token })
  return res
}

describe('GET /projects/:id/repository/contributors', () => {
  beforeEach(async () => {
    await commit('main', 'Alice', 'alice@example.com')
    await commit('main', 'alice again', 'alice@example.com')
    await commit('main', 'Bob', 'Bob@example.com')
    await commit('main', 'bob', 'bob@example.com')
    await commit('main', 'Bob', 'Bob@example.com')
    await commit('develop', 'Carol', 'carol@example.com')
  })

  it('groups the default branch by author email as written, names from the newest commit, commits ascending', async () => {
    const res = await contributors()
    expect(res.status).toBe(200)
    // Ties keep the order they were first met in, newest commit first.
    expect(res.body).toEqual([
      { name: 'bob', email: 'bob@example.com', commits: 1, additions: 0, deletions: 0 },
      { name: 'GitLab Emulator', email: 'emulator@example.com', commits: 1, additions: 0, deletions: 0 },
      { name: 'Bob', email: 'Bob@example.com', commits: 2, additions: 0, deletions: 0 },
      { name: 'alice again', email: 'alice@example.com', commits: 2, additions: 0, deletions: 0 },
    ])
    expect(res.headers['x-total']).toBe('4')
  })

  it('orders by name or email case-insensitively, either way, and pages', async () => {
    const byName = (await contributors('?order_by=name&sort=desc')).body as Json[]
    const names = byName.map((r) => String(r.name).toLowerCase())
    expect(names).toEqual([...names].sort().reverse())
    const byEmail = (await contributors('?order_by=email')).body as Json[]
    const emails = byEmail.map((r) => String(r.email).toLowerCase())
    expect(emails).toEqual([...emails].sort())
    const second = await contributors('?order_by=email&per_page=1&page=2')
    expect(second.body).toEqual([byEmail[1]])
    expect(second.headers['x-total']).toBe(String(byEmail.length))
    expect(second.headers.link).toContain('order_by=email')
  })

  it('reads another ref; a ref that names nothing lists none', async () => {
    const develop = (await contributors('?ref=develop')).body as Json[]
    expect(develop.map((r) => r.email)).toContain('carol@example.com')
    expect(develop.map((r) => r.email)).not.toContain('alice@example.com')
    const none = await contributors('?ref=nope')
    expect(none.status).toBe(200)
    expect(none.body).toEqual([])
  })

  it("answers GitLab's 400 for a bad order, 403 below Reporter and 404 to outsiders", async () => {
    expect((await contributors('?order_by=date')).body).toEqual({
      error: 'order_by does not have a valid value',
    })
    expect((await contributors('?sort=up')).status).toBe(400)
    expect((await contributors('', GUS)).status).toBe(403)
    expect((await contributors('', OTTO)).body).toEqual({ message: '404 Project Not Found' })
  })
})
