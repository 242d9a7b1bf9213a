import { createClient } from '../../../src/api/client.js'
import { collect } from '../../../src/api/paginate.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * Page links as GitLab writes them: Grape's `params` merged with the page
 * (lib/gitlab/pagination/offset_header_builder.rb, keyset/header_builder.rb), so every link carries
 * the path's parameters and the declared parameters' defaults, keys in Rails `to_query` order.
 */

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token'
const HOST = 'https://gitlab.example.com'
const W = '/api/v4/projects/acme%2Fwidgets'

const seed = `
users:
  - { username: root, name: Administrator, admin: true, token: ${ROOT} }
  - { username: alice, name: Alice, token: ${ALICE} }
  - { username: bob, name: Bob }
  - { username: carol, name: Carol }
groups:
  - { path: acme, name: ACME, visibility: public, members: { alice: maintainer } }
  - { path: acme/platform, name: Platform, visibility: public }
  - { path: beta, name: Beta, visibility: public }
projects:
  - path: acme/widgets
    visibility: public
    issues:
      - { title: Busy, author: alice, assignees: [bob, carol] }
    merge_requests:
      - { title: Fix one, author: alice, source_branch: fix-1, closes_issues: [1], mentions_issues: [1] }
      - { title: Fix two, author: bob, source_branch: fix-2, closes_issues: [1], mentions_issues: [1] }
      - { title: Fix three, author: carol, source_branch: fix-3, closes_issues: [1], mentions_issues: [1] }
  - { path: acme/gadgets, visibility: public }
  - { path: acme/tools, visibility: public }
`

let t: TestServer
beforeAll(async () => {
  t = await startServer(seed, { baseUrl: `${HOST}/` })
  for (const body of ['One', 'Two', 'Three'])
    expect((await t.http('POST', `${W}/issues/1/notes`, { token: ROOT, json: { body } })).status).toBe(201)
})
afterAll(() => t.close())

/** The Link header GitLab writes for page `page` of `pages` (1 < page < pages), its query `q(n)`. */
const middleLink = (path: string, q: (n: number) => string, page: number, pages: number) =>
  [
    `<${HOST}${path}?${q(page - 1)}>; rel="prev"`,
    `<${HOST}${path}?${q(page + 1)}>; rel="next"`,
    `<${HOST}${path}?${q(1)}>; rel="first"`,
    `<${HOST}${path}?${q(pages)}>; rel="last"`,
  ].join(', ')
const firstLink = (path: string, q: (n: number) => string, pages: number) =>
  [
    `<${HOST}${path}?${q(2)}>; rel="next"`,
    `<${HOST}${path}?${q(1)}>; rel="first"`,
    `<${HOST}${path}?${q(pages)}>; rel="last"`,
  ].join(', ')

/** Each route: its path, caller, page count at one item a page, and its links' query for page n. */
const lists: { name: string; path: string; token: string; pages: number; q: (n: number) => string }[] = [
  {
    name: 'GET /groups',
    path: '/api/v4/groups',
    token: ROOT,
    pages: 3,
    q: (n) =>
      `order_by=name&owned=false&page=${n}&per_page=1&sort=asc&statistics=false&with_custom_attributes=false`,
  },
  {
    name: 'GET /namespaces',
    path: '/api/v4/namespaces',
    token: ROOT,
    pages: 7,
    q: (n) => `page=${n}&per_page=1&top_level_only=false`,
  },
  {
    name: 'GET /users (administrator)',
    path: '/api/v4/users',
    token: ROOT,
    pages: 4,
    q: (n) =>
      'active=false&admins=false&blocked=false&exclude_external=false&exclude_internal=false&external=false' +
      `&order_by=id&page=${n}&per_page=1&sort=desc&with_custom_attributes=false&without_projects=false`,
  },
  {
    // lib/api/users.rb `params.except!(... :order_by, :sort, ... :without_projects)` for others.
    name: 'GET /users (not an administrator)',
    path: '/api/v4/users',
    token: ALICE,
    pages: 4,
    q: (n) =>
      'active=false&admins=false&blocked=false&exclude_external=false&exclude_internal=false&external=false' +
      `&page=${n}&per_page=1&with_custom_attributes=false`,
  },
  {
    name: 'GET /groups/:id/projects',
    path: '/api/v4/groups/acme/projects',
    token: ROOT,
    pages: 3,
    q: (n) =>
      `id=acme&include_ancestor_groups=false&include_subgroups=false&order_by=created_at&owned=false&page=${n}` +
      '&per_page=1&simple=false&sort=desc&starred=false&with_custom_attributes=false&with_issues_enabled=false' +
      '&with_merge_requests_enabled=false&with_shared=true',
  },
  {
    name: 'GET /projects',
    path: '/api/v4/projects',
    token: ROOT,
    pages: 3,
    q: (n) =>
      `imported=false&membership=false&order_by=created_at&owned=false&page=${n}&per_page=1&simple=false` +
      '&sort=desc&starred=false&statistics=false&with_custom_attributes=false&with_issues_enabled=false' +
      '&with_merge_requests_enabled=false',
  },
  {
    // lib/api/notes.rb names the issue `:noteable_id`.
    name: 'GET /projects/:id/issues/:noteable_id/notes',
    path: `${W}/issues/1/notes`,
    token: ROOT,
    pages: 3,
    q: (n) =>
      `activity_filter=all_notes&id=acme%2Fwidgets&noteable_id=1&order_by=created_at&page=${n}&per_page=1&sort=desc`,
  },
  // The author, both assignees and root, who wrote the notes; three merge requests close and mention it.
  ...(
    [
      ['participants', 4],
      ['related_merge_requests', 3],
      ['closed_by', 3],
    ] as const
  ).map(([list, pages]) => ({
    // lib/api/issues.rb declares only `issue_iid` (and the resource's `id`) for these lists.
    name: `GET /projects/:id/issues/:issue_iid/${list}`,
    path: `${W}/issues/1/${list}`,
    token: ROOT,
    pages,
    q: (n: number) => `id=acme%2Fwidgets&issue_iid=1&page=${n}&per_page=1`,
  })),
]

describe.each(lists)('$name', ({ path, token, pages, q }) => {
  it('links its first and a middle page with the path, the defaults and the query, sorted', async () => {
    const first = await t.http('GET', path, { token, query: 'per_page=1' })
    expect(first.status).toBe(200)
    expect(first.headers['x-total-pages']).toBe(String(pages))
    expect(first.headers.link).toBe(firstLink(path, q, pages))
    const middle = await t.http('GET', path, { token, query: 'page=2&per_page=1' })
    expect(middle.headers.link).toBe(middleLink(path, q, 2, pages))
  })

  it('is walked whole, each item once, by the typed client following the links', async () => {
    const all = await t.http('GET', path, { token, query: 'per_page=100' })
    const ids = (all.body as { id: number }[]).map((item) => item.id)
    expect(ids).toHaveLength(pages)
    const client = createClient({ baseUrl: t.baseUrl, token })
    try {
      const walked = await collect(
        client.paginate<{ id: number }>(path.replace('/api/v4', ''), { perPage: 1 }),
      )
      expect(walked.map((item) => item.id)).toEqual(ids)
    } finally {
      await client.close()
    }
  })
})

describe('keyset links', () => {
  it('GET /users carries the defaults and the order besides the cursor', async () => {
    const res = await t.http('GET', '/api/v4/users', {
      token: ROOT,
      query: 'pagination=keyset&per_page=3&order_by=username&sort=asc',
    })
    expect(res.headers.link).toMatch(
      new RegExp(
        `^<${HOST}/api/v4/users\\?active=false&admins=false&blocked=false&cursor=[\\w-]+(%3D)*` +
          '&exclude_external=false&exclude_internal=false&external=false&order_by=username' +
          '&pagination=keyset&per_page=3&sort=asc&with_custom_attributes=false&without_projects=false>; rel="next"$',
      ),
    )
  })

  it('GET /groups (anonymous) carries the defaults besides the cursor, and is walked whole', async () => {
    const res = await t.http('GET', '/api/v4/groups', { query: 'pagination=keyset&per_page=2' })
    expect(res.headers.link).toMatch(
      new RegExp(
        `^<${HOST}/api/v4/groups\\?cursor=[\\w-]+(%3D)*&order_by=name&owned=false&pagination=keyset` +
          '&per_page=2&sort=asc&statistics=false&with_custom_attributes=false>; rel="next"$',
      ),
    )
    const client = createClient({ baseUrl: t.baseUrl })
    try {
      const walked = await collect(
        client.paginate<{ full_path: string }>('/groups', { perPage: 1, query: { pagination: 'keyset' } }),
      )
      expect(walked.map((g) => g.full_path)).toEqual(['acme', 'beta', 'acme/platform'])
    } finally {
      await client.close()
    }
  })
})

describe('page and per_page as GitLab reads them', () => {
  const headers = async (path: string, query: string) => {
    const res = await t.http('GET', path, { token: ROOT, query })
    return [res.status, res.headers['x-page'], res.headers['x-per-page'], res.body] as const
  }

  it('a list that declares them (use :pagination) refuses what is not an Integer, and reads the rest as Kaminari does', async () => {
    const groups = '/api/v4/groups'
    expect(await headers(groups, 'per_page=abc')).toEqual([
      400,
      undefined,
      undefined,
      { error: 'per_page is invalid' },
    ])
    expect(await headers(groups, 'page=1.5')).toEqual([
      400,
      undefined,
      undefined,
      { error: 'page is invalid' },
    ])
    // Kaminari: `per` below 0 keeps the default, `page` below 1 is the first.
    const [status, page, perPage] = await headers(groups, 'per_page=-5&page=-3')
    expect([status, page, perPage]).toEqual([200, '1', '20'])
  })

  it('participants, closed_by and related_merge_requests declare neither: nothing is refused, Kaminari reads them', async () => {
    for (const list of ['participants', 'closed_by', 'related_merge_requests']) {
      const path = `${W}/issues/1/${list}`
      for (const [query, page, perPage] of [
        ['per_page=abc&page=abc', '1', '20'],
        ['per_page=-2&page=0', '1', '20'],
        ['per_page=%202', '1', '20'],
        ['per_page=2x&page=2nd', '2', '2'],
        ['per_page=1_0&page=+1', '1', '10'],
      ] as const) {
        const [status, xPage, xPerPage] = await headers(path, query)
        expect([list, query, status, xPage, xPerPage]).toEqual([list, query, 200, page, perPage])
      }
      const res = await t.http('GET', path, { token: ROOT, query: 'per_page=2x&page=2nd' })
      expect(res.headers.link).toBe(
        [
          `<${HOST}${path}?id=acme%2Fwidgets&issue_iid=1&page=1&per_page=2>; rel="prev"`,
          `<${HOST}${path}?id=acme%2Fwidgets&issue_iid=1&page=1&per_page=2>; rel="first"`,
          `<${HOST}${path}?id=acme%2Fwidgets&issue_iid=1&page=2&per_page=2>; rel="last"`,
        ].join(', '),
      )
    }
  })
})
