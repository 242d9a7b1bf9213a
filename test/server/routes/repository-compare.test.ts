import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'

const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
/** main: root, c1 (a.txt), c4 (m.txt); feature from c1: c2 (a.txt changed, b.txt), c3 (b.txt moved to c.txt, a.txt executable). */
const sha: Record<string, string> = {}

const commit = async (branch: string, message: string, actions: Json[]) => {
  clock.advance(1000)
  const res = await t.http('POST', `${P}/repository/commits`, {
    token: MARK,
    json: { branch, commit_message: message, actions },
  })
  expect(res.status).toBe(201)
  return (res.body as Json).id as string
}

beforeAll(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock })
  sha.root = ((await t.http('GET', `${P}/repository/commits/main`, { token: RITA })).body as Json)
    .id as string
  sha.c1 = await commit('main', 'add a', [
    { action: 'create', file_path: 'a.txt', content: 'one\ntwo\nthree\n' },
  ])
  expect(
    (
      await t.http('POST', `${P}/repository/branches`, {
        token: MARK,
        json: { branch: 'feature', ref: 'main' },
      })
    ).status,
  ).toBe(201)
  sha.c2 = await commit('feature', 'change a, add b', [
    { action: 'update', file_path: 'a.txt', content: 'one\n2\nthree\n' },
    { action: 'create', file_path: 'b.txt', content: 'bee\n' },
  ])
  sha.c3 = await commit('feature', 'move b', [
    { action: 'move', previous_path: 'b.txt', file_path: 'c.txt' },
    { action: 'chmod', file_path: 'a.txt', execute_filemode: true },
  ])
  sha.c4 = await commit('main', 'add m', [{ action: 'create', file_path: 'm.txt', content: 'em' }])
})
afterAll(() => t.close())

const get = (path: string, token = RITA) => t.http('GET', `${P}${path}`, { token })
const diff = (d: Partial<Json>) => ({
  collapsed: false,
  too_large: false,
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  generated_file: false,
  ...d,
})

describe('GET /repository/compare', () => {
  it('lists the commits of `to` not in `from`, oldest first, and the diff from their merge base', async () => {
    const res = await get('/repository/compare?from=main&to=feature')
    expect(res.status).toBe(200)
    const body = res.body as Json
    expect(Object.keys(body)).toEqual([
      'commit',
      'commits',
      'diffs',
      'compare_timeout',
      'compare_same_ref',
      'web_url',
    ])
    expect((body.commits as Json[]).map((c) => c.id)).toEqual([sha.c2, sha.c3])
    expect(body.commit).toMatchObject({ id: sha.c3, title: 'move b', parent_ids: [sha.c2] })
    expect(body.diffs).toEqual([
      diff({
        diff: '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
        new_path: 'a.txt',
        old_path: 'a.txt',
        a_mode: '100644',
        b_mode: '100755',
      }),
      diff({
        diff: '@@ -0,0 +1 @@\n+bee\n',
        new_path: 'c.txt',
        old_path: 'c.txt',
        a_mode: '0',
        b_mode: '100644',
        new_file: true,
      }),
    ])
    expect(Object.keys((body.diffs as Json[])[0]!)).toEqual([
      'diff',
      'collapsed',
      'too_large',
      'new_path',
      'old_path',
      'a_mode',
      'b_mode',
      'new_file',
      'renamed_file',
      'deleted_file',
      'generated_file',
    ])
    expect(body.compare_timeout).toBe(false)
    expect(body.compare_same_ref).toBe(false)
    expect(body.web_url).toBe(`${t.baseUrl}/acme/app/-/compare/${sha.c1}...${sha.c3}`)
  })

  it('straight: diffs from `from` itself; unidiff adds the file headers', async () => {
    const res = await get('/repository/compare?from=main&to=feature&straight=true&unidiff=true')
    const body = res.body as Json
    expect((body.commits as Json[]).map((c) => c.id)).toEqual([sha.c2, sha.c3])
    expect((body.diffs as Json[]).map((d) => [d.old_path, d.new_path, d.deleted_file, d.diff])).toEqual([
      ['a.txt', 'a.txt', false, '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n'],
      ['c.txt', 'c.txt', false, '--- /dev/null\n+++ b/c.txt\n@@ -0,0 +1 @@\n+bee\n'],
      [
        'm.txt',
        'm.txt',
        true,
        '--- a/m.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-em\n\\ No newline at end of file\n',
      ],
    ])
    expect(body.web_url).toBe(`${t.baseUrl}/acme/app/-/compare/${sha.c4}...${sha.c3}`)
  })

  it('the same ref: no commits, no diffs, compare_same_ref', async () => {
    const body = (await get(`/repository/compare?from=feature&to=${sha.c3}`)).body as Json
    expect(body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true })
  })

  it('refuses as GitLab: unknown refs, another project, missing parameters, hidden projects', async () => {
    expect((await get('/repository/compare?from=main&to=nope')).body).toEqual({
      message: '404 Ref Not Found',
    })
    expect((await get('/repository/compare?from=nope&to=main')).status).toBe(404)
    const other = await get('/repository/compare?from=main&to=feature&from_project_id=999')
    expect(other.status).toBe(400)
    expect(other.body).toEqual({ message: 'Target project id:999 is not a fork of project id:acme/app' })
    expect((await get('/repository/compare?from=main')).body).toEqual({ error: 'to is missing' })
    // `before { authorize_read_code! }` runs before Grape checks the parameters.
    expect((await get('/repository/compare', GUS)).status).toBe(403)
    expect((await get('/repository/merge_base', OTTO)).body).toEqual({ message: '404 Project Not Found' })
    expect((await get('/repository/compare?from=main&to=feature', OTTO)).body).toEqual({
      message: '404 Project Not Found',
    })
    expect((await get('/repository/compare?from=main&to=feature', GUS)).status).toBe(403)
  })
})

describe('GET /repository/commits/:sha/diff', () => {
  it("pages a commit's diffs against its first parent, a rename as one", async () => {
    const res = await get(`/repository/commits/${sha.c3}/diff?per_page=1`)
    expect(res.status).toBe(200)
    expect(res.headers['x-total']).toBe('2')
    expect(res.headers['x-next-page']).toBe('2')
    expect(res.body).toEqual([
      diff({ diff: '', new_path: 'a.txt', old_path: 'a.txt', a_mode: '100644', b_mode: '100755' }),
    ])
    const second = await get(`/repository/commits/${sha.c3}/diff?per_page=1&page=2`)
    expect(second.body).toEqual([
      diff({
        diff: '',
        new_path: 'c.txt',
        old_path: 'b.txt',
        a_mode: '100644',
        b_mode: '100644',
        renamed_file: true,
      }),
    ])
    const unidiff = (await get('/repository/commits/feature~1/diff')).status
    expect(unidiff).toBe(404)
    const c2 = (await get(`/repository/commits/${sha.c2}/diff?unidiff=true`)).body as Json[]
    expect(c2.map((d) => d.diff)).toEqual([
      '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
      '--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+bee\n',
    ])
    expect((await get(`/repository/commits/${'0'.repeat(40)}/diff`)).body).toEqual({
      message: '404 Commit Not Found',
    })
  })
})

describe('renames by similarity', () => {
  it('pairs a file moved with a small edit as git -M does: one renamed diff of the edit, stats of the edit alone', async () => {
    const body = Array.from({ length: 10 }, (_, i) => `line ${i}\n`).join('')
    await commit('main', 'add notes', [{ action: 'create', file_path: 'notes.txt', content: body }])
    const moved = await commit('main', 'move and edit notes', [
      { action: 'delete', file_path: 'notes.txt' },
      { action: 'create', file_path: 'docs/notes.md', content: body.replace('line 4\n', 'line four\n') },
    ])
    const diffs = (await get(`/repository/commits/${moved}/diff`)).body as Json[]
    expect(diffs).toEqual([
      diff({
        diff: '@@ -2,7 +2,7 @@ line 0\n line 1\n line 2\n line 3\n-line 4\n+line four\n line 5\n line 6\n line 7\n',
        new_path: 'docs/notes.md',
        old_path: 'notes.txt',
        a_mode: '100644',
        b_mode: '100644',
        renamed_file: true,
      }),
    ])
    const detail = (await get(`/repository/commits/${moved}`)).body as Json
    expect(detail.stats).toEqual({ additions: 1, deletions: 1, total: 2 })
  })
})

describe('GET /repository/merge_base', () => {
  it('finds the common ancestor of two or more refs', async () => {
    const res = await get('/repository/merge_base?refs[]=main&refs[]=feature')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: sha.c1,
      title: 'add a',
      web_url: `${t.baseUrl}/acme/app/-/commit/${sha.c1}`,
    })
    expect(((await get(`/repository/merge_base?refs=main,feature,${sha.c2}`)).body as Json).id).toBe(sha.c1)
    expect(((await get(`/repository/merge_base?refs[]=${sha.c3}&refs[]=${sha.c2}`)).body as Json).id).toBe(
      sha.c2,
    )
  })

  it('refuses as GitLab: fewer than two refs, refs that name nothing', async () => {
    expect((await get('/repository/merge_base?refs[]=main')).body).toEqual({
      message: 'Provide at least 2 refs',
    })
    expect((await get('/repository/merge_base?refs[]=main&refs[]=nope')).body).toEqual({
      message: 'Could not find ref: nope',
    })
    const two = await get('/repository/merge_base?refs[]=x&refs[]=main&refs[]=y')
    expect(two.status).toBe(400)
    expect(two.body).toEqual({ message: 'Could not find refs: x, y' })
    expect((await get('/repository/merge_base')).body).toEqual({ error: 'refs is missing' })
  })
})

describe('GET /repository/blobs/:sha', () => {
  it('reads a blob of the project by SHA, Base64 or raw', async () => {
    const tree = (await get('/repository/tree?ref=feature')).body as Json[]
    const a = tree.find((e) => e.name === 'a.txt')!.id as string
    const res = await get(`/repository/blobs/${a}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      size: 12,
      encoding: 'base64',
      content: Buffer.from('one\n2\nthree\n').toString('base64'),
      sha: a,
    })
    const raw = await get(`/repository/blobs/${a}/raw`)
    expect(raw.status).toBe(200)
    expect(raw.text).toBe('one\n2\nthree\n')
    expect(raw.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(raw.headers['content-disposition']).toBe('inline')
    expect(raw.headers['cache-control']).toBe('no-cache, no-store')
  })

  it('404s a tree, a commit, an unknown SHA, and a blob of another project', async () => {
    const tree = (await get('/repository/tree?ref=feature')).body as Json[]
    const a = tree.find((e) => e.name === 'a.txt')!.id as string
    for (const id of [sha.c3, '0'.repeat(40), 'main', a.slice(0, 8)])
      expect((await get(`/repository/blobs/${id}`)).body).toEqual({ message: '404 Blob Not Found' })
    const ci = await t.http('GET', `/api/v4/projects/acme%2Fci/repository/blobs/${a}/raw`, { token: RITA })
    expect(ci.status).toBe(404)
    expect((await get(`/repository/blobs/${a}`, OTTO)).body).toEqual({ message: '404 Project Not Found' })
  })
})
