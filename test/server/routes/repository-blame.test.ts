import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'

const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
/** main: a (src/a.txt), b (two lines changed, one added), c (moved to lib/b.txt), d (lines around). */
const sha: Record<string, string> = {}

const commit = async (message: string, actions: Json[]) => {
  clock.advance(60_000)
  const res = await t.http('POST', `${P}/repository/commits`, {
    token: MARK,
    json: { branch: 'main', commit_message: message, actions },
  })
  expect(res.status).toBe(201)
  return (res.body as Json).id as string
}

beforeAll(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock })
  sha.a = await commit('add a', [
    { action: 'create', file_path: 'src/a.txt', content: 'one\ntwo\nthree\nfour\n' },
  ])
  sha.b = await commit('change a\n\nWith a body', [
    { action: 'update', file_path: 'src/a.txt', content: 'one\nTWO\nthree\nfour\nfive\n' },
  ])
  sha.c = await commit('move a', [{ action: 'move', previous_path: 'src/a.txt', file_path: 'lib/b.txt' }])
  sha.d = await commit('wrap b', [
    { action: 'update', file_path: 'lib/b.txt', content: 'zero\none\nTWO\nthree\nfour\nfive\nsix\n' },
  ])
})
afterAll(() => t.close())

const blame = (query: string, token = RITA, file = 'lib%2Fb.txt') =>
  t.http('GET', `${P}/repository/files/${file}/blame?${query}`, { token })
/** Each range as `<commit message's first line>: lines`. */
const ranges = (body: unknown) =>
  (body as { commit: { message: string }; lines: string[] }[]).map(
    (r) => `${r.commit.message.split('\n')[0]}: ${r.lines.join('|')}`,
  )

describe('GET /repository/files/:file_path/blame', () => {
  it("answers GitLab's BlameRange entities, a commit's consecutive lines in one range, through the move", async () => {
    const res = await blame('ref=main')
    expect(res.status).toBe(200)
    expect(ranges(res.body)).toEqual([
      'wrap b: zero',
      'add a: one',
      'change a: TWO',
      'add a: three|four',
      'change a: five',
      'wrap b: six',
    ])
    const [first, , second] = res.body as Json[]
    expect(first).toEqual({
      commit: {
        id: sha.d,
        parent_ids: [sha.c],
        message: 'wrap b',
        authored_date: '2026-03-01T10:04:00.000+00:00',
        author_name: 'Mark Maintainer',
        author_email: 'mark@example.com',
        committed_date: '2026-03-01T10:04:00.000+00:00',
        committer_name: 'Mark Maintainer',
        committer_email: 'mark@example.com',
      },
      lines: ['zero'],
    })
    expect((second!.commit as Json).message).toBe('change a\n\nWith a body')
    expect(res.headers['x-gitlab-file-path']).toBe('lib/b.txt')
    expect(res.headers['x-gitlab-commit-id']).toBe(sha.d)
    expect(res.headers['x-gitlab-last-commit-id']).toBe(sha.d)
    expect(res.headers['x-gitlab-ref']).toBe('main')
  })

  it('blames at an older ref, and only range[start]..range[end] (an end past the last line: to it)', async () => {
    expect(ranges((await blame(`ref=${sha.b}`, RITA, 'src%2Fa.txt')).body)).toEqual([
      'add a: one',
      'change a: TWO',
      'add a: three|four',
      'change a: five',
    ])
    expect(ranges((await blame('ref=main&range[start]=3&range[end]=4')).body)).toEqual([
      'change a: TWO',
      'add a: three',
    ])
    expect(ranges((await blame('ref=main&range[start]=7&range[end]=700')).body)).toEqual(['wrap b: six'])
    const past = await blame('ref=main&range[start]=8&range[end]=9')
    expect([past.status, past.body]).toEqual([200, []])
    // Grape reads a blank Hash as nil: no range, the whole file
    expect((await blame('ref=main&range=')).body).toEqual((await blame('ref=main')).body)
  })

  it("refuses bad parameters with Grape's messages, before looking at the project", async () => {
    const cases: [string, string][] = [
      ['', 'ref is missing, ref is empty'],
      ['ref=', 'ref is empty'],
      ['ref=main&range[start]=0&range[end]=2', 'range[start] does not have a valid value'],
      ['ref=main&range[start]=1', 'range[end] is missing, range[end] is empty'],
      // Grape's values (1..) run after the failed coercion too, on the text as given
      [
        'ref=main&range[start]=x&range[end]=2',
        'range[start] is invalid, range[start] does not have a valid value',
      ],
      // GitLab's spec: blank is nil, which the nested scope's values let pass
      ['ref=main&range[start]=&range[end]=', 'range[start] is empty, range[end] is empty'],
      [
        'ref=main&range[start]=-2&range[end]=-5',
        'range[start] does not have a valid value, range[end] does not have a valid value',
      ],
      ['ref=main&range=1', 'range is invalid'],
    ]
    for (const [query, error] of cases) {
      const res = await blame(query, OTTO)
      expect([query, res.status, res.body]).toEqual([query, 400, { error }])
    }
  })

  it('answers 400 for a range ending before it starts, once the file is found; 404 and 403 as a file read', async () => {
    expect(await blame('ref=main&range[start]=3&range[end]=2').then((r) => [r.status, r.body])).toEqual([
      400,
      { message: 'range[start] must be less than or equal to range[end]' },
    ])
    const missing = await blame('ref=main&range[start]=3&range[end]=2', RITA, 'nope.txt')
    expect([missing.status, missing.body]).toEqual([404, { message: '404 File Not Found' }])
    expect((await blame('ref=nope')).body).toEqual({ message: '404 Commit Not Found' })
    expect((await blame('ref=main', RITA, 'lib')).body).toEqual({ message: '404 File Not Found' })
    expect((await blame('ref=main', GUS)).status).toBe(403)
    expect((await blame('ref=main', OTTO)).body).toEqual({ message: '404 Project Not Found' })
    const traversal = await blame('ref=main', RITA, '..%2Fetc')
    expect([traversal.status, traversal.body]).toEqual([
      400,
      { error: 'file_path should be a valid file path' },
    ])
  })
})

describe('HEAD /repository/files/:file_path/blame', () => {
  const head = (query: string, token = RITA, file = 'lib%2Fb.txt') =>
    t.http('HEAD', `${P}/repository/files/${file}/blame?${query}`, { token })

  it("is GitLab's own HEAD route: ref alone, range never read, the file's headers", async () => {
    const got = await blame('ref=main')
    for (const query of [
      'ref=main',
      'ref=main&range[start]=3&range[end]=2',
      'ref=main&range[start]=0&range=x',
    ]) {
      const res = await head(query)
      expect([query, res.status, res.text]).toEqual([query, 200, ''])
      for (const name of ['x-gitlab-blob-id', 'x-gitlab-commit-id', 'x-gitlab-file-path', 'x-gitlab-size'])
        expect([name, res.headers[name]]).toEqual([name, got.headers[name]])
    }
    expect((await head('')).status).toBe(400)
    expect((await head('ref=main', RITA, 'nope.txt')).status).toBe(404)
    expect((await head('ref=main', GUS)).status).toBe(403)
  })
})
