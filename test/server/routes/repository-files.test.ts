import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'
import { DANA, GUS, MARK, OTTO, RITA, repositorySeed } from '../../support/repository-seed.js'

const P = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock })
})
afterEach(() => t.close())

const commitCount = () =>
  inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM project_commits').pluck().get() as number
const enc = encodeURIComponent

describe('POST /repository/commits', () => {
  it('commits actions[] as a real commit: 201 with GitLab keys, author the caller, dated by the clock', async () => {
    const res = await t.http('POST', `${P}/repository/commits`, {
      token: DANA,
      json: {
        branch: 'develop',
        commit_message: 'Add CI\n\nWith a body\n\nSigned-off-by: Dana <dana@example.com>',
        actions: [
          { action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: [make]\n' },
          {
            action: 'create',
            file_path: 'bin/run.sh',
            content: Buffer.from('#!/bin/sh\n').toString('base64'),
            encoding: 'base64',
            execute_filemode: true,
          },
        ],
      },
    })
    expect(res.status).toBe(201)
    const c = res.body as Json
    expect(Object.keys(c)).toEqual([
      'id',
      'short_id',
      'created_at',
      'parent_ids',
      'title',
      'message',
      'author_name',
      'author_email',
      'authored_date',
      'committer_name',
      'committer_email',
      'committed_date',
      'trailers',
      'extended_trailers',
      'web_url',
      'stats',
      'status',
      'project_id',
      'last_pipeline',
    ])
    expect(c).toMatchObject({
      short_id: (c.id as string).slice(0, 11),
      title: 'Add CI',
      author_name: 'Dana Developer',
      author_email: 'dana@example.com',
      committer_name: 'Dana Developer',
      committed_date: '2026-03-01T10:00:00.000+00:00',
      trailers: { 'Signed-off-by': 'Dana <dana@example.com>' },
      stats: { additions: 3, deletions: 0, total: 3 },
      status: null,
      last_pipeline: null,
    })
    expect((c.parent_ids as string[]).length).toBe(1)
    const branch = (await t.http('GET', `${P}/repository/branches/develop`, { token: DANA })).body as Json
    expect((branch.commit as Json).id).toBe(c.id)
    const file = await t.http('GET', `${P}/repository/files/${enc('bin/run.sh')}?ref=develop`, {
      token: RITA,
    })
    expect(file.status).toBe(200)
    expect(file.body).toMatchObject({ file_name: 'run.sh', execute_filemode: true, last_commit_id: c.id })
  })

  it('gives a different SHA to the same change made later or by someone else', async () => {
    const commit = async (token: string) =>
      (
        (
          await t.http('POST', `${P}/repository/commits`, {
            token,
            json: {
              branch: 'develop',
              start_branch: 'main',
              force: true,
              commit_message: 'same',
              actions: [{ action: 'create', file_path: 'a', content: 'x' }],
            },
          })
        ).body as Json
      ).id
    const first = await commit(DANA)
    clock.advance(1000)
    const later = await commit(DANA)
    const other = await commit(MARK)
    expect(new Set([first, later, other]).size).toBe(3)
  })

  it('applies update, move, chmod and delete in order; checks last_commit_id per action', async () => {
    const post = (json: Json, token = DANA) =>
      t.http('POST', `${P}/repository/commits`, {
        token,
        json: { branch: 'develop', commit_message: 'm', ...json },
      })
    const first = (
      await post({
        actions: [
          { action: 'create', file_path: 'a.txt', content: 'one\ntwo\n' },
          { action: 'create', file_path: 'b.txt', content: 'b' },
        ],
      })
    ).body as Json
    clock.advance(1000)
    const res = await post({
      actions: [
        { action: 'update', file_path: 'a.txt', content: 'one\nTWO\nthree\n', last_commit_id: first.id },
        { action: 'move', previous_path: 'b.txt', file_path: 'dir/b.txt' },
        { action: 'chmod', file_path: 'dir/b.txt', execute_filemode: true },
      ],
    })
    expect(res.status).toBe(201)
    expect((res.body as Json).stats).toEqual({ additions: 2, deletions: 1, total: 3 })
    const raw = await t.http('GET', `${P}/repository/files/${enc('dir/b.txt')}/raw?ref=develop`, {
      token: DANA,
    })
    expect(raw.status).toBe(200)
    expect(raw.text).toBe('b')
    expect(raw.headers['x-gitlab-execute-filemode']).toBe('true')
    const stale = await post({
      actions: [{ action: 'delete', file_path: 'a.txt', last_commit_id: first.id }],
    })
    expect(stale.status).toBe(400)
    expect(stale.body).toEqual({ message: 'The file has changed since you started editing it: a.txt' })
    const gone = await post({ actions: [{ action: 'delete', file_path: 'a.txt' }] })
    expect(gone.status).toBe(201)
    expect((await t.http('GET', `${P}/repository/files/a.txt?ref=develop`, { token: DANA })).body).toEqual({
      message: '404 File Not Found',
    })
  })

  it("answers GitLab's errors and changes nothing", async () => {
    const before = commitCount()
    const post = (json: Json, token = DANA) => t.http('POST', `${P}/repository/commits`, { token, json })
    const cases: [Json, number, unknown, string?][] = [
      [{ commit_message: 'm', actions: [] }, 400, { error: 'branch is missing, branch is empty' }],
      [
        { branch: 'develop', commit_message: 'm', actions: [{ file_path: 'x' }] },
        400,
        { error: 'actions[0][action] is missing' },
      ],
      [
        { branch: 'develop', commit_message: 'm', actions: [{ action: 'copy', file_path: 'x' }] },
        400,
        { error: 'actions[0][action] does not have a valid value' },
      ],
      [
        {
          branch: 'develop',
          commit_message: 'm',
          actions: [{ action: 'update', file_path: 'nope', content: 'x' }],
        },
        400,
        { message: "A file with this name doesn't exist" },
      ],
      [
        { branch: 'nope', commit_message: 'm', actions: [{ action: 'create', file_path: 'x', content: '' }] },
        400,
        { message: 'You can only create or edit files when you are on a branch' },
      ],
      [
        {
          branch: 'develop',
          start_branch: 'main',
          commit_message: 'm',
          actions: [{ action: 'create', file_path: 'x', content: '' }],
        },
        400,
        {
          message: "A branch called 'develop' already exists. Switch to that branch in order to make changes",
        },
      ],
      [
        {
          branch: 'bad..name',
          start_branch: 'main',
          commit_message: 'm',
          actions: [{ action: 'create', file_path: 'x', content: '' }],
        },
        400,
        {
          message: "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid",
        },
      ],
      [
        { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'x', content: '' }] },
        400,
        { message: 'You are not allowed to push into this branch' },
      ],
      [
        {
          branch: 'develop',
          commit_message: 'm',
          actions: [{ action: 'create', file_path: 'x', content: '' }],
        },
        403,
        { message: '403 Forbidden' },
        RITA,
      ],
      [
        {
          branch: 'develop',
          commit_message: 'm',
          actions: [{ action: 'create', file_path: 'x', content: '' }],
        },
        404,
        { message: '404 Project Not Found' },
        OTTO,
      ],
    ]
    for (const [json, status, body, token] of cases) {
      const res = await post(json, token)
      expect([JSON.stringify(json), res.status, res.body]).toEqual([JSON.stringify(json), status, body])
    }
    expect(commitCount()).toBe(before)
  })

  it('creates a new branch from start_branch, on top of it', async () => {
    const res = await t.http('POST', `${P}/repository/commits`, {
      token: DANA,
      json: {
        branch: 'feature',
        start_branch: 'develop',
        commit_message: 'f',
        actions: [{ action: 'create', file_path: 'f', content: 'f' }],
      },
    })
    expect(res.status).toBe(201)
    expect((res.body as Json).parent_ids).toEqual([
      (
        (await t.http('GET', `${P}/repository/branches/develop`, { token: DANA })).body as Json as {
          commit: Json
        }
      ).commit.id,
    ])
    expect(
      ((await t.http('GET', `${P}/repository/branches/feature`, { token: DANA })).body as Json).name,
    ).toBe('feature')
  })
})

describe('files API', () => {
  it('creates, reads (GET, HEAD, raw), updates with last_commit_id and deletes a file', async () => {
    const path = `${P}/repository/files/${enc('docs/guide.md')}`
    // GitLab's body for none of the required parameters: each one's messages together, in declaration order
    expect(await t.http('POST', path, { token: DANA, json: {} })).toMatchObject({
      status: 400,
      body: {
        error:
          'branch is missing, branch is empty, commit_message is missing, commit_message is empty, content is missing',
      },
    })
    const created = await t.http('POST', path, {
      token: DANA,
      json: { branch: 'develop', content: 'hello\n', commit_message: 'add guide' },
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ file_path: 'docs/guide.md', branch: 'develop' })
    const got = await t.http('GET', `${path}?ref=develop`, { token: RITA })
    expect(got.status).toBe(200)
    const file = got.body as Json
    expect(Object.keys(file)).toEqual([
      'file_name',
      'file_path',
      'size',
      'encoding',
      'content_sha256',
      'ref',
      'blob_id',
      'commit_id',
      'last_commit_id',
      'execute_filemode',
      'content',
    ])
    expect(file).toMatchObject({
      file_name: 'guide.md',
      file_path: 'docs/guide.md',
      size: 6,
      encoding: 'base64',
      ref: 'develop',
      execute_filemode: false,
      content: Buffer.from('hello\n').toString('base64'),
      content_sha256: '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03',
      blob_id: 'ce013625030ba8dba906f756967f9e9ca394464a',
    })
    const head = await t.http('HEAD', `${path}?ref=develop`, { token: RITA })
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers['x-gitlab-blob-id']).toBe(file.blob_id)
    expect(head.headers['x-gitlab-last-commit-id']).toBe(file.last_commit_id)
    expect(head.headers['x-gitlab-file-path']).toBe('docs/guide.md')

    const stale = await t.http('PUT', path, {
      token: DANA,
      json: { branch: 'develop', content: 'x', commit_message: 'u', last_commit_id: 'f'.repeat(40) },
    })
    expect(stale.status).toBe(400)
    expect(stale.body).toEqual({
      message: 'You are attempting to update a file that has changed since you started editing it.',
    })
    const updated = await t.http('PUT', path, {
      token: DANA,
      json: { branch: 'develop', content: 'bye\n', commit_message: 'u', last_commit_id: file.last_commit_id },
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toEqual({ file_path: 'docs/guide.md', branch: 'develop' })
    const raw = await t.http('GET', `${path}/raw?ref=develop`, { token: RITA })
    expect(raw.text).toBe('bye\n')

    const taken = await t.http('POST', path, {
      token: DANA,
      json: { branch: 'develop', content: 'x', commit_message: 'again' },
    })
    expect(taken.body).toEqual({ message: 'A file with this name already exists' })
    const deleted = await t.http('DELETE', path, {
      token: DANA,
      json: { branch: 'develop', commit_message: 'rm' },
    })
    expect(deleted.status).toBe(204)
    expect((await t.http('GET', `${path}?ref=develop`, { token: RITA })).status).toBe(404)
    expect((await t.http('GET', `${path}?ref=develop~`, { token: RITA })).body).toEqual({
      message: '404 Commit Not Found',
    })
  })

  it('answers a file whose name is not ASCII, its headers percent-encoded', async () => {
    const name = 'docs/日本 résumé.md'
    const made = await t.http('POST', `${P}/repository/files/${enc(name)}`, {
      token: DANA,
      json: { branch: 'develop', content: 'x', commit_message: 'm' },
    })
    expect(made.status).toBe(201)
    for (const path of [
      `${P}/repository/files/${enc(name)}?ref=develop`,
      `${P}/repository/files/${enc(name)}/raw?ref=develop`,
    ]) {
      const res = await t.http('GET', path, { token: RITA })
      expect(res.status).toBe(200)
      expect(decodeURI(res.headers['x-gitlab-file-path']!)).toBe(name)
    }
  })

  it('reads at a tag, a short SHA and by default the default branch (raw); 403 for a guest of a private project', async () => {
    const c = (
      await t.http('POST', `${P}/repository/commits`, {
        token: MARK,
        json: {
          branch: 'main',
          commit_message: 'm',
          actions: [{ action: 'create', file_path: 'VERSION', content: '1' }],
        },
      })
    ).body as Json
    await t.http('POST', `${P}/repository/tags`, { token: MARK, json: { tag_name: 'v1', ref: 'main' } })
    for (const ref of ['v1', (c.id as string).slice(0, 8), 'main'])
      expect(
        (await t.http('GET', `${P}/repository/files/VERSION/raw?ref=${ref}`, { token: RITA })).text,
      ).toBe('1')
    expect((await t.http('GET', `${P}/repository/files/VERSION/raw`, { token: RITA })).text).toBe('1')
    expect((await t.http('GET', `${P}/repository/files/VERSION/raw`, { token: GUS })).status).toBe(403)
    expect((await t.http('GET', `${P}/repository/files/VERSION?ref=main`, { token: OTTO })).body).toEqual({
      message: '404 Project Not Found',
    })
    expect((await t.http('GET', `${P}/repository/files/VERSION`, { token: RITA })).body).toEqual({
      error: 'ref is missing, ref is empty',
    })
  })
})
