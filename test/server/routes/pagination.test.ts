import { createClient } from '../../../src/api/client.js'
import { collect } from '../../../src/api/paginate.js'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fwidgets/issues'
let t: TestServer
beforeAll(async () => {
  t = await startServer(widgetsSeed, { baseUrl: 'https://gitlab.example.com/' })
})
afterAll(() => t.close())

const links = (header: string | undefined) =>
  Object.fromEntries(
    (header ?? '')
      .split(', ')
      .filter(Boolean)
      .map((part) => {
        const m = /^<([^>]+)>; rel="(\w+)"$/.exec(part)
        return [m?.[2], m?.[1]]
      }),
  )

describe('offset pagination', () => {
  it('page 2 of 3 carries every header and links on --base-url with sorted, complete queries', async () => {
    const res = await t.http('GET', P, {
      token: ROOT,
      query: 'per_page=2&page=2&labels=bug,feature&state=all',
    })
    expect(res.status).toBe(200)
    expect(res.headers).toMatchObject({ 'x-page': '2', 'x-per-page': '2', 'x-prev-page': '1' })
    const all = await t.http('GET', P, { token: ROOT, query: 'per_page=2&page=2' })
    expect(all.headers).toMatchObject({
      'x-total': '5',
      'x-total-pages': '3',
      'x-next-page': '3',
      'x-prev-page': '1',
    })
    expect((all.body as { iid: number }[]).map((i) => i.iid)).toEqual([3, 2])
    const l = links(all.headers.link)
    expect(Object.keys(l)).toEqual(['prev', 'next', 'first', 'last'])
    expect(l.next).toBe(
      'https://gitlab.example.com/api/v4/projects/acme%2Fwidgets/issues?id=acme%2Fwidgets&order_by=created_at&page=3&per_page=2&sort=desc&state=all&with_labels_details=false',
    )
    expect(l.last).toContain('page=3')
  })

  it("each link sets its own page, whatever the other parameters' values hold", async () => {
    // The links share one query; only its `page=` differs (src/server/grape/pagination.ts).
    const res = await t.http('GET', P, { token: ROOT, query: 'per_page=1&page=2&search=page=0' })
    expect(res.status).toBe(200)
    const l = links(res.headers.link)
    const query = (rel: string) => new URL(l[rel] as string).search
    expect(query('prev')).toMatch(/&page=1&per_page=1&search=page%3D0&/)
    expect(query('first')).toMatch(/&page=1&per_page=1&search=page%3D0&/)
    expect(Object.values(l).every((link) => !/[?&]page=0(&|$)/.test(link as string))).toBe(true)
  })

  it('the last page has no next; an empty list still has one page', async () => {
    const last = await t.http('GET', P, { token: ROOT, query: 'per_page=2&page=3' })
    expect(last.headers['x-next-page']).toBe('')
    expect(Object.keys(links(last.headers.link))).toEqual(['prev', 'first', 'last'])
    const none = await t.http('GET', P, { token: ROOT, query: 'labels=nothing-like-this' })
    expect(none.body).toEqual([])
    expect(none.headers).toMatchObject({
      'x-total': '0',
      'x-total-pages': '1',
      'x-page': '1',
      'x-prev-page': '',
    })
  })

  it('caps per_page at 100 and treats nonsense as the defaults', async () => {
    expect((await t.http('GET', P, { token: ROOT, query: 'per_page=1000' })).headers['x-per-page']).toBe(
      '100',
    )
    expect((await t.http('GET', P, { token: ROOT, query: 'per_page=-1&page=-3' })).headers).toMatchObject({
      'x-per-page': '20',
      'x-page': '1',
    })
  })

  it('refuses per_page=0 with 400, where GitLab fails with 500 (Kaminari per(0))', async () => {
    for (const path of [P, `${P}/1/participants`]) {
      const res = await t.http('GET', path, { token: ROOT, query: 'per_page=0' })
      expect([res.status, res.body]).toEqual([400, { error: 'per_page is invalid' }])
    }
  })

  it('keeps array and hash filters in the links, coerced, as Rails to_query writes them', async () => {
    const res = await t.http('GET', P, {
      token: ROOT,
      query: 'per_page=1&iids[]=1&iids[]=2&not[labels]=docs',
    })
    // `not[labels]` is CommaSeparatedToArray's list, written `not[labels][]=docs`.
    expect(links(res.headers.link).next).toContain('iids%5B%5D=1&iids%5B%5D=2&not%5Blabels%5D%5B%5D=docs')
  })

  it('never copies a token from the query into the links', async () => {
    const res = await t.http('GET', P, { query: `per_page=1&private_token=${ROOT}` })
    expect(res.status).toBe(200)
    expect(res.headers.link).not.toContain(ROOT)
  })
})

describe('keyset pagination', () => {
  it('walks every issue through rel="next" cursors without totals', async () => {
    const seen: number[] = []
    let query: string | undefined = 'pagination=keyset&per_page=2&order_by=created_at&sort=desc'
    for (let guard = 0; query && guard < 10; guard++) {
      const res = await t.http('GET', P, { token: ROOT, query })
      expect(res.headers).not.toHaveProperty('x-total')
      seen.push(...(res.body as { iid: number }[]).map((i) => i.iid))
      const next = links(res.headers.link).next
      query = next ? new URL(next).search.slice(1) : undefined
    }
    expect(seen).toEqual([5, 4, 3, 2, 1])
  })
})

/** A cursor as GitLab writes one: padded URL-safe Base64 of the JSON of the order columns, id and `_kd`. */
const gitlabCursor = (attributes: unknown) =>
  Buffer.from(JSON.stringify(attributes)).toString('base64').replaceAll('+', '-').replaceAll('/', '_')
const cursorOf = (link: string | undefined) =>
  JSON.parse(Buffer.from(new URL(link ?? '').searchParams.get('cursor') ?? '', 'base64url').toString())

describe('keyset cursors of project issues, as GitLab writes and reads them', () => {
  const keyset = (query: string) => t.http('GET', P, { token: ROOT, query: `pagination=keyset&${query}` })

  it('hands out the order column, id and direction, times as Ruby inspects them, padded and escaped', async () => {
    const res = await keyset('order_by=created_at&sort=desc&per_page=2')
    const shown = res.body as { id: number; iid: number }[]
    const next = links(res.headers.link).next
    expect(next).toMatch(/cursor=[\w-]+(%3D)*&/)
    expect(cursorOf(next)).toEqual({
      created_at: '2026-01-04 10:00:00.000000000 +0000',
      id: String(shown[1]!.id),
      _kd: 'n',
    })
    const byTitle = await keyset('order_by=title&sort=asc&per_page=1')
    expect(cursorOf(links(byTitle.headers.link).next)).toEqual({
      title: 'Add dark mode',
      id: String((byTitle.body as { id: number }[])[0]!.id),
      _kd: 'n',
    })
  })

  it('reads a cursor GitLab wrote, with or without padding, and one with no row as the first page', async () => {
    const first = (await keyset('order_by=created_at&sort=desc&per_page=5')).body as {
      id: number
      iid: number
    }[]
    const third = first[2]!
    const cursor = gitlabCursor({
      created_at: '2026-01-03 10:00:00.000000000 +0000',
      id: String(third.id),
      _kd: 'n',
    })
    for (const text of [cursor, cursor.replace(/=+$/, '')]) {
      const res = await keyset(`order_by=created_at&sort=desc&per_page=5&cursor=${encodeURIComponent(text)}`)
      expect((res.body as { iid: number }[]).map((i) => i.iid)).toEqual([2, 1])
    }
    // As GitLab's own example writes one (MR 199887): a bare date, a numeric id, no direction.
    const dated = Buffer.from(JSON.stringify({ created_at: '2026-01-03', id: third.id })).toString('base64')
    const byDate = await keyset(`order_by=created_at&sort=desc&cursor=${encodeURIComponent(dated)}`)
    expect((byDate.body as { iid: number }[]).map((i) => i.iid)).toEqual([2, 1])
    const fresh = await keyset(`order_by=created_at&per_page=5&cursor=${gitlabCursor({ _kd: 'n' })}`)
    expect((fresh.body as { iid: number }[]).map((i) => i.iid)).toEqual([5, 4, 3, 2, 1])
  })

  it('answers a cursor GitLab cannot read with 400 (GitLab: 500), whatever is wrong with it', async () => {
    for (const cursor of [
      '!!',
      gitlabCursor({ created_at: '2026-01-03 10:00:00.000000000 +0000' }).slice(0, -3) + '*',
      Buffer.from('not json').toString('base64'),
      gitlabCursor([1, 2]),
      gitlabCursor({ title: 'Add dark mode', id: '2', _kd: 'n' }),
      gitlabCursor({ created_at: '2026-01-03 10:00:00 +0000', id: '3', extra: '1', _kd: 'n' }),
      gitlabCursor({ created_at: 'yesterday', id: '3', _kd: 'n' }),
    ]) {
      const res = await keyset(`order_by=created_at&per_page=2&cursor=${encodeURIComponent(cursor)}`)
      expect([cursor, res.status, res.body]).toEqual([cursor, 400, { error: 'cursor is invalid' }])
    }
  })
})

describe('offset pagination past 10,000 rows', () => {
  const BIG = '/api/v4/projects/acme%2Fbig/issues'
  let big: TestServer
  beforeAll(async () => {
    const issues = Array.from(
      { length: 10_050 },
      (_, n) => `      - { title: Issue ${n + 1}, author: alice }`,
    )
    big = await startServer(
      [
        'users:',
        '  - { username: alice, token: glpat-alice-token }',
        'groups:',
        '  - { path: acme }',
        'projects:',
        '  - path: acme/big',
        '    members: { alice: maintainer }',
        '    issues:',
        ...issues,
      ].join('\n'),
    )
  })
  afterAll(() => big.close())
  const get = (query: string) => big.http('GET', BIG, { token: 'glpat-alice-token', query })

  it('drops X-Total, X-Total-Pages and rel="last" but still names the next page while one exists', async () => {
    const first = await get('per_page=100')
    expect(first.headers).toMatchObject({ 'x-page': '1', 'x-next-page': '2', 'x-prev-page': '' })
    expect(first.headers).not.toHaveProperty('x-total')
    expect(first.headers).not.toHaveProperty('x-total-pages')
    expect(Object.keys(links(first.headers.link))).toEqual(['next', 'first'])
    const beforeLast = await get('per_page=100&page=100')
    expect(beforeLast.headers['x-next-page']).toBe('101')
    const last = await get('per_page=100&page=101')
    expect((last.body as unknown[]).length).toBe(50)
    expect(last.headers).toMatchObject({ 'x-next-page': '', 'x-prev-page': '100' })
    expect(Object.keys(links(last.headers.link))).toEqual(['prev', 'first'])
  })

  it('lets a client follow rel="next" to the very last issue', async () => {
    let seen = 0
    let url: string | undefined = `${BIG}?per_page=100`
    for (let guard = 0; url && guard < 200; guard++) {
      const res = await big.http('GET', url.replace(big.baseUrl, ''), { token: 'glpat-alice-token' })
      seen += (res.body as unknown[]).length
      url = links(res.headers.link).next
    }
    expect(seen).toBe(10_050)
  })

  it('is read whole by the typed client, which reads uncounted pages ahead by number', async () => {
    const client = createClient({ baseUrl: big.baseUrl, token: 'glpat-alice-token' })
    try {
      const iids = (await collect(client.issues.list('acme/big'))).map((i) => i.iid)
      expect(iids).toHaveLength(10_050)
      expect(new Set(iids).size).toBe(10_050)
      expect(iids[0]).toBe(10_050)
    } finally {
      await client.close()
    }
  })
})

describe('link parameters', () => {
  it('carry pagination and cursor only where the route declares them, as any undeclared parameter', async () => {
    const res = await t.http('GET', '/api/v4/groups', {
      token: ROOT,
      query: 'per_page=1&pagination=keyset&cursor=abc&junk=1',
    })
    expect(res.status).toBe(200)
    expect(links(res.headers.link).first).toBe(
      'https://gitlab.example.com/api/v4/groups?order_by=name&owned=false&page=1&per_page=1&sort=asc&statistics=false&with_custom_attributes=false',
    )
  })

  it('carry the path and the defaults of the notes list, and the defaults of the global issue list', async () => {
    const notes = await t.http('GET', `${P}/1/notes`, { token: ROOT, query: 'per_page=1' })
    expect(links(notes.headers.link).first).toBe(
      `https://gitlab.example.com${P}/1/notes?activity_filter=all_notes&id=acme%2Fwidgets&noteable_id=1&order_by=created_at&page=1&per_page=1&sort=desc`,
    )
    const issues = await t.http('GET', '/api/v4/issues', { token: ROOT, query: 'per_page=1&labels=bug' })
    expect(links(issues.headers.link).first).toBe(
      'https://gitlab.example.com/api/v4/issues?labels%5B%5D=bug&non_archived=true&order_by=created_at&page=1&per_page=1&scope=created_by_me&sort=desc&state=all&with_labels_details=false',
    )
  })
})
