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
    labels: [ { name: bug }, { name: feature }, { name: wontfix } ]
    issues:
      - { title: Busy, author: alice, assignees: [bob, carol] }
      - { title: Alpha, author: alice, labels: [bug, feature], created_at: '2026-03-01T10:00:00.000Z' }
      - { title: Beta, author: alice, labels: [bug, feature], created_at: '2026-03-02T10:00:00.000Z' }
      - { title: Gamma, author: alice, labels: [bug, feature], created_at: '2026-03-03T10:00:00.000Z' }
      - title: Delta
        author: bob
        labels: [bug, feature, wontfix]
        confidential: true
        created_at: '2025-06-01T10:00:00.000Z'
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
          '&page=1&pagination=keyset&per_page=3&sort=asc&with_custom_attributes=false&without_projects=false>; rel="next"$',
      ),
    )
  })

  it('GET /groups (anonymous) carries the defaults besides the cursor, and is walked whole', async () => {
    const res = await t.http('GET', '/api/v4/groups', { query: 'pagination=keyset&per_page=2' })
    expect(res.headers.link).toMatch(
      new RegExp(
        `^<${HOST}/api/v4/groups\\?cursor=[\\w-]+(%3D)*&order_by=name&owned=false&page=1&pagination=keyset` +
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

  it("reads Integer's digits as Ruby's Integer(text, 10) does: `_` between digits, leading zeros, a sign", async () => {
    const groups = '/api/v4/groups'
    const res = await t.http('GET', groups, { token: ROOT, query: 'per_page=1_0&page=%2B01' })
    expect([res.status, res.headers['x-page'], res.headers['x-per-page']]).toEqual([200, '1', '10'])
    expect(res.headers.link).toContain('&page=1&per_page=10&')
    for (const bad of ['per_page=1__0', 'per_page=_1', 'per_page=1_'])
      expect((await headers(groups, bad))[3]).toEqual({ error: 'per_page is invalid' })
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

/*
 * The values in the links are those of Grape's `params`, coerced by the declared types, as Rails
 * `to_query` writes them: Integers as their digits, Booleans as true/false, the comma-separated
 * lists (`CommaSeparatedToArray`, `CommaSeparatedToIntegerArray`) as `k[]=` items, DateTimes as
 * `DateTime#to_s`, strings as sent (CGI.escape'd). Each case: its query (without per_page), the
 * per_page sent, the link query of page n, and how many pages of one row it has.
 */
const ISSUES = `${W}/issues`
/** A project issue list's link query: `before` and `after` its defaults and page, in to_query order. */
const issueLink = (before: string, n: number, details = 'false') =>
  `${before}&order_by=created_at&page=${n}&per_page=1&sort=desc&state=all&with_labels_details=${details}`
const coerced: {
  name: string
  path: string
  query: string
  perPage?: string
  pages: number
  q: (n: number) => string
}[] = [
  {
    name: 'comma-separated lists as k[]= items, stripped',
    path: ISSUES,
    query: 'labels=bug,+feature&not[labels]=wontfix',
    pages: 3,
    q: (n) =>
      issueLink('id=acme%2Fwidgets&labels%5B%5D=bug&labels%5B%5D=feature&not%5Blabels%5D%5B%5D=wontfix', n),
  },
  {
    // alice is user 2; `iids` items are read with to_i, `author_id` and per_page with Integer().
    name: 'integers as their digits',
    path: ISSUES,
    query: 'iids=02,%2B3,4&author_id=%2B02',
    perPage: '01',
    pages: 3,
    q: (n) => issueLink('author_id=2&id=acme%2Fwidgets&iids%5B%5D=2&iids%5B%5D=3&iids%5B%5D=4', n),
  },
  {
    name: 'booleans as true and false',
    path: ISSUES,
    query: 'labels=bug&with_labels_details=yes&confidential=no',
    pages: 3,
    q: (n) => issueLink('confidential=false&id=acme%2Fwidgets&labels%5B%5D=bug', n, 'true'),
  },
  {
    name: 'booleans of GET /groups as true and false',
    path: '/api/v4/groups',
    query: 'all_available=1&top_level_only=0',
    pages: 3,
    q: (n) =>
      `all_available=true&order_by=name&owned=false&page=${n}&per_page=1&sort=asc&statistics=false` +
      '&top_level_only=false&with_custom_attributes=false',
  },
  {
    name: 'times as DateTime#to_s, the offset kept, the fraction dropped',
    path: ISSUES,
    query: 'labels=bug&created_after=2026-01-01&created_before=2026-12-31T23:30:00.250%2B01:00',
    pages: 3,
    q: (n) =>
      issueLink(
        'created_after=2026-01-01T00%3A00%3A00%2B00%3A00&created_before=2026-12-31T23%3A30%3A00%2B01%3A00' +
          '&id=acme%2Fwidgets&labels%5B%5D=bug',
        n,
      ),
  },
  {
    name: 'times in any form DateTime.parse reads as its DateTime#to_s',
    path: ISSUES,
    query: 'labels=bug&created_after=Thu, 01 Jan 2026 00:00:00 %2B0100&created_before=20261231T2330Z',
    pages: 3,
    q: (n) =>
      issueLink(
        'created_after=2026-01-01T00%3A00%3A00%2B01%3A00&created_before=2026-12-31T23%3A30%3A00%2B00%3A00' +
          '&id=acme%2Fwidgets&labels%5B%5D=bug',
        n,
      ),
  },
  {
    name: 'strings as sent, escaped as CGI.escape does',
    path: ISSUES,
    query: "labels=bug&not[labels]=wontfix&not[search]=zz+top!+(x)*~'",
    pages: 3,
    q: (n) =>
      issueLink(
        'id=acme%2Fwidgets&labels%5B%5D=bug&not%5Blabels%5D%5B%5D=wontfix' +
          '&not%5Bsearch%5D=zz+top%21+%28x%29%2A~%27',
        n,
      ),
  },
  {
    // A blank Boolean is nil, or its default where it has one; an empty list is left out, and a
    // hash holding nothing else writes an empty pair, which sorts first: the query starts with `&`.
    name: 'blanks: nil or the default, empty lists left out',
    path: ISSUES,
    query: 'labels=bug&not[labels]=&with_labels_details=&confidential=',
    pages: 4,
    q: (n) => issueLink('&confidential=&id=acme%2Fwidgets&labels%5B%5D=bug', n),
  },
  {
    // CheckAssigneesCount.coerce wraps a blank as `[""]`, a list of one, which to_query writes.
    name: 'a blank assignee_username as a list of one blank',
    path: ISSUES,
    query: 'labels=bug&not[assignee_username]=',
    pages: 4,
    q: (n) => issueLink('id=acme%2Fwidgets&labels%5B%5D=bug&not%5Bassignee_username%5D%5B%5D=', n),
  },
]

describe.each(coerced)('links carry coerced values: $name', ({ path, query, perPage = '1', pages, q }) => {
  it("writes the first page's links as GitLab does", async () => {
    const first = await t.http('GET', path, { token: ROOT, query: `${query}&per_page=${perPage}` })
    expect(first.status).toBe(200)
    expect(first.headers['x-total-pages']).toBe(String(pages))
    expect(first.headers.link).toBe(firstLink(path, q, pages))
  })

  it('is walked by the typed client to the same rows as the pages requested directly', async () => {
    const direct: number[] = []
    for (let page = 1; page <= pages; page++) {
      const res = await t.http('GET', path, {
        token: ROOT,
        query: `${query}&per_page=${perPage}&page=${page}`,
      })
      expect(res.status).toBe(200)
      direct.push(...(res.body as { id: number }[]).map((item) => item.id))
    }
    expect(new Set(direct).size).toBe(pages)
    const client = createClient({ baseUrl: t.baseUrl, token: ROOT })
    try {
      const walked = await collect(
        client.paginate<{ id: number }>(`${path.replace('/api/v4', '')}?${query}`, {
          query: { per_page: perPage },
        }),
      )
      expect(walked.map((item) => item.id)).toEqual(direct)
    } finally {
      await client.close()
    }
  })
})

it('links each answer with its own parameters, whatever was asked before: other values, another order, undeclared ones', async () => {
  // The route keeps each URL's link context (routes/define.ts): a context must never answer for another.
  const first = (query: string) =>
    t.http('GET', `${W}/issues`, { token: ROOT, query }).then((res) => {
      expect(res.status).toBe(200)
      return (res.headers.link as string).split(', ').find((l) => l.endsWith('rel="first"'))
    })
  const bug = await first('labels=bug&per_page=1')
  const feature = await first('labels=feature&per_page=1')
  expect(bug).toContain('labels%5B%5D=bug&')
  expect(feature).toContain('labels%5B%5D=feature&')
  expect(feature?.replace('feature', 'bug')).toBe(bug)
  expect(await first('per_page=1&labels=bug')).toBe(bug)
  expect(await first('labels=bug&per_page=1&junk=1')).toBe(bug)
  expect(await first('labels=bug&per_page=2')).toBe(bug?.replace('per_page=1', 'per_page=2'))
  expect(await first('labels=bug&per_page=1&state=closed')).toContain('&state=closed')
})

it('a page asked for as page=+2 is page 2, its links written with the digits', async () => {
  const { path, query, q } = coerced[1]!
  const res = await t.http('GET', path, { token: ROOT, query: `${query}&per_page=01&page=%2B2` })
  expect([res.status, res.headers['x-page']]).toEqual([200, '2'])
  expect(res.headers.link).toBe(middleLink(path, q, 2, 3))
})

describe('Booleans as Grape reads them (dry-types Params::Bool)', () => {
  it('takes 1/0, t/f, true/false, y/n, yes/no, on/off in lower, capitalised or upper case, and links them as true/false', async () => {
    for (const [given, read] of [
      ['TRUE', 'true'],
      ['Yes', 'true'],
      ['ON', 'true'],
      ['T', 'true'],
      ['No', 'false'],
      ['OFF', 'false'],
      ['F', 'false'],
    ]) {
      const res = await t.http('GET', '/api/v4/groups', { token: ROOT, query: `owned=${given}&per_page=1` })
      expect([given, res.status]).toEqual([given, 200])
      expect(res.headers.link).toContain(`&owned=${read}&`)
    }
  })

  it('refuses any other case and blanks around: 400 <name> is invalid', async () => {
    for (const given of ['tRue', 'yES', 'oN', '%20true', 'true%20', 'nO'])
      expect(await t.http('GET', '/api/v4/groups', { token: ROOT, query: `owned=${given}` })).toMatchObject({
        status: 400,
        body: { error: 'owned is invalid' },
      })
  })
})
