import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { TOKENS, membersSeed, memberRows, userId } from './members-seed.js'

/*
 * Project and group members (`lib/api/members.rb`): direct and inherited lists with their filters
 * and pages, one member, and the 4xx answers of the reads. Writes: members-write.test.ts; access
 * that follows memberships: members-access.test.ts.
 */

const SEEDED_AT = '2026-03-01T10:00:00.000Z'
let t: TestServer
beforeAll(async () => {
  t = await startServer(membersSeed, { clock: manualClock(SEEDED_AT) })
})
afterAll(() => t.close())

type Json = Record<string, unknown>
const usernames = (body: unknown) => (body as Json[]).map((m) => `${m.username}:${m.access_level}`)

describe('GET /groups/:id/members and /projects/:id/members', () => {
  it("lists a group's direct members in the order they joined, as Entities::Member", async () => {
    const res = await t.http('GET', '/api/v4/groups/acme/members', { token: TOKENS.mark })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      {
        id: userId(t, 'olivia'),
        username: 'olivia',
        public_email: null,
        name: 'Olivia Owner',
        state: 'active',
        locked: false,
        avatar_url: null,
        web_url: `${t.baseUrl}/olivia`,
        access_level: 50,
        created_at: SEEDED_AT,
        expires_at: null,
        membership_state: 'active',
      },
      expect.objectContaining({ username: 'mark', access_level: 40 }),
    ])
    expect(Object.keys((res.body as Json[])[0]!)).toEqual([
      'id',
      'username',
      'public_email',
      'name',
      'state',
      'locked',
      'avatar_url',
      'web_url',
      'access_level',
      'created_at',
      'expires_at',
      'membership_state',
    ])
    expect(res.headers['x-total']).toBe('2')
    expect(res.headers['x-per-page']).toBe('20')
  })

  it("lists a project's direct members only, by id or path", async () => {
    const byPath = await t.http('GET', '/api/v4/projects/acme%2Fapp/members', { token: TOKENS.pat })
    expect(usernames(byPath.body)).toEqual(['pat:40'])
    const id = (await t.http('GET', '/api/v4/projects/acme%2Fapp', { token: TOKENS.pat })).body as Json
    const byId = await t.http('GET', `/api/v4/projects/${id.id}/members`, { token: TOKENS.pat })
    expect(byId.body).toEqual(byPath.body)
  })

  it('filters by query (name or username, any case), user_ids and skip_users', async () => {
    const q = async (query: string) =>
      usernames((await t.http('GET', '/api/v4/groups/acme/members', { token: TOKENS.mark, query })).body)
    expect(await q('query=OLIV')).toEqual(['olivia:50'])
    expect(await q('query=maintainer')).toEqual(['mark:40'])
    expect(await q('query=nobody')).toEqual([])
    expect(await q(`user_ids=${userId(t, 'mark')},${userId(t, 'otto')}`)).toEqual(['mark:40'])
    expect(await q(`user_ids[]=${userId(t, 'olivia')}`)).toEqual(['olivia:50'])
    expect(await q(`skip_users=${userId(t, 'olivia')}`)).toEqual(['mark:40'])
    // Only administrators find a member by email.
    expect(await q('query=olivia@example.com')).toEqual([])
    const admin = await t.http('GET', '/api/v4/groups/acme/members', {
      token: TOKENS.root,
      query: 'query=olivia@example.com',
    })
    expect(usernames(admin.body)).toEqual(['olivia:50'])
  })

  it("pages with GitLab's headers, links carrying Grape's params", async () => {
    const res = await t.http('GET', '/api/v4/groups/acme/members', {
      token: TOKENS.mark,
      query: 'per_page=1&page=2',
    })
    expect(usernames(res.body)).toEqual(['mark:40'])
    expect(res.headers).toMatchObject({
      'x-total': '2',
      'x-total-pages': '2',
      'x-page': '2',
      'x-per-page': '1',
      'x-prev-page': '1',
      'x-next-page': '',
    })
    expect(res.headers.link).toContain(
      `<${t.baseUrl}/api/v4/groups/acme/members?id=acme&page=1&per_page=1>; rel="prev"`,
    )
  })
})

describe("the member's edition keys", () => {
  it('EE shows administrators the email; CE has neither email nor membership_state', async () => {
    const olivia = userId(t, 'olivia')
    const admin = await t.http('GET', `/api/v4/groups/acme/members/${olivia}`, { token: TOKENS.root })
    expect(Object.keys(admin.body as Json).slice(-4)).toEqual([
      'created_at',
      'expires_at',
      'email',
      'membership_state',
    ])
    expect(admin.body).toMatchObject({ email: 'olivia@example.com', membership_state: 'active' })
    const ce = await startServer(membersSeed, { clock: manualClock(SEEDED_AT), edition: 'ce' })
    try {
      const res = await ce.http('GET', `/api/v4/groups/acme/members/${olivia}`, { token: TOKENS.root })
      expect(Object.keys(res.body as Json).slice(-3)).toEqual(['access_level', 'created_at', 'expires_at'])
    } finally {
      await ce.close()
    }
  })
})

describe('GET .../members/all', () => {
  it("a subgroup's members with its ancestors', each user once at the highest level", async () => {
    const res = await t.http('GET', '/api/v4/groups/acme%2Fsub/members/all', { token: TOKENS.dana })
    expect(res.status).toBe(200)
    // Ordered by the membership chosen: olivia and mark joined acme first, dana acme/sub.
    expect(usernames(res.body)).toEqual(['olivia:50', 'mark:40', 'dana:30'])
    expect(res.headers['x-total']).toBe('3')
  })

  it("a project's members with those of its group and the groups above", async () => {
    const res = await t.http('GET', '/api/v4/projects/acme%2Fsub%2Flib/members/all', { token: TOKENS.rita })
    expect(usernames(res.body)).toEqual(['olivia:50', 'mark:40', 'dana:30', 'rita:20'])
    const filtered = await t.http('GET', '/api/v4/projects/acme%2Fsub%2Flib/members/all', {
      token: TOKENS.rita,
      query: `user_ids=${userId(t, 'mark')}&query=mark`,
    })
    expect(usernames(filtered.body)).toEqual(['mark:40'])
    const direct = await t.http('GET', '/api/v4/projects/acme%2Fsub%2Flib/members', { token: TOKENS.rita })
    expect(usernames(direct.body)).toEqual(['rita:20'])
  })
})

describe('GET .../members/:user_id and .../members/all/:user_id', () => {
  it('reads a direct member; an inherited one only through /all', async () => {
    const mark = userId(t, 'mark')
    const direct = await t.http('GET', `/api/v4/groups/acme%2Fsub/members/${mark}`, { token: TOKENS.dana })
    expect(direct.status).toBe(200)
    expect(direct.body).toMatchObject({ id: mark, username: 'mark', access_level: 30 })
    const all = await t.http('GET', `/api/v4/groups/acme%2Fsub/members/all/${mark}`, { token: TOKENS.dana })
    expect(all.body).toMatchObject({ id: mark, access_level: 40 })

    const olivia = userId(t, 'olivia')
    const notDirect = await t.http('GET', `/api/v4/projects/acme%2Fapp/members/${olivia}`, {
      token: TOKENS.pat,
    })
    expect(notDirect.status).toBe(404)
    expect(notDirect.body).toEqual({ message: '404 Not found' })
    const inherited = await t.http('GET', `/api/v4/projects/acme%2Fapp/members/all/${olivia}`, {
      token: TOKENS.pat,
    })
    expect(inherited.body).toMatchObject({ username: 'olivia', access_level: 50 })
    const nobody = await t.http('GET', `/api/v4/projects/acme%2Fapp/members/all/${userId(t, 'otto')}`, {
      token: TOKENS.pat,
    })
    expect(nobody.status).toBe(404)
    expect(nobody.body).toEqual({ message: '404 Not found' })
  })
})

describe('refused reads', () => {
  it('401 anonymous, 404 a hidden or missing source, 400 a bad user id', async () => {
    const anonymous = await t.http('GET', '/api/v4/groups/acme/members')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' })
    const hidden = await t.http('GET', '/api/v4/groups/acme/members', { token: TOKENS.otto })
    expect(hidden.status).toBe(404)
    expect(hidden.body).toEqual({ message: '404 Group Not Found' })
    const missing = await t.http('GET', '/api/v4/groups/nope/members/all', { token: TOKENS.root })
    expect(missing.body).toEqual({ message: '404 Group Not Found' })
    const project = await t.http('GET', '/api/v4/projects/acme%2Fapp/members', { token: TOKENS.otto })
    expect(project.status).toBe(404)
    expect(project.body).toEqual({ message: '404 Project Not Found' })
    const bad = await t.http('GET', '/api/v4/projects/acme%2Fapp/members/abc', { token: TOKENS.pat })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ error: 'user_id is invalid' })
    expect(memberRows(t)).toHaveLength(6)
  })
})
