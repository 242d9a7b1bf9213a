import { collect } from '../../src/api/client.js'
import { apiFailure, clientPool } from '../support/client-pool.js'
import { DANA, MARK, RITA, repositorySeed } from '../support/repository-seed.js'
import { startServer, type TestServer } from '../support/server.js'

/* `client.repository` against the reference server, every body checked against src/schema. */

let t: TestServer
const { as, closeAll } = clientPool(() => t.baseUrl)
beforeEach(async () => {
  t = await startServer(repositorySeed)
})
afterEach(async () => {
  await closeAll()
  await t.close()
})

it('commits, reads files (get, head, raw), lists commits and the tree, and deletes', async () => {
  const dana = as(DANA)
  const rita = as(RITA)
  const made = await dana.repository.commits.create('acme/app', {
    branch: 'develop',
    commit_message: 'Add CI',
    actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: [make]\n' }],
  })
  expect(made).toMatchObject({ title: 'Add CI', stats: { additions: 2, deletions: 0, total: 2 } })
  const file = await rita.repository.files.get('acme/app', '.gitlab-ci.yml', 'develop')
  expect(Buffer.from(file.content, 'base64').toString()).toBe('build:\n  script: [make]\n')
  const { content, ...meta } = file
  expect(content).not.toBe('')
  expect(await rita.repository.files.head('acme/app', '.gitlab-ci.yml', 'develop')).toEqual(meta)
  expect((await rita.repository.files.raw('acme/app', '.gitlab-ci.yml', 'develop')).toString()).toBe(
    'build:\n  script: [make]\n',
  )
  expect(
    await apiFailure(
      dana.repository.files.update('acme/app', 'docs/new.md', {
        branch: 'develop',
        commit_message: 'x',
        content: 'x',
      }),
    ),
  ).toMatchObject({ status: 400, body: { message: "A file with this name doesn't exist" } })
  await dana.repository.files.create('acme/app', 'docs/new.md', {
    branch: 'develop',
    commit_message: 'x',
    content: 'x',
  })
  const commits = await collect(rita.repository.commits.list('acme/app', { ref_name: 'develop' }))
  expect(commits.map((c) => c.title)).toEqual(['x', 'Add CI', 'develop'])
  expect(await rita.repository.commits.get('acme/app', commits[1]!.id, { stats: false })).not.toHaveProperty(
    'stats',
  )
  expect(await collect(rita.repository.commits.refs('acme/app', commits[1]!.id))).toEqual([
    { type: 'branch', name: 'develop' },
  ])
  expect(await collect(rita.repository.commits.refs('acme/app', commits[1]!.id, { type: 'tag' }))).toEqual([])
  const tree = await collect(rita.repository.tree('acme/app', { ref: 'develop', recursive: true }))
  expect(tree.map((e) => e.path)).toEqual(['docs', '.gitlab-ci.yml', 'docs/new.md'])
  await dana.repository.files.remove('acme/app', 'docs/new.md', { branch: 'develop', commit_message: 'rm' })
  expect(await apiFailure(rita.repository.files.raw('acme/app', 'docs/new.md', 'develop'))).toMatchObject({
    status: 404,
    body: { message: '404 File Not Found' },
  })
})

it('blames a file: whole, and a range of its lines', async () => {
  const dana = as(DANA)
  const write = (action: 'create' | 'update', content: string, commit_message: string) =>
    dana.repository.commits.create('acme/app', {
      branch: 'develop',
      commit_message,
      actions: [{ action, file_path: 'notes.txt', content }],
    })
  const first = await write('create', 'a\nb\n', 'first')
  const second = await write('update', 'a\nB\nc\n', 'second')
  const rita = as(RITA)
  const whole = await rita.repository.files.blame('acme/app', 'notes.txt', 'develop')
  expect(whole.map((r) => [r.commit.id, r.lines])).toEqual([
    [first.id, ['a']],
    [second.id, ['B', 'c']],
  ])
  expect(await rita.repository.files.blame('acme/app', 'notes.txt', 'develop', { start: 1, end: 2 })).toEqual(
    [whole[0], { ...whole[1], lines: ['B'] }],
  )
  expect(
    await apiFailure(rita.repository.files.blame('acme/app', 'notes.txt', 'develop', { start: 2, end: 1 })),
  ).toMatchObject({ status: 400, body: { message: 'range[start] must be less than or equal to range[end]' } })
})

it('lists contributors by author email', async () => {
  await as(MARK).repository.commits.create('acme/app', {
    branch: 'main',
    commit_message: 'by Ann',
    author_name: 'Ann',
    author_email: 'ann@example.com',
    actions: [{ action: 'create', file_path: 'ann.txt', content: 'x' }],
  })
  const rows = await collect(
    as(RITA).repository.contributors('acme/app', { order_by: 'email', sort: 'desc' }),
  )
  expect(rows).toEqual([
    { name: 'GitLab Emulator', email: 'emulator@example.com', commits: 1, additions: 0, deletions: 0 },
    { name: 'Ann', email: 'ann@example.com', commits: 1, additions: 0, deletions: 0 },
  ])
})

it('comments on a commit and lists its comments', async () => {
  const rita = as(RITA)
  const made = await rita.repository.commits.comment('acme/app', 'main', { note: 'Nice' })
  expect(made).toMatchObject({
    note: 'Nice',
    path: null,
    line: null,
    line_type: null,
    author: { username: 'rita' },
  })
  expect(await collect(rita.repository.commits.comments('acme/app', 'main'))).toEqual([made])
  expect(await apiFailure(collect(rita.repository.commits.comments('acme/app', 'nope')))).toMatchObject({
    status: 404,
    body: { message: '404 Commit Not Found' },
  })
})

it('deletes merged branches', async () => {
  const mark = as(MARK)
  await mark.repository.branches.create('acme/app', { branch: 'done', ref: 'main' })
  expect(await mark.repository.deleteMergedBranches('acme/app')).toEqual({ message: '202 Accepted' })
  expect((await collect(mark.repository.branches.list('acme/app'))).map((b) => b.name)).toEqual([
    'develop',
    'main',
  ])
})

it('creates, lists, protects and deletes branches, and tags', async () => {
  const mark = as(MARK)
  const made = await mark.repository.branches.create('acme/app', { branch: 'feature/a', ref: 'main' })
  expect(made).toMatchObject({ name: 'feature/a', merged: true, protected: false, default: false })
  expect(
    (await collect(mark.repository.branches.list('acme/app', { search: 'feat' }))).map((b) => b.name),
  ).toEqual(['feature/a'])
  expect(await mark.repository.branches.get('acme/app', 'feature/a')).toEqual(made)
  const rule = await mark.repository.protectedBranches.protect('acme/app', {
    name: 'feature/*',
    push_access_level: 30,
  })
  expect(await mark.repository.protectedBranches.get('acme/app', 'feature/*')).toEqual(rule)
  expect((await collect(mark.repository.protectedBranches.list('acme/app'))).map((p) => p.name)).toEqual([
    'main',
    'feature/*',
  ])
  await mark.repository.protectedBranches.unprotect('acme/app', 'feature/*')
  await mark.repository.branches.remove('acme/app', 'feature/a')
  expect(await apiFailure(mark.repository.branches.get('acme/app', 'feature/a'))).toMatchObject({
    status: 404,
  })

  const tag = await mark.repository.tags.create('acme/app', {
    tag_name: 'v1.0',
    ref: 'main',
    message: 'First',
  })
  expect(tag).toMatchObject({ name: 'v1.0', message: 'First' })
  expect(await mark.repository.tags.get('acme/app', 'v1.0')).toEqual(tag)
  expect((await collect(mark.repository.tags.list('acme/app'))).map((x) => x.name)).toEqual(['v1.0'])
  await mark.repository.tags.remove('acme/app', 'v1.0')
  expect(await collect(mark.repository.tags.list('acme/app'))).toEqual([])
})

it('compares, reads diffs, merge bases, blobs and archives, and protects tags', async () => {
  const mark = as(MARK)
  const rita = as(RITA)
  await mark.repository.branches.create('acme/app', { branch: 'feature', ref: 'main' })
  await mark.repository.commits.create('acme/app', {
    branch: 'feature',
    commit_message: 'Add a',
    actions: [{ action: 'create', file_path: 'a.md', content: 'a\n' }],
  })
  const compare = await rita.repository.compare('acme/app', { from: 'main', to: 'feature', unidiff: true })
  expect(compare.commits.map((c) => c.title)).toEqual(['Add a'])
  expect(compare.diffs).toMatchObject([
    { new_path: 'a.md', diff: '--- /dev/null\n+++ b/a.md\n@@ -0,0 +1 @@\n+a\n' },
  ])
  const diffs = await collect(rita.repository.commits.diff('acme/app', 'feature'))
  expect(diffs.map((d) => [d.new_path, d.new_file])).toEqual([['a.md', true]])
  expect((await rita.repository.mergeBase('acme/app', ['main', 'feature'])).title).toBe('main')
  const tree = await collect(rita.repository.tree('acme/app', { ref: 'feature' }))
  const blob = tree.find((e) => e.name === 'a.md')!.id
  expect(await rita.repository.blobs.get('acme/app', blob)).toEqual({
    size: 2,
    encoding: 'base64',
    content: 'YQo=',
    sha: blob,
  })
  expect((await rita.repository.blobs.raw('acme/app', blob)).toString()).toBe('a\n')
  expect(await apiFailure(rita.repository.blobs.raw('acme/app', '0'.repeat(40)))).toMatchObject({
    status: 404,
    body: { message: '404 Blob Not Found' },
  })
  const archive = await rita.repository.archive('acme/app', { sha: 'feature', format: 'tar' })
  expect(archive.filename).toMatch(/^app-feature-[0-9a-f]{40}\.tar$/)
  const chunks: Buffer[] = []
  for await (const chunk of archive.body) chunks.push(chunk as Buffer)
  expect(Buffer.concat(chunks).includes('a\n')).toBe(true)
  expect(await mark.repository.protectedTags.protect('acme/app', { name: 'v*' })).toMatchObject({
    name: 'v*',
    create_access_levels: [{ access_level: 40 }],
  })
  expect(await collect(mark.repository.protectedTags.list('acme/app'))).toHaveLength(1)
  expect(
    await apiFailure(as(DANA).repository.tags.create('acme/app', { tag_name: 'v1', ref: 'main' })),
  ).toMatchObject({
    status: 400,
  })
  await mark.repository.protectedTags.unprotect('acme/app', 'v*')
  expect(await apiFailure(mark.repository.protectedTags.get('acme/app', 'v*'))).toMatchObject({ status: 404 })
})
