import { createClient } from '../../src/api/client.js'
import { GitLabResponseError } from '../../src/api/errors.js'
import { collect, nextLink, pageLink, rebase } from '../../src/api/paginate.js'
import { cannedServer, json, type Canned } from './canned-server.js'

describe('nextLink', () => {
  it('takes the rel="next" target among prev, next, first and last', () => {
    const link = [
      '<https://h/api/v4/projects/8/issues?page=1&per_page=3>; rel="prev"',
      '<https://h/api/v4/projects/8/issues?page=3&per_page=3>; rel="next"',
      '<https://h/api/v4/projects/8/issues?page=1&per_page=3>; rel="first"',
      '<https://h/api/v4/projects/8/issues?page=4&per_page=3>; rel="last"',
    ].join(', ')
    expect(nextLink(link)).toBe('https://h/api/v4/projects/8/issues?page=3&per_page=3')
  })

  it('accepts unquoted and multi-valued rel, and refuses look-alikes', () => {
    expect(nextLink('</a?page=2>; rel=next')).toBe('/a?page=2')
    expect(nextLink('</a?page=2>; rel="prev next"')).toBe('/a?page=2')
    expect(nextLink('</a?page=2>; rel="nextish"')).toBeUndefined()
    expect(nextLink('<https://h/api/v4/x?page=1>; rel="first"')).toBeUndefined()
    expect(nextLink(undefined)).toBeUndefined()
    expect(nextLink('')).toBeUndefined()
  })
})

describe('rebase', () => {
  it('keeps only the path below /api/v4 and the query, whatever scheme, host and port the link names', () => {
    expect(rebase('https://evil.example:8443/api/v4/projects/1/issues?page=3&per_page=2')).toBe(
      '/projects/1/issues?page=3&per_page=2',
    )
  })

  it('drops a path prefix the server names (ours comes from our base URL)', () => {
    expect(
      rebase('http://internal:8080/gitlab/api/v4/groups/acme%2Fplatform/issues?cursor=eyJpZCI6IjEwIn0%3D'),
    ).toBe('/groups/acme%2Fplatform/issues?cursor=eyJpZCI6IjEwIn0%3D')
  })

  it('takes a relative link as below the API root', () => {
    expect(rebase('/issues?page=2')).toBe('/issues?page=2')
    expect(rebase('/api/v4/issues?page=2')).toBe('/issues?page=2')
  })
})

describe('pageLink', () => {
  it('changes only the page value, keeping the other parameters and their order', () => {
    expect(pageLink('/projects/1/issues?id=1&page=2&per_page=100&state=opened', 1, 5)).toBe(
      '/projects/1/issues?id=1&page=5&per_page=100&state=opened',
    )
  })

  it('refuses links without the expected page: keyset cursors, another page, look-alike names', () => {
    expect(pageLink('/issues?cursor=abc&per_page=2', 1, 3)).toBeUndefined()
    expect(pageLink('/issues?page=4&per_page=2', 1, 3)).toBeUndefined()
    expect(pageLink('/issues?per_page=2&subpage=2', 1, 3)).toBeUndefined()
    expect(pageLink('/issues', 1, 3)).toBeUndefined()
  })
})

describe('pagination over a socket', () => {
  let canned: Canned
  let linkHost = 'http://elsewhere.invalid:9999/other-prefix'
  let inFlight = 0
  let maxInFlight = 0
  let stalledArrived: (() => void) | undefined
  let stalledClosed: (() => void) | undefined
  beforeAll(async () => {
    // Canned pages of 2: [10, 11], [20, 21], [30]; under any path prefix; the Link names another host.
    canned = await cannedServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      const route = url.pathname.replace(/^.*\/api\/v4/, '')
      if (route === '/items') {
        const page = Number(url.searchParams.get('page') ?? '1')
        const headers: Record<string, string> = {
          'x-total': '5',
          'x-total-pages': '3',
          'x-page': String(page),
          'x-per-page': url.searchParams.get('per_page') ?? '20',
        }
        if (page < 3) headers.link = `<${linkHost}/api/v4/items?page=${page + 1}&per_page=2>; rel="next"`
        return json(res, 200, page < 3 ? [page * 10, page * 10 + 1] : [30], headers)
      }
      if (route === '/keyset') {
        const cursor = url.searchParams.get('cursor')
        const rows: Record<string, number[]> = { '': [1, 2], c2: [3, 4], c3: [5] }
        const next: Record<string, string> = { '': 'c2', c2: 'c3' }
        const at = cursor ?? ''
        const headers: Record<string, string> = {}
        const n = next[at]
        if (n)
          headers.link = `<${linkHost}/api/v4/keyset?cursor=${n}&order_by=id&pagination=keyset&per_page=2>; rel="next"`
        return json(res, 200, rows[at] ?? [], headers)
      }
      if (route === '/many' || route === '/uncounted' || route === '/shifting') {
        // Six pages of two, answered after 15 ms so that requests overlap; `/uncounted` omits the
        // totals as GitLab does above 10,000 rows; on `/shifting`, page 2 links to page 4 (rows
        // moved while listing), so a page 3 requested ahead must not be used.
        const page = Number(url.searchParams.get('page') ?? '1')
        const headers: Record<string, string> = { 'x-page': String(page), 'x-per-page': '2' }
        if (route !== '/uncounted') Object.assign(headers, { 'x-total': '12', 'x-total-pages': '6' })
        const to = route === '/shifting' && page === 2 ? 4 : page + 1
        if (page < 6) headers.link = `<${linkHost}/api/v4${route}?page=${to}&per_page=2>; rel="next"`
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        setTimeout(() => {
          inFlight--
          json(res, 200, page <= 6 ? [page * 10, page * 10 + 1] : [], headers)
        }, 15)
        return
      }
      if (route === '/stalling') {
        // Page 1 names page 2, which never comes: a slow page the caller turns out not to need.
        const page = Number(url.searchParams.get('page') ?? '1')
        if (page === 1)
          return json(res, 200, [1, 2], {
            link: `<${linkHost}/api/v4/stalling?page=2&per_page=2>; rel="next"`,
          })
        res.on('close', () => stalledClosed?.())
        stalledArrived?.()
        return
      }
      if (route === '/loop')
        return json(res, 200, [1], { link: `<${linkHost}/api/v4/loop?per_page=100>; rel="next"` })
      if (route === '/not-a-list') return json(res, 200, { id: 1 })
      return json(res, 404, { error: '404 Not Found' })
    })
  })
  afterAll(() => canned.close())
  beforeEach(() => {
    canned.seen.length = 0
    maxInFlight = 0
    linkHost = 'http://elsewhere.invalid:9999/other-prefix'
  })
  const seenUrls = () => canned.seen.map((s) => s.url).sort()

  it('walks every page on our own host and sends per_page=100 by default', async () => {
    const client = createClient({ baseUrl: canned.origin, token: 'glpat-secret' })
    expect(await collect(client.paginate<number>('/items'))).toEqual([10, 11, 20, 21, 30])
    // Page 3 may be requested by number before page 2 answers, so the order is not fixed.
    expect(seenUrls()).toEqual([
      '/api/v4/items?page=2&per_page=2',
      '/api/v4/items?page=3&per_page=2',
      '/api/v4/items?per_page=100',
    ])
    expect(canned.seen.every((s) => s.headers['private-token'] === 'glpat-secret')).toBe(true)
    expect(canned.seen.every((s) => s.headers.host === canned.origin.replace('http://', ''))).toBe(true)
    await client.close()
  })

  it('re-bases next links onto a base URL with a path prefix', async () => {
    const client = createClient({ baseUrl: `${canned.origin}/gitlab/` })
    expect(await collect(client.paginate<number>('/items', { perPage: 2 }))).toEqual([10, 11, 20, 21, 30])
    expect(seenUrls()).toEqual([
      '/gitlab/api/v4/items?page=2&per_page=2',
      '/gitlab/api/v4/items?page=3&per_page=2',
      '/gitlab/api/v4/items?per_page=2',
    ])
    await client.close()
  })

  it('a query per_page wins over the default, other parameters are sent as given', async () => {
    const client = createClient({ baseUrl: canned.origin })
    await collect(client.paginate('/items', { query: { per_page: 2, state: 'opened' } }), { limit: 1 })
    // The first request as given, then at most the one page read ahead.
    expect(canned.seen[0]?.url).toBe('/api/v4/items?per_page=2&state=opened')
    expect(canned.seen.length).toBeLessThanOrEqual(2)
    await client.close()
  })

  it('follows keyset cursors to the end', async () => {
    const client = createClient({ baseUrl: canned.origin })
    const items = await collect(
      client.paginate<number>('/keyset', { perPage: 2, query: { pagination: 'keyset', order_by: 'id' } }),
    )
    expect(items).toEqual([1, 2, 3, 4, 5])
    expect(canned.seen.map((s) => s.url)).toEqual([
      '/api/v4/keyset?per_page=2&pagination=keyset&order_by=id',
      '/api/v4/keyset?cursor=c2&order_by=id&pagination=keyset&per_page=2',
      '/api/v4/keyset?cursor=c3&order_by=id&pagination=keyset&per_page=2',
    ])
    await client.close()
  })

  it('exposes page-level headers and the re-based next path', async () => {
    const client = createClient({ baseUrl: canned.origin })
    const pages = await collect(client.pages<number>('/items', { perPage: 2 }))
    expect(
      pages.map(({ items, total, totalPages, page, perPage, next }) => ({
        items,
        total,
        totalPages,
        page,
        perPage,
        next,
      })),
    ).toEqual([
      { items: [10, 11], total: 5, totalPages: 3, page: 1, perPage: 2, next: '/items?page=2&per_page=2' },
      { items: [20, 21], total: 5, totalPages: 3, page: 2, perPage: 2, next: '/items?page=3&per_page=2' },
      { items: [30], total: 5, totalPages: 3, page: 3, perPage: 2, next: undefined },
    ])
    await client.close()
  })

  it('is lazy: collect with a limit reads the pages it needs (and one ahead), and limit 0 reads none', async () => {
    const client = createClient({ baseUrl: canned.origin })
    expect(await collect(client.paginate<number>('/items', { perPage: 2 }), { limit: 1 })).toEqual([10])
    // Page 1; page 2, read ahead, is aborted when the caller stops, often before it is sent.
    expect(canned.seen[0]?.url).toBe('/api/v4/items?per_page=2')
    expect(canned.seen.length).toBeLessThanOrEqual(2)
    canned.seen.length = 0
    expect(await collect(client.paginate<number>('/items'), { limit: 0 })).toEqual([])
    expect(canned.seen).toHaveLength(0)
    await client.close()
  })

  it('requests offset pages by number ahead of their links, each once, at most four at a time', async () => {
    const client = createClient({ baseUrl: canned.origin })
    expect(await collect(client.paginate<number>('/many', { perPage: 2 }))).toEqual([
      10, 11, 20, 21, 30, 31, 40, 41, 50, 51, 60, 61,
    ])
    expect(seenUrls()).toEqual([
      '/api/v4/many?page=2&per_page=2',
      '/api/v4/many?page=3&per_page=2',
      '/api/v4/many?page=4&per_page=2',
      '/api/v4/many?page=5&per_page=2',
      '/api/v4/many?page=6&per_page=2',
      '/api/v4/many?per_page=2',
    ])
    expect(maxInFlight).toBeGreaterThan(1)
    expect(maxInFlight).toBeLessThanOrEqual(4)
    await client.close()
  })

  it('reads uncounted pages ahead too, and drops the few requested past the last link', async () => {
    const client = createClient({ baseUrl: canned.origin })
    expect(await collect(client.paginate<number>('/uncounted', { perPage: 2 }))).toEqual([
      10, 11, 20, 21, 30, 31, 40, 41, 50, 51, 60, 61,
    ])
    expect(maxInFlight).toBeGreaterThan(1)
    expect(maxInFlight).toBeLessThanOrEqual(4)
    // Pages 1 to 6, and at most three past the end (AHEAD - 1), each asked once.
    const urls = canned.seen.map((s) => s.url)
    expect(new Set(urls).size).toBe(urls.length)
    expect(urls.length).toBeGreaterThanOrEqual(6)
    expect(urls.length).toBeLessThanOrEqual(9)
    await client.close()
  })

  it('drops a page requested by number when the links lead elsewhere, and follows the links', async () => {
    const client = createClient({ baseUrl: canned.origin })
    expect(await collect(client.paginate<number>('/shifting', { perPage: 2 }))).toEqual([
      10, 11, 20, 21, 40, 41, 50, 51, 60, 61,
    ])
    await client.close()
  })

  it('stops early without requesting past what was in flight', async () => {
    const client = createClient({ baseUrl: canned.origin })
    const firstTwoPages = await collect(client.paginate<number>('/many', { perPage: 2 }), { limit: 4 })
    expect(firstTwoPages).toEqual([10, 11, 20, 21])
    await new Promise((resolve) => setTimeout(resolve, 50))
    // Pages 1 and 2, then (on resuming for page 2) pages 3 to 5 by number; never page 6.
    expect(canned.seen.map((s) => s.url)).not.toContain('/api/v4/many?page=6&per_page=2')
    expect(canned.seen.length).toBeLessThanOrEqual(5)
    await client.close()
  })

  it('stops early without waiting for a page in flight, and aborts it', async () => {
    const arrived = new Promise<void>((resolve) => (stalledArrived = resolve))
    const closed = new Promise<void>((resolve) => (stalledClosed = resolve))
    const client = createClient({ baseUrl: canned.origin, timeoutMs: 60_000 })
    const read: number[] = []
    // Page 2 is requested ahead as page 1 arrives, and never answers: `break` must not wait for it.
    for await (const item of client.paginate<number>('/stalling', { perPage: 2 })) {
      read.push(item)
      await arrived
      break
    }
    expect(read).toEqual([1])
    await closed // the server saw page 2's request abandoned
    expect(canned.seen.map((s) => s.url)).toEqual([
      '/api/v4/stalling?per_page=2',
      '/api/v4/stalling?page=2&per_page=2',
    ])
    await client.close()
  })

  it('stops with an error when a next link repeats the page it came with', async () => {
    const client = createClient({ baseUrl: canned.origin })
    await expect(collect(client.paginate('/loop'))).rejects.toThrow(
      'GET /loop: the next-page link repeats the current page',
    )
    await client.close()
  })

  it('refuses a page that is not a JSON array, and raises GitLab errors as GitLabApiError', async () => {
    const client = createClient({ baseUrl: canned.origin })
    await expect(collect(client.paginate('/not-a-list'))).rejects.toThrow(
      new GitLabResponseError('GET', '/not-a-list', 'expected a JSON array, got object'),
    )
    await expect(collect(client.paginate('/missing'))).rejects.toMatchObject({
      status: 404,
      message: 'GET /missing -> 404: 404 Not Found',
    })
    await client.close()
  })
})
