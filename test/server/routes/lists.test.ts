import { startServer, type TestServer } from '../../support/server.js'

const seed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
  - { username: alice, name: Alice Liddell, token: glpat-alice-token }
  - { username: bob, token: glpat-bob-token }
  - { username: carol, state: blocked }
groups:
  - { path: acme, visibility: private, members: { alice: owner } }
  - { path: acme/platform, visibility: private }
  - { path: open, visibility: public }
  - { path: inner, visibility: internal, members: { bob: developer } }
  - { path: hidden, visibility: private }
projects:
  - { path: acme/secret, visibility: private }
  - { path: acme/platform/api, visibility: private }
  - { path: open/site, visibility: public }
  - { path: open/old, visibility: public, archived: true }
  - { path: inner/tool, visibility: internal }
  - { path: hidden/vault, visibility: private, members: { bob: reporter } }
  - { path: alice/notes, visibility: private }
`
type Json = Record<string, unknown>
let t: TestServer
beforeAll(async () => {
  t = await startServer(seed)
})
afterAll(() => t.close())

const ALICE = 'glpat-alice-token'
const BOB = 'glpat-bob-token'
const ROOT = 'glpat-root-token'

const list = async (path: string, query = '', token?: string) => {
  const res = await t.http('GET', path, { query, token })
  expect(res.status).toBe(200)
  return res
}
const field = async (path: string, key: string, query = '', token?: string) =>
  ((await list(path, query, token)).body as Json[]).map((r) => r[key])

describe('GET /projects', () => {
  const paths = (query = '', token?: string) => field('/api/v4/projects', 'path_with_namespace', query, token)

  it('shows each caller only what it may read: public anonymously, internal to users, private to members', async () => {
    expect((await paths('', undefined)).sort()).toEqual(['open/old', 'open/site'])
    expect((await paths('', BOB)).sort()).toEqual(['hidden/vault', 'inner/tool', 'open/old', 'open/site'])
    expect((await paths('', ALICE)).sort()).toEqual([
      'acme/platform/api',
      'acme/secret',
      'alice/notes',
      'inner/tool',
      'open/old',
      'open/site',
    ])
    expect(await paths('', ROOT)).toHaveLength(7)
  })

  it('filters by membership, owned, search, visibility and archived', async () => {
    expect((await paths('membership=true', BOB)).sort()).toEqual(['hidden/vault', 'inner/tool'])
    expect((await paths('owned=true', ALICE)).sort()).toEqual([
      'acme/platform/api',
      'acme/secret',
      'alice/notes',
    ])
    expect((await paths('owned=true', BOB)).sort()).toEqual([])
    expect(await paths('search=SIT', ALICE)).toEqual(['open/site'])
    expect((await paths('visibility=internal', BOB)).sort()).toEqual(['inner/tool'])
    expect(await paths('archived=true', BOB)).toEqual(['open/old'])
    expect(await paths('archived=false&visibility=public', BOB)).toEqual(['open/site'])
    // Anonymous callers have no memberships: GitLab's finder ignores the two filters for them.
    expect((await paths('membership=true')).sort()).toEqual(['open/old', 'open/site'])
  })

  it('orders by created_at desc by default, ties by id, and by order_by/sort', async () => {
    const ids = (await field('/api/v4/projects', 'id', '', ROOT)) as number[]
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    // By the project's own path, not the full path.
    expect(await paths('order_by=path&sort=asc', BOB)).toEqual([
      'open/old',
      'open/site',
      'inner/tool',
      'hidden/vault',
    ])
  })

  it('pages with offset headers', async () => {
    const res = await list('/api/v4/projects', 'per_page=2&page=2&order_by=id&sort=asc', ROOT)
    expect((res.body as Json[]).map((p) => p.id)).toEqual([3, 4])
    expect(res.headers['x-total']).toBe('7')
    expect(res.headers['x-total-pages']).toBe('4')
    expect(res.headers['x-next-page']).toBe('3')
    expect(res.headers.link).toContain('rel="next"')
  })

  it('pages by keyset on order_by=id, following the next link to the end; other orders are 405', async () => {
    const seen: number[] = []
    let url: string | undefined =
      `${t.baseUrl}/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=3`
    while (url) {
      const res = await t.http('GET', url.slice(t.baseUrl.length), { token: ROOT })
      expect(res.status).toBe(200)
      expect(res.headers['x-total']).toBeUndefined()
      seen.push(...(res.body as Json[]).map((p) => p.id as number))
      url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1]
      if (url) expect(url).toContain('id_after=')
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7])
    const desc = await list('/api/v4/projects', 'pagination=keyset&order_by=id&per_page=2', ROOT)
    expect((desc.body as Json[]).map((p) => p.id)).toEqual([7, 6])
    expect(desc.headers.link).toContain('id_before=6')
    const refused = await t.http('GET', '/api/v4/projects', { query: 'pagination=keyset', token: ROOT })
    expect(refused.status).toBe(405)
    expect(refused.body).toEqual({ error: 'Keyset pagination is not yet available for this type of request' })
  })

  it('answers ProjectWithAccess to users, BasicProjectDetails anonymously and with simple=true', async () => {
    const [full] = (await list('/api/v4/projects', 'search=vault', BOB)).body as Json[]
    expect(full!.permissions).toEqual({
      project_access: { access_level: 20, notification_level: 3 },
      group_access: null,
    })
    expect(full!.visibility).toBe('private')
    const [simple] = (await list('/api/v4/projects', 'search=vault&simple=true', BOB)).body as Json[]
    expect(simple!.visibility).toBeUndefined()
    expect(simple!.path_with_namespace).toBe('hidden/vault')
    expect(Object.keys(simple!)).toContain('namespace')
    const [anon] = (await list('/api/v4/projects', 'search=site')).body as Json[]
    expect(anon!.permissions).toBeUndefined()
    expect(anon!._links).toBeUndefined()
  })

  it('answers GET /projects/:id anonymously with BasicProjectDetails, and with permissions to users', async () => {
    const [simple] = (await list('/api/v4/projects', 'search=site&simple=true', BOB)).body as Json[]
    const anon = await t.http('GET', '/api/v4/projects/open%2Fsite')
    expect(anon.status).toBe(200)
    expect(anon.body).toMatchObject({ path_with_namespace: 'open/site', namespace: { path: 'open' } })
    expect(Object.keys(anon.body as Json)).toEqual(Object.keys(simple!))
    const signedIn = await t.http('GET', '/api/v4/projects/open%2Fsite', { token: BOB })
    expect(signedIn.body).toMatchObject({ visibility: 'public', permissions: expect.any(Object) })
  })

  it('refuses a bad parameter with Grape’s error', async () => {
    const res = await t.http('GET', '/api/v4/projects', { query: 'order_by=stars', token: BOB })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'order_by does not have a valid value' })
  })
})

describe('GET /users', () => {
  const usernames = (query = '', token?: string) => field('/api/v4/users', 'username', query, token)

  it('is 403 anonymously without username, and finds one user by username', async () => {
    const res = await t.http('GET', '/api/v4/users')
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' })
    expect(await usernames('username=ALICE')).toEqual(['alice'])
    expect(await usernames('username=nobody')).toEqual([])
  })

  it('lists active users newest first to users, everyone to administrators', async () => {
    expect(await usernames('', BOB)).toEqual(['bob', 'alice', 'root'])
    expect(await usernames('', ROOT)).toEqual(['carol', 'bob', 'alice', 'root'])
    expect(await usernames('blocked=true', ROOT)).toEqual(['carol'])
    expect(await usernames('blocked=true', BOB)).toEqual([])
    expect(await usernames('active=true', ROOT)).toEqual(['bob', 'alice', 'root'])
  })

  it('searches names and usernames; order_by counts for administrators only', async () => {
    expect(await usernames('search=liddell', BOB)).toEqual(['alice'])
    expect(await usernames('search=example.com', BOB)).toEqual([])
    // An email matches administrators' searches whole, never in part (`with_primary_or_secondary_email`).
    expect(await usernames('search=alice@example', ROOT)).toEqual([])
    expect(await usernames('search=ALICE@example.com', ROOT)).toEqual(['alice'])
    expect(await usernames('search=alice@example.com', BOB)).toEqual([])
    expect(await usernames('order_by=username&sort=asc', ROOT)).toEqual(['alice', 'bob', 'carol', 'root'])
    expect(await usernames('order_by=username&sort=asc', BOB)).toEqual(['bob', 'alice', 'root'])
  })

  it('gives administrators the UserWithAdmin entity, others UserBasic, with page headers', async () => {
    const [adminView] = (await list('/api/v4/users', 'username=alice', ROOT)).body as Json[]
    expect(adminView).toMatchObject({ username: 'alice', email: 'alice@example.com', is_admin: false })
    const [userView] = (await list('/api/v4/users', 'username=alice', BOB)).body as Json[]
    expect(userView!.email).toBeUndefined()
    const res = await list('/api/v4/users', 'per_page=1&page=2', BOB)
    expect(res.headers['x-total']).toBe('3')
    expect((res.body as Json[]).map((u) => u.username)).toEqual(['alice'])
  })
})

describe('GET /users searched as User.search does, and what non-administrators may order by', () => {
  const searchSeed = `
users:
  - { username: root, name: Administrator, admin: true, token: glpat-root-token }
  - { username: annabel, name: Annabel Lee, token: glpat-annabel-token }
  - { username: ann, name: Zoe }
  - { username: joanne, name: Ann }
  - { username: bob, name: Bob Annis }
  - { username: jo, name: Jo March }
`
  const USER = 'glpat-annabel-token'
  let u: TestServer
  beforeAll(async () => {
    u = await startServer(searchSeed)
  })
  afterAll(() => u.close())
  const found = async (query: string, token = USER) => {
    const res = await u.http('GET', '/api/v4/users', { query, token })
    expect(res.status).toBe(200)
    return (res.body as Json[]).map((x) => x.username)
  }

  it('puts exact matches first for non-administrators (username, then name), the rest by name', async () => {
    expect(await found('search=ann')).toEqual(['ann', 'joanne', 'annabel', 'bob'])
    // order_by and sort are dropped for them: the search's order stays.
    expect(await found('search=ann&order_by=username&sort=desc')).toEqual(['ann', 'joanne', 'annabel', 'bob'])
    // Administrators' results follow order_by and sort, id desc by default.
    expect(await found('search=ann', ROOT)).toEqual(['bob', 'joanne', 'ann', 'annabel'])
    expect(await found('search=ann&order_by=username&sort=asc', ROOT)).toEqual([
      'ann',
      'annabel',
      'bob',
      'joanne',
    ])
  })

  it('matches words of 3 characters or more as parts, all of them; shorter queries only whole', async () => {
    expect(await found('search=JO')).toEqual(['jo'])
    expect(await found('search=jo%20march')).toEqual(['jo'])
    expect(await found('search=annis%20bob')).toEqual(['bob'])
    expect(await found('search=annis%20xyz')).toEqual([])
    expect(await found('search=%22bob%20annis%22')).toEqual(['bob'])
    // A leading @ is a mention, dropped; alone, it matches nobody.
    expect(await found('search=%40joanne')).toEqual(['joanne'])
    expect(await found('search=%40')).toEqual([])
    // A blank search is no search.
    expect(await found('search=%20&per_page=2')).toEqual(['jo', 'bob'])
  })

  it('pages a non-administrator’s search by keyset in its own order, with its own cursor columns', async () => {
    const names: unknown[] = []
    const cursors: unknown[] = []
    let path: string | undefined =
      '/api/v4/users?pagination=keyset&search=ann&per_page=3&order_by=id&sort=asc'
    for (let guard = 0; path && guard < 5; guard++) {
      const res = await u.http('GET', path, { token: USER })
      names.push(...(res.body as Json[]).map((x) => x.username))
      const next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1]
      if (next) {
        const url = new URL(next)
        expect(url.searchParams.has('order_by') || url.searchParams.has('sort')).toBe(false)
        cursors.push(JSON.parse(Buffer.from(url.searchParams.get('cursor') ?? '', 'base64url').toString()))
        path = url.pathname + url.search
      } else path = undefined
    }
    expect(names).toEqual(['ann', 'joanne', 'annabel', 'bob'])
    expect(cursors).toEqual([
      {
        users_match_priority: '3',
        users_name: 'Annabel Lee',
        users_id: expect.stringMatching(/^\d+$/),
        _kd: 'n',
      },
    ])
  })

  it('leaves order_by and sort out of a non-administrator’s links, as GitLab drops them', async () => {
    const res = await u.http('GET', '/api/v4/users', {
      query: 'order_by=username&sort=asc&per_page=1',
      token: USER,
    })
    expect(res.headers.link).not.toMatch(/order_by|sort/)
    const admin = await u.http('GET', '/api/v4/users', {
      query: 'order_by=username&sort=asc&per_page=1',
      token: ROOT,
    })
    expect(admin.headers.link).toMatch(/order_by=username.*sort=asc/)
  })
})

describe('GET /users by keyset (16.5+) and its offset limit (17.0+)', () => {
  /** Every page of a keyset walk from `query`, following rel="next" as given. */
  const walk = async (query: string, token?: string) => {
    const pages: { names: unknown[]; headers: Record<string, string> }[] = []
    let path: string | undefined = `/api/v4/users?${query}`
    for (let guard = 0; path && guard < 10; guard++) {
      const res = await t.http('GET', path, { token })
      expect(res.status).toBe(200)
      pages.push({ names: (res.body as Json[]).map((u) => u.username), headers: res.headers })
      const next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1]
      path = next && new URL(next).pathname + new URL(next).search
    }
    return pages
  }

  it('walks the users by cursor in any order, each link carrying the query, no totals, none after the last', async () => {
    const byName = await walk('pagination=keyset&order_by=username&sort=asc&per_page=3', ROOT)
    expect(byName.map((p) => p.names)).toEqual([['alice', 'bob', 'carol'], ['root']])
    const [first, last] = byName
    for (const name of ['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page'])
      expect(first!.headers).not.toHaveProperty(name)
    expect(first!.headers.link).toMatch(
      /^<http:\/\/127\.0\.0\.1:\d+\/api\/v4\/users\?active=false&admins=false&blocked=false&cursor=[\w-]+&exclude_external=false&exclude_internal=false&external=false&order_by=username&page=1&pagination=keyset&per_page=3&sort=asc&with_custom_attributes=false&without_projects=false>; rel="next"$/,
    )
    expect(last!.headers).not.toHaveProperty('link')
    // Newest first by default; a full last page has no next link (the row after a page decides).
    expect((await walk('pagination=keyset&per_page=2', ROOT)).map((p) => p.names)).toEqual([
      ['carol', 'bob'],
      ['alice', 'root'],
    ])
    expect(
      (await walk('pagination=keyset&order_by=name&sort=desc&per_page=2', ROOT)).flatMap((p) => p.names),
    ).toEqual(['root', 'carol', 'bob', 'alice'])
  })

  it('keeps the filters and the caller’s view across pages', async () => {
    // Others see active users only, newest first, whatever order they ask for.
    const bob = await walk('pagination=keyset&per_page=1&order_by=username&sort=asc', BOB)
    expect(bob.map((p) => p.names)).toEqual([['bob'], ['alice'], ['root']])
    expect(await walk('pagination=keyset&per_page=1&active=true', ROOT)).toHaveLength(3)
  })

  /** A cursor as GitLab writes one: padded URL-safe Base64 of the JSON of the order columns, id and `_kd`. */
  const gitlabCursor = (attributes: unknown) =>
    encodeURIComponent(
      Buffer.from(JSON.stringify(attributes)).toString('base64').replaceAll('+', '-').replaceAll('/', '_'),
    )
  const usernames = async (query: string) =>
    ((await list('/api/v4/users', `pagination=keyset&${query}`, ROOT)).body as Json[]).map((u) => u.username)

  it('writes cursors as GitLab does: the order column, then id, then the direction', async () => {
    const res = await list('/api/v4/users', 'pagination=keyset&order_by=username&sort=asc&per_page=2', ROOT)
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1] ?? ''
    const cursor = new URL(next).searchParams.get('cursor') ?? ''
    expect(cursor).toMatch(/^[\w-]+=*$/)
    const bob = (res.body as Json[])[1]!
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString())).toEqual({
      username: 'bob',
      id: String(bob.id),
      _kd: 'n',
    })
    const byId = await list('/api/v4/users', 'pagination=keyset&per_page=1', ROOT)
    const idCursor = new URL(/<([^>]+)>/.exec(byId.headers.link ?? '')?.[1] ?? '').searchParams.get('cursor')
    expect(JSON.parse(Buffer.from(idCursor ?? '', 'base64url').toString())).toEqual({
      id: String((byId.body as Json[])[0]!.id),
      _kd: 'n',
    })
  })

  it('reads cursors GitLab wrote, in any order, times in Ruby’s inspect form', async () => {
    const all = (await list('/api/v4/users', 'order_by=id&sort=asc', ROOT)).body as Json[]
    const bob = all.find((u) => u.username === 'bob')!
    expect(
      await usernames(
        `order_by=username&sort=asc&cursor=${gitlabCursor({ username: 'bob', id: String(bob.id), _kd: 'n' })}`,
      ),
    ).toEqual(['carol', 'root'])
    expect(
      await usernames(`order_by=id&sort=asc&cursor=${gitlabCursor({ id: String(bob.id), _kd: 'n' })}`),
    ).toEqual(all.filter((u) => (u.id as number) > (bob.id as number)).map((u) => u.username))
    const created = String(bob.created_at)
      .replace('T', ' ')
      .replace(/\.(\d{3})Z$/, '.$1000000 +0000')
    expect(
      await usernames(
        `order_by=created_at&sort=desc&cursor=${gitlabCursor({ created_at: created, id: String(bob.id), _kd: 'n' })}`,
      ),
    ).toEqual(['alice', 'root'])
    // A cursor naming no row (`_kd` alone) is the first page.
    expect(await usernames(`order_by=id&sort=asc&per_page=1&cursor=${gitlabCursor({ _kd: 'n' })}`)).toEqual([
      'root',
    ])
  })

  it('answers a cursor GitLab cannot read with 400 (GitLab: 500, which this server gives no bad input)', async () => {
    for (const cursor of [
      '%21%21',
      gitlabCursor('just text'),
      encodeURIComponent(Buffer.from('{"id":').toString('base64')),
      gitlabCursor({ id: '3', _kd: 'n' }),
      gitlabCursor({ username: 'bob', id: '3', name: 'Bob', _kd: 'n' }),
    ]) {
      const res = await t.http('GET', '/api/v4/users', {
        token: ROOT,
        query: `pagination=keyset&order_by=username&cursor=${cursor}`,
      })
      expect([cursor, res.status, res.body]).toEqual([cursor, 400, { error: 'cursor is invalid' }])
    }
  })

  it('caps keyset pages at 100 rows as offset pages are (GitLab documents 100; its keyset code has no cap)', async () => {
    const many = await startServer(
      `users:\n  - { username: root, admin: true, token: glpat-root-token }\n${Array.from(
        { length: 102 },
        (_, i) => `  - { username: user${i} }\n`,
      ).join('')}`,
    )
    try {
      const res = await many.http('GET', '/api/v4/users', {
        token: ROOT,
        query: 'pagination=keyset&per_page=101',
      })
      expect((res.body as Json[]).length).toBe(100)
      expect(res.headers.link).toMatch(/[?&]per_page=100[&>]/)
      const offset = await many.http('GET', '/api/v4/users', { token: ROOT, query: 'per_page=101' })
      expect((offset.body as Json[]).length).toBe(100)
    } finally {
      await many.close()
    }
  })

  it('pages by offset for any other pagination value, as GitLab leaves the parameter undeclared', async () => {
    const res = await list('/api/v4/users', 'pagination=offset&per_page=2', ROOT)
    expect(res.headers).toMatchObject({ 'x-total': '4', 'x-page': '1', 'x-next-page': '2' })
    const odd = await list('/api/v4/users', 'pagination=sideways&per_page=2', ROOT)
    expect(odd.headers['x-total']).toBe('4')
  })

  it('refuses an offset page past 50,000 rows with 405, and keyset pages are not limited', async () => {
    const res = await t.http('GET', '/api/v4/users', { token: BOB, query: 'page=2501&per_page=20' })
    expect(res.status).toBe(405)
    expect(res.body).toEqual({
      error:
        'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type User. ' +
        'Remaining records can be retrieved using keyset pagination.',
    })
    expect((await list('/api/v4/users', 'page=2500&per_page=20', BOB)).body).toEqual([])
    // per_page counts as given, before it is capped at 100.
    expect(
      (await t.http('GET', '/api/v4/users', { token: BOB, query: 'page=501&per_page=200' })).status,
    ).toBe(405)
    await list('/api/v4/users', 'page=2501&per_page=20&pagination=keyset', BOB)
    // Authorization comes first: an anonymous caller without username is 403, not 405.
    expect((await t.http('GET', '/api/v4/users', { query: 'page=2501&per_page=20' })).status).toBe(403)
  })

  it('before 16.5 ignores pagination=keyset and cursor; before 17.0 serves deep offset pages', async () => {
    // GitLab's cursor of the first page (`{"_kd":"n"}`).
    const FIRST_PAGE = 'eyJfa2QiOiJuIn0%3D'
    for (const [version, keyset, limited] of [
      ['16.4.0', false, false],
      ['16.5.0', true, false],
      ['17.0.0', true, true],
    ] as const) {
      const v = await startServer(seed, { gitlabVersion: version })
      try {
        const paged = await v.http('GET', '/api/v4/users', {
          token: ROOT,
          query: `pagination=keyset&cursor=${FIRST_PAGE}&per_page=2`,
        })
        expect([version, paged.status]).toEqual([version, 200])
        expect([version, 'x-page' in paged.headers]).toEqual([version, !keyset])
        expect([version, /pagination=|cursor=/.test(paged.headers.link ?? '')]).toEqual([version, keyset])
        const deep = await v.http('GET', '/api/v4/users', { token: ROOT, query: 'page=2501&per_page=20' })
        expect([version, deep.status]).toEqual([version, limited ? 405 : 200])
      } finally {
        await v.close()
      }
    }
  })
})

describe('GET /groups', () => {
  const paths = (query = '', token?: string) => field('/api/v4/groups', 'full_path', query, token)

  it('lists public groups anonymously, own groups to users, all to administrators, by name', async () => {
    expect(await paths()).toEqual(['open'])
    expect(await paths('', ALICE)).toEqual(['acme', 'acme/platform'])
    expect(await paths('all_available=true', ALICE)).toEqual(['acme', 'inner', 'open', 'acme/platform'])
    expect(await paths('', BOB)).toEqual(['hidden', 'inner'])
    expect(await paths('', ROOT)).toEqual(['acme', 'hidden', 'inner', 'open', 'acme/platform'])
  })

  it('filters by owned, search, visibility and top_level_only', async () => {
    expect(await paths('owned=true', ALICE)).toEqual(['acme', 'acme/platform'])
    expect(await paths('owned=true', BOB)).toEqual([])
    expect(await paths('search=plat', ROOT)).toEqual(['acme/platform'])
    expect(await paths('visibility=internal', ROOT)).toEqual(['inner'])
    expect(await paths('top_level_only=true&order_by=id&sort=desc', ROOT)).toEqual([
      'hidden',
      'inner',
      'open',
      'acme',
    ])
  })

  it('answers the Group entity with page headers', async () => {
    const res = await list('/api/v4/groups', 'per_page=1', ROOT)
    expect(res.body).toEqual([
      expect.objectContaining({ full_path: 'acme', full_name: 'acme', visibility: 'private' }),
    ])
    expect(res.headers['x-total']).toBe('5')
  })
})

describe('GET /groups for anonymous callers: keyset pages and the offset limit (14.3+)', () => {
  const publicSeed = `
users:
  - { username: root, admin: true, token: glpat-root-token }
groups:
  - { path: delta, name: Delta, visibility: public }
  - { path: alpha, name: alpha, visibility: public }
  - { path: charlie, name: Charlie, visibility: public }
  - { path: bravo, name: Bravo, visibility: public }
  - { path: secret, name: Secret, visibility: private }
`
  let g: TestServer
  beforeAll(async () => {
    g = await startServer(publicSeed)
  })
  afterAll(() => g.close())
  const nextOf = (res: { headers: Record<string, string> }) =>
    /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1]

  it('walks the public groups by name, cursors written as GitLab writes them, no offset headers', async () => {
    const names: unknown[][] = []
    let path: string | undefined = '/api/v4/groups?pagination=keyset&per_page=3'
    const cursors: unknown[] = []
    for (let guard = 0; path && guard < 5; guard++) {
      const res = await g.http('GET', path)
      expect(res.status).toBe(200)
      expect(res.headers).not.toHaveProperty('x-page')
      expect(res.headers).not.toHaveProperty('x-total')
      names.push((res.body as Json[]).map((x) => x.name))
      const next = nextOf(res)
      if (next) {
        const url = new URL(next)
        expect(url.search).toMatch(
          /^\?cursor=[\w-]+(%3D)*&order_by=name&owned=false&page=1&pagination=keyset&per_page=3&sort=asc&statistics=false&with_custom_attributes=false$/,
        )
        cursors.push(JSON.parse(Buffer.from(url.searchParams.get('cursor') ?? '', 'base64url').toString()))
        path = url.pathname + url.search
      } else path = undefined
    }
    expect(names).toEqual([['alpha', 'Bravo', 'Charlie'], ['Delta']])
    expect(cursors).toEqual([{ name: 'Charlie', id: expect.stringMatching(/^\d+$/), _kd: 'n' }])
    // A cursor GitLab would write, by hand; one it could not read is a 400 (GitLab: 500).
    const bravo = ((await g.http('GET', '/api/v4/groups', { query: 'search=bravo' })).body as Json[])[0]!
    const cursor = Buffer.from(JSON.stringify({ name: 'Bravo', id: String(bravo.id), _kd: 'n' })).toString(
      'base64',
    )
    const after = await g.http('GET', '/api/v4/groups', {
      query: `pagination=keyset&cursor=${encodeURIComponent(cursor)}`,
    })
    expect((after.body as Json[]).map((x) => x.name)).toEqual(['Charlie', 'Delta'])
    const bad = await g.http('GET', '/api/v4/groups', { query: 'pagination=keyset&cursor=bm9wZQ' })
    expect([bad.status, bad.body]).toEqual([400, { error: 'cursor is invalid' }])
  })

  it('refuses keyset pages in any order but name ascending with 405', async () => {
    for (const query of ['order_by=id', 'order_by=path', 'sort=desc', 'order_by=name&sort=desc']) {
      const res = await g.http('GET', '/api/v4/groups', { query: `pagination=keyset&${query}` })
      expect([query, res.status, res.body]).toEqual([
        query,
        405,
        { error: 'Keyset pagination is not yet available for this type of request' },
      ])
    }
  })

  it('refuses an anonymous offset page past 50,000 rows with 405; signed-in callers page on', async () => {
    const res = await g.http('GET', '/api/v4/groups', { query: 'page=2501&per_page=20' })
    expect(res.status).toBe(405)
    expect(res.body).toEqual({
      error:
        'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Group. ' +
        'Remaining records can be retrieved using keyset pagination.',
    })
    expect((await g.http('GET', '/api/v4/groups', { query: 'page=501&per_page=200' })).status).toBe(405)
    const below = await g.http('GET', '/api/v4/groups', { query: 'page=2500&per_page=20' })
    expect([below.status, below.body, below.headers['x-total']]).toEqual([200, [], '4'])
    const signedIn = await g.http('GET', '/api/v4/groups', { query: 'page=2501&per_page=20', token: ROOT })
    expect([signedIn.status, signedIn.body]).toEqual([200, []])
    // Signed in, pagination=keyset is an undeclared parameter: offset pages, not carried by the links.
    const keyset = await g.http('GET', '/api/v4/groups', {
      query: 'pagination=keyset&per_page=2',
      token: ROOT,
    })
    expect(keyset.headers['x-total']).toBe('5')
    expect(keyset.headers.link).not.toMatch(/pagination|cursor/)
  })

  it('before 14.3 pages anonymous callers by offset, however deep, and ignores pagination=keyset', async () => {
    for (const [version, strategies] of [
      ['14.2.0', false],
      ['14.3.0', true],
    ] as const) {
      const v = await startServer(publicSeed, { gitlabVersion: version })
      try {
        const deep = await v.http('GET', '/api/v4/groups', { query: 'page=2501&per_page=20' })
        expect([version, deep.status]).toEqual([version, strategies ? 405 : 200])
        const keyset = await v.http('GET', '/api/v4/groups', { query: 'pagination=keyset&per_page=2' })
        expect([version, keyset.status, 'x-page' in keyset.headers]).toEqual([version, 200, !strategies])
      } finally {
        await v.close()
      }
    }
  })
})

describe('GET /namespaces', () => {
  const paths = (query = '', token?: string) => field('/api/v4/namespaces', 'full_path', query, token)

  it('is 401 anonymously', async () => {
    const res = await t.http('GET', '/api/v4/namespaces')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: '401 Unauthorized' })
  })

  it("lists the caller's own namespace and direct groups; administrators see all", async () => {
    expect(await paths('', ALICE)).toEqual(['alice', 'acme'])
    expect(await paths('', BOB)).toEqual(['bob', 'inner'])
    expect(await paths('owned_only=true', BOB)).toEqual(['bob'])
    expect(await paths('', ROOT)).toHaveLength(9)
    expect(await paths('search=plat&top_level_only=true', ROOT)).toEqual([])
    const [ns] = (await list('/api/v4/namespaces', 'search=acme', ALICE)).body as Json[]
    expect(ns).toEqual({
      id: expect.any(Number),
      name: 'acme',
      path: 'acme',
      kind: 'group',
      full_path: 'acme',
      parent_id: null,
      avatar_url: null,
      web_url: `${t.baseUrl}/groups/acme`,
    })
  })
})
