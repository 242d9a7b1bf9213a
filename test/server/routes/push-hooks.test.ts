import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { hookReceiver } from '../../support/hook-receiver.js'
import { DANA, MARK, repositorySeed } from '../../support/repository-seed.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fapp'
const ZERO = '0'.repeat(40)
type Json = Record<string, unknown>

let t: TestServer
let clock: ReturnType<typeof manualClock>
let receiver: Awaited<ReturnType<typeof hookReceiver>>
beforeEach(async () => {
  clock = manualClock('2026-03-01T10:00:00.000Z')
  t = await startServer(repositorySeed, { clock, allowLocalRequests: true })
  receiver = await hookReceiver()
})
afterEach(async () => {
  await t.close()
  await receiver.close()
})

const addHook = async (json: Json, path = P) => {
  const res = await t.http('POST', `${path}/hooks`, { token: MARK, json: { url: receiver.url, ...json } })
  expect(res.status).toBe(201)
  return res.body as Json
}
const settle = async () => {
  const res = await t.http('POST', '/-/emulator/settle', { token: ROOT, json: {} })
  expect(res.status).toBe(200)
}
const sha = async (ref: string) =>
  ((await t.http('GET', `${P}/repository/commits/${ref}`, { token: MARK })).body as Json).id as string
const commit = async (branch: string, path: string, extra: Json = {}) => {
  clock.advance(1000)
  const res = await t.http('POST', `${P}/repository/commits`, {
    token: MARK,
    json: {
      branch,
      commit_message: `add ${path}\n\nbody`,
      actions: [{ action: 'create', file_path: path, content: 'x' }],
      ...extra,
    },
  })
  expect(res.status).toBe(201)
  return (res.body as Json).id as string
}
const received = () => receiver.got.map((r) => ({ event: r.headers['x-gitlab-event'], body: r.body }))

describe('push hooks', () => {
  it("sends GitLab's Push Hook for a commit: keys in order, the new commit with its files", async () => {
    await addHook({ push_events: true })
    await addHook({ push_events: false, issues_events: true })
    const before = await sha('main')
    const after = await commit('main', 'docs/a.md')
    await settle()
    expect(received().map((r) => r.event)).toEqual(['Push Hook'])
    const body = receiver.got[0]!.body
    expect(Object.keys(body)).toEqual([
      'object_kind',
      'event_name',
      'before',
      'after',
      'ref',
      'ref_protected',
      'checkout_sha',
      'message',
      'user_id',
      'user_name',
      'user_username',
      'user_email',
      'user_avatar',
      'project_id',
      'project',
      'commits',
      'total_commits_count',
      'push_options',
      'repository',
    ])
    expect(body).toMatchObject({
      object_kind: 'push',
      event_name: 'push',
      before,
      after,
      ref: 'refs/heads/main',
      ref_protected: true,
      checkout_sha: after,
      message: null,
      user_username: 'mark',
      total_commits_count: 1,
      push_options: {},
      project: { path_with_namespace: 'acme/app', default_branch: 'main' },
      repository: { name: 'app', visibility_level: 0 },
    })
    expect(body.commits).toEqual([
      {
        id: after,
        message: 'add docs/a.md\n\nbody',
        title: 'add docs/a.md',
        timestamp: '2026-03-01T10:00:01+00:00',
        url: expect.stringMatching(new RegExp(`/acme/app/-/commit/${after}$`)),
        author: { name: 'Mark Maintainer', email: 'mark@example.com' },
        added: ['docs/a.md'],
        modified: [],
        removed: [],
      },
    ])
    const logged = inspectDb(t.server.store)
      .prepare('SELECT trigger, response_status FROM web_hook_logs')
      .all()
    expect(logged).toEqual([{ trigger: 'push_hooks', response_status: '200' }])
  })

  it('lists the commits a new branch adds to the default branch; a deletion has none', async () => {
    await addHook({})
    const main = await sha('main')
    await commit('topic', 'one.txt', { start_branch: 'main' })
    const two = await commit('topic', 'two.txt')
    await settle()
    receiver.got.length = 0
    // A branch made from main adds nothing to it: before is the blank SHA, no commits.
    expect(
      (await t.http('POST', `${P}/repository/branches`, { token: MARK, json: { branch: 'b1', ref: 'main' } }))
        .status,
    ).toBe(201)
    // One made from topic lists the two commits main does not have, oldest first.
    expect(
      (
        await t.http('POST', `${P}/repository/branches`, {
          token: MARK,
          json: { branch: 'b2', ref: 'topic' },
        })
      ).status,
    ).toBe(201)
    expect((await t.http('DELETE', `${P}/repository/branches/b1`, { token: MARK })).status).toBe(204)
    await settle()
    const bodies = received().map((r) => r.body)
    bodies.sort(
      (a, b) =>
        String(a.ref).localeCompare(String(b.ref)) || Number(a.after === ZERO) - Number(b.after === ZERO),
    )
    expect(bodies.map((b) => [b.ref, b.before, b.after, b.checkout_sha, b.total_commits_count])).toEqual([
      ['refs/heads/b1', ZERO, main, main, 0],
      ['refs/heads/b1', main, ZERO, null, 0],
      ['refs/heads/b2', ZERO, two, two, 2],
    ])
    expect(bodies[0]!.commits).toEqual([])
    expect(bodies[1]!.commits).toEqual([])
    expect((bodies[2]!.commits as Json[]).map((c) => c.title)).toEqual(['add one.txt', 'add two.txt'])
    expect(bodies[2]!.ref_protected).toBe(false)
  })

  it('lists the newest 20 of more commits, oldest first, and counts them all', async () => {
    // The hook's filter lets none of the 22 commits through; the branch made from them then lists them.
    const hook = await addHook({ push_events_branch_filter: 'copy' })
    const made: string[] = []
    for (let i = 0; i < 22; i++)
      made.push(await commit('bulk', `f${i}.txt`, { start_branch: i === 0 ? 'main' : 'bulk' }))
    await settle()
    expect(receiver.got).toHaveLength(0)
    const copy = await t.http('POST', `${P}/repository/branches`, {
      token: MARK,
      json: { branch: 'copy', ref: 'bulk' },
    })
    expect(copy.status).toBe(201)
    await settle()
    expect(receiver.got.map((r) => r.body.ref)).toEqual(['refs/heads/copy'])
    const body = receiver.got[0]!.body
    expect(body.total_commits_count).toBe(22)
    expect((body.commits as Json[]).map((c) => c.id)).toEqual(made.slice(2))
    expect(hook.push_events_branch_filter).toBe('copy')
  })

  it("sends the Tag Push Hook to hooks with tag_push_events: an annotated tag's object as after", async () => {
    await addHook({ push_events: false, tag_push_events: true })
    const head = await sha('main')
    const made = await t.http('POST', `${P}/repository/tags`, {
      token: MARK,
      json: { tag_name: 'v1', ref: 'main', message: 'release one' },
    })
    expect(made.status).toBe(201)
    await commit('main', 'not-sent.txt')
    expect((await t.http('DELETE', `${P}/repository/tags/v1`, { token: MARK })).status).toBe(204)
    await settle()
    expect(received().map((r) => r.event)).toEqual(['Tag Push Hook', 'Tag Push Hook'])
    const [created, deleted] = receiver.got.map((r) => r.body)
    expect(created).toMatchObject({
      object_kind: 'tag_push',
      event_name: 'tag_push',
      before: ZERO,
      ref: 'refs/tags/v1',
      ref_protected: false,
      checkout_sha: head,
      message: 'release one',
      total_commits_count: 1,
    })
    expect(created!.after).toMatch(/^[0-9a-f]{40}$/)
    expect(created!.after).not.toBe(head)
    expect((created!.commits as Json[]).map((c) => c.id)).toEqual([head])
    const light = await t.http('POST', `${P}/repository/tags`, {
      token: MARK,
      json: { tag_name: 'v2', ref: 'main' },
    })
    expect(light.status).toBe(201)
    await settle()
    const main = await sha('main')
    expect(receiver.got[2]!.body).toMatchObject({
      ref: 'refs/tags/v2',
      after: main,
      checkout_sha: main,
      message: '',
    })
    expect(deleted).toMatchObject({
      after: ZERO,
      checkout_sha: null,
      message: null,
      commits: [],
      total_commits_count: 0,
    })
  })
})

describe('push_events_branch_filter', () => {
  it('lets through the branches a wildcard or a regex names, and all of them for all_branches', async () => {
    const wild = await addHook({ push_events_branch_filter: 'feature/*' })
    expect(wild).toMatchObject({ push_events_branch_filter: 'feature/*', branch_filter_strategy: 'wildcard' })
    const regex = await addHook({ push_events_branch_filter: '^dev', branch_filter_strategy: 'regex' })
    const all = await addHook({ push_events_branch_filter: 'x', branch_filter_strategy: 'all_branches' })
    expect(all).toMatchObject({ push_events_branch_filter: null, branch_filter_strategy: 'all_branches' })
    await commit('develop', 'd.txt')
    await commit('feature/login', 'f.txt', { start_branch: 'main' })
    await commit('main', 'm.txt')
    await settle()
    const byHook = inspectDb(t.server.store)
      .prepare('SELECT web_hook_id, request_data FROM web_hook_logs ORDER BY id')
      .all() as { web_hook_id: number; request_data: string }[]
    const refs = (id: unknown) =>
      byHook
        .filter((l) => l.web_hook_id === id)
        .map((l) => (JSON.parse(l.request_data) as Json).ref)
        .sort()
    expect(refs(wild.id)).toEqual(['refs/heads/feature/login'])
    expect(refs(regex.id)).toEqual(['refs/heads/develop'])
    expect(refs(all.id)).toEqual(['refs/heads/develop', 'refs/heads/feature/login', 'refs/heads/main'])
  })

  it("refuses a bad filter or strategy with GitLab's answer and keeps the hook as it was", async () => {
    const hook = await addHook({ push_events_branch_filter: 'main' })
    const bad = await t.http('POST', `${P}/hooks`, {
      token: MARK,
      json: { url: receiver.url, push_events_branch_filter: 'bad branch..name' },
    })
    expect([bad.status, bad.body]).toEqual([422, { message: 'Invalid branch filter given' }])
    const badRegex = await t.http('PUT', `${P}/hooks/${hook.id}`, {
      token: MARK,
      json: { push_events_branch_filter: '(', branch_filter_strategy: 'regex' },
    })
    expect([badRegex.status, badRegex.body]).toEqual([422, { message: 'Invalid branch filter given' }])
    const badStrategy = await t.http('PUT', `${P}/hooks/${hook.id}`, {
      token: MARK,
      json: { branch_filter_strategy: 'glob' },
    })
    expect([badStrategy.status, badStrategy.body]).toEqual([
      400,
      { error: 'branch_filter_strategy does not have a valid value' },
    ])
    const forbidden = await t.http('PUT', `${P}/hooks/${hook.id}`, {
      token: DANA,
      json: { push_events_branch_filter: 'x' },
    })
    expect(forbidden.status).toBe(403)
    const rows = inspectDb(t.server.store)
      .prepare('SELECT push_events_branch_filter, branch_filter_strategy FROM web_hooks')
      .all()
    expect(rows).toEqual([{ push_events_branch_filter: 'main', branch_filter_strategy: 'wildcard' }])
  })
})

describe('POST .../hooks/:hook_id/test/push_events and tag_push_events', () => {
  it("sends the default branch's newest three commits, newest first", async () => {
    const hook = await addHook({ push_events: false })
    const a = await commit('main', 'a.txt')
    const b = await commit('main', 'b.txt')
    const c = await commit('main', 'c.txt')
    const res = await t.http('POST', `${P}/hooks/${hook.id}/test/push_events`, { token: MARK })
    expect([res.status, res.body]).toEqual([201, { message: '201 Created' }])
    expect(received()[0]!.event).toBe('Push Hook')
    expect(receiver.got[0]!.body).toMatchObject({
      object_kind: 'push',
      before: a,
      after: c,
      ref: 'refs/heads/main',
      checkout_sha: c,
      total_commits_count: 3,
    })
    expect((receiver.got[0]!.body.commits as Json[]).map((x) => x.id)).toEqual([c, b, a])

    const tag = await t.http('POST', `${P}/hooks/${hook.id}/test/tag_push_events`, { token: MARK })
    expect(tag.status).toBe(201)
    expect(received()[1]!.event).toBe('Tag Push Hook')
    expect(receiver.got[1]!.body).toMatchObject({
      object_kind: 'tag_push',
      ref: 'refs/tags/v1.0.0',
      checkout_sha: null,
    })
  })
})

describe('settle and webhook deliveries', () => {
  it('waits for deliveries queued and under way, up to its timeout (504 with what is left)', async () => {
    await addHook({})
    receiver.state.hold = true
    await commit('main', 'slow.txt')
    const short = await t.http('POST', '/-/emulator/settle', { token: ROOT, json: { timeout: 0.3 } })
    expect(short.status).toBe(504)
    expect(short.body).toMatchObject({
      message: 'settle timed out after 0.3 s: webhook deliveries are still under way',
      pending: { pipelines: [], transfer_jobs: 0, webhook_deliveries: 1 },
    })
    const count = () =>
      inspectDb(t.server.store).prepare('SELECT COUNT(*) FROM web_hook_logs').pluck().get() as number
    expect(count()).toBe(0)
    setTimeout(() => receiver.release(), 300)
    const started = Date.now()
    await settle()
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    // Settled means delivered and logged: no polling.
    expect(count()).toBe(1)
  })
})

describe('group hooks (EE)', () => {
  it("hear their projects' pushes; a test sends GitLab's fixed sample", async () => {
    const G = '/api/v4/groups/acme'
    const made = await t.http('POST', `${G}/hooks`, {
      token: ROOT,
      json: { url: receiver.url, push_events: true, tag_push_events: true },
    })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ push_events: true, tag_push_events: true })
    const id = (made.body as Json).id
    const after = await commit('main', 'g.txt')
    await settle()
    expect(received().map((r) => [r.event, r.body.after])).toEqual([['Push Hook', after]])
    const test = await t.http('POST', `${G}/hooks/${id}/test/push_events`, { token: ROOT })
    expect(test.status).toBe(201)
    expect(receiver.got[1]!.body).toMatchObject({
      object_kind: 'push',
      after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      project: { path_with_namespace: 'gitlab/gitlab' },
    })
    const tag = await t.http('POST', `${G}/hooks/${id}/test/tag_push_events`, { token: ROOT })
    expect([tag.status, tag.body]).toEqual([422, { message: 'Testing not available for this hook' }])
    expect(receiver.got).toHaveLength(2)
  })
})

describe('--data and reset', () => {
  it("keeps a hook's push settings across a restart; a reset removes the hook", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-push-hooks-'))
    try {
      const first = await startServer(repositorySeed, { data: dir, allowLocalRequests: true })
      const made = await first.http('POST', `${P}/hooks`, {
        token: MARK,
        json: { url: receiver.url, tag_push_events: true, push_events_branch_filter: 'rel/*' },
      })
      expect(made.status).toBe(201)
      await first.close()
      const second = await startServer(repositorySeed, { data: dir, allowLocalRequests: true })
      try {
        const read = await second.http('GET', `${P}/hooks/${(made.body as Json).id}`, { token: MARK })
        expect(read.body).toEqual(made.body)
        expect(read.body).toMatchObject({ tag_push_events: true, push_events_branch_filter: 'rel/*' })
        const reset = await second.http('POST', '/-/emulator/reset', { token: ROOT })
        expect(reset.status).toBe(200)
        const list = await second.http('GET', `${P}/hooks`, { token: MARK })
        expect(list.body).toEqual([])
      } finally {
        await second.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
