import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, PUBLIC, T } from './issue-details-seed.js'

let t: TestServer
afterEach(() => t.close())

type Json = Record<string, unknown>

describe('related_merge_requests and closed_by', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('lists merge requests that mention or close the issue, as full records', async () => {
    const res = await t.http('GET', `${P}/issues/1/related_merge_requests`, { token: T.reporter })
    expect(res.status).toBe(200)
    const mrs = res.body as Json[]
    expect(mrs.map((m) => [m.iid, m.title, m.state])).toEqual([
      [1, 'Fix first', 'opened'],
      [2, 'Mention first', 'merged'],
    ])
    expect(mrs[0]).toMatchObject({
      source_branch: 'fix-1',
      target_branch: 'main',
      author: { username: 'dana' },
      references: { short: '!1', full: 'acme/widgets!1' },
      web_url: `${t.server.instance.baseUrl}/acme/widgets/-/merge_requests/1`,
      detailed_merge_status: 'mergeable',
      subscribed: false,
      user: { can_merge: false },
      diff_refs: { base_sha: expect.any(String) },
    })
    expect(mrs[1]).toMatchObject({ merged_by: { username: 'mark' }, merge_commit_sha: expect.any(String) })
    expect(res.headers['x-total']).toBe('2')
  })

  it('closed_by lists only the closing merge requests, as basic records', async () => {
    const res = await t.http('GET', `${P}/issues/1/closed_by`, { token: T.reporter })
    const mrs = res.body as Json[]
    expect(mrs.map((m) => m.iid)).toEqual([1])
    expect(mrs[0]).not.toHaveProperty('subscribed')
    expect(mrs[0]).not.toHaveProperty('diff_refs')
    expect((await t.http('GET', `${P}/issues/2/closed_by`, { token: T.reporter })).body).toEqual([])
  })

  it('merge_requests_count counts the closing merge requests only, in every answer', async () => {
    // Issue #1 is closed by !1 and mentioned by !2 (lib/gitlab/issuable_metadata.rb).
    const count = (res: { body: unknown }) => (res.body as Json).merge_requests_count
    const list = await t.http('GET', `${P}/issues`, { token: T.reporter, query: 'iids[]=1' })
    expect((list.body as Json[]).map((i) => i.merge_requests_count)).toEqual([1])
    const all = await t.http('GET', '/api/v4/issues', { token: T.reporter, query: 'scope=all&search=First' })
    expect((all.body as Json[]).map((i) => [i.title, i.merge_requests_count])).toEqual([['First', 1]])
    expect(count(await t.http('GET', `${P}/issues/1`, { token: T.reporter }))).toBe(1)
    expect(
      count(await t.http('PUT', `${P}/issues/1`, { token: T.maintainer, json: { title: 'Edited' } })),
    ).toBe(1)
    expect(count(await t.http('POST', `${P}/issues`, { token: T.maintainer, json: { title: 'New' } }))).toBe(
      0,
    )
  })

  it('hides merge requests of a private project from guests; 404 for hidden issues', async () => {
    expect((await t.http('GET', `${P}/issues/1/related_merge_requests`, { token: T.guest })).body).toEqual([])
    expect((await t.http('GET', `${P}/issues/1/closed_by`, { token: T.outsider })).status).toBe(404)
    expect((await t.http('GET', `${P}/issues/99/closed_by`, { token: T.root })).body).toEqual({
      message: '404 Not found',
    })
  })

  it('paginates', async () => {
    const res = await t.http('GET', `${P}/issues/1/related_merge_requests`, {
      token: T.root,
      query: 'per_page=1&page=2',
    })
    expect((res.body as Json[]).map((m) => m.iid)).toEqual([2])
    expect(res.headers['x-total-pages']).toBe('2')
  })
})

describe('participants', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('author, assignees, then commenters, each once', async () => {
    await t.http('POST', `${P}/issues/1/notes`, { token: T.guest, json: { body: 'me too' } })
    await t.http('POST', `${P}/issues/1/notes`, { token: T.reporter, json: { body: 'assignee here' } })
    await t.http('POST', `${P}/issues/1/notes`, { token: T.guest, json: { body: 'again' } })
    const res = await t.http('GET', `${P}/issues/1/participants`, { token: T.guest })
    expect((res.body as Json[]).map((u) => u.username)).toEqual(['mark', 'rita', 'gus'])
    expect((res.body as Json[])[0]).toEqual({
      id: 3,
      username: 'mark',
      public_email: null,
      name: 'Mark Maintainer',
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${t.server.instance.baseUrl}/mark`,
    })
  })

  it('authors of internal notes only to Planners, Reporters and up (read_internal_note)', async () => {
    const note = (token: string, json: Json) => t.http('POST', `${PUBLIC}/issues/1/notes`, { token, json })
    expect((await note(T.reporter, { body: 'between us', internal: true })).status).toBe(201)
    expect((await note(T.planner, { body: 'in the open' })).status).toBe(201)
    const names = async (token?: string) =>
      ((await t.http('GET', `${PUBLIC}/issues/1/participants`, { token })).body as Json[]).map(
        (u) => u.username,
      )
    for (const token of [undefined, T.outsider, T.guest]) expect(await names(token)).toEqual(['mark', 'pam'])
    for (const token of [T.planner, T.reporter, T.root])
      expect(await names(token)).toEqual(['mark', 'rita', 'pam'])
  })

  it('anonymous on a public project; 404 for a private one', async () => {
    expect((await t.http('GET', `${PUBLIC}/issues/1/participants`)).body).toMatchObject([
      { username: 'mark' },
    ])
    expect((await t.http('GET', `${P}/issues/1/participants`)).body).toEqual({
      message: '404 Project Not Found',
    })
  })
})

describe('user_agent_detail', () => {
  beforeEach(async () => {
    t = await startServer(detailSeed)
  })

  it('administrators see the user agent and IP of an issue created through the API', async () => {
    await t.http('POST', `${P}/issues`, {
      token: T.reporter,
      json: { title: 'Via API' },
      headers: { 'user-agent': 'curl/8.0' },
    })
    const res = await t.http('GET', `${P}/issues/7/user_agent_detail`, { token: T.root })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ user_agent: 'curl/8.0', ip_address: '127.0.0.1', akismet_submitted: false })
  })

  it('401 anonymous, 403 for non-administrators, 404 UserAgentDetail Not Found for seeded issues', async () => {
    expect((await t.http('GET', `${P}/issues/1/user_agent_detail`)).status).toBe(401)
    const owner = await t.http('GET', `${P}/issues/1/user_agent_detail`, { token: T.owner })
    expect([owner.status, owner.body]).toEqual([403, { message: '403 Forbidden' }])
    const seeded = await t.http('GET', `${P}/issues/1/user_agent_detail`, { token: T.root })
    expect([seeded.status, seeded.body]).toEqual([404, { message: '404 UserAgentDetail Not Found' }])
    expect((await t.http('GET', `${P}/issues/x/user_agent_detail`, { token: T.root })).body).toEqual({
      error: 'issue_iid is invalid',
    })
  })
})

describe('issue-creation rate limit', () => {
  const clock = { at: Date.parse('2026-03-01T10:00:10Z'), now: () => new Date(clock.at) }
  const count = async () => ((await t.http('GET', `${P}/issues`, { token: T.root })).body as Json[]).length

  it('refuses the request over the limit with 429 and creates nothing; the next minute is open again', async () => {
    clock.at = Date.parse('2026-03-01T10:00:10Z')
    t = await startServer(detailSeed, { issuesCreateLimit: 2, clock })
    for (const title of ['a', 'b'])
      expect((await t.http('POST', `${P}/issues`, { token: T.reporter, json: { title } })).status).toBe(201)
    const over = await t.http('POST', `${P}/issues`, { token: T.reporter, json: { title: 'c' } })
    expect(over.status).toBe(429)
    expect(over.body).toEqual({
      message: { error: 'This endpoint has been requested too many times. Try again later.' },
    })
    expect(over.headers['retry-after']).toBeUndefined()
    expect(await count()).toBe(8)
    // another user has a budget of their own
    expect((await t.http('POST', `${P}/issues`, { token: T.planner, json: { title: 'p' } })).status).toBe(201)
    clock.at = Date.parse('2026-03-01T10:01:00Z')
    expect((await t.http('POST', `${P}/issues`, { token: T.reporter, json: { title: 'd' } })).status).toBe(
      201,
    )
  })

  it('starts counting again after a reset', async () => {
    t = await startServer(detailSeed, { issuesCreateLimit: 1, clock })
    expect((await t.http('POST', `${P}/issues`, { token: T.reporter, json: { title: 'a' } })).status).toBe(
      201,
    )
    await t.server.reset()
    expect((await t.http('POST', `${P}/issues`, { token: T.reporter, json: { title: 'b' } })).status).toBe(
      201,
    )
  })

  const burst = async (n: number) => {
    const statuses: number[] = []
    for (let i = 0; i < n; i += 50)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, n - i) }, (_, k) =>
            t
              .http('POST', `${P}/issues`, { token: T.reporter, json: { title: `n${i + k}` } })
              .then((r) => r.status),
          ),
        )),
      )
    return statuses
  }

  it('defaults to 300 per minute', async () => {
    clock.at = Date.parse('2026-03-01T10:00:00Z')
    t = await startServer(detailSeed, { clock })
    const statuses = await burst(301)
    expect(statuses.filter((s) => s === 201)).toHaveLength(300)
    expect(statuses.filter((s) => s === 429)).toHaveLength(1)
  })

  it('0 turns it off', async () => {
    t = await startServer(detailSeed, { issuesCreateLimit: 0, clock })
    expect((await burst(5)).every((s) => s === 201)).toBe(true)
  })
})
