import { createServer, type Server } from 'node:http'
import { GitLabApiError, describeBody } from '../../src/api/errors.js'
import { collect, nextLink, rebase } from '../../src/api/http.js'
import { createClient } from '../../src/api/client.js'
import { path } from '../../src/api/path.js'
import { toQueryString } from '../../src/api/query.js'

describe('paths and queries', () => {
  it('encodes every interpolated value as one segment', () => {
    expect(path`/projects/${'acme/widgets'}/issues/${3}`).toBe('/projects/acme%2Fwidgets/issues/3')
  })

  it('writes arrays and hashes as Rails reads them and skips undefined', () => {
    expect(
      toQueryString({ iids: [1, 2], not: { labels: 'bug' }, state: 'opened', x: undefined, b: false }),
    ).toBe('iids%5B%5D=1&iids%5B%5D=2&not%5Blabels%5D=bug&state=opened&b=false')
  })
})

describe('pagination links', () => {
  it('takes the rel="next" target and re-bases it below /api/v4, whatever host it names', () => {
    const link =
      '<https://evil.example/api/v4/projects/1/issues?page=1>; rel="prev", <https://evil.example:8443/gitlab/api/v4/projects/1/issues?page=3&per_page=2>; rel="next"'
    const next = nextLink(link) as string
    expect(rebase(next)).toBe('/projects/1/issues?page=3&per_page=2')
    expect(nextLink('<https://h/api/v4/x?page=1>; rel="first"')).toBeUndefined()
  })
})

describe('errors', () => {
  it('describes every GitLab error shape and never shows a query string', () => {
    expect(describeBody({ message: '404 Project Not Found' })).toBe('404 Project Not Found')
    expect(describeBody({ error: 'title is missing' })).toBe('title is missing')
    expect(describeBody({ message: { title: ["can't be blank"] } })).toBe("title can't be blank")
    const err = new GitLabApiError(401, 'GET', '/user', { message: '401 Unauthorized' })
    expect(err.message).toBe('GET /user -> 401: 401 Unauthorized')
  })
})

describe('the client over a socket', () => {
  let server: Server
  let base: string
  const seen: { url: string; headers: Record<string, unknown> }[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers })
      if (req.url?.startsWith('/api/v4/slow')) return void setTimeout(() => res.end('[]'), 2000).unref()
      const page = Number(new URL(req.url ?? '', 'http://x').searchParams.get('page') ?? '1')
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-total': '5' }
      // The server names a host we must not follow.
      if (page < 3)
        headers.link = `<http://elsewhere.invalid/api/v4/items?page=${page + 1}&per_page=2>; rel="next"`
      res.writeHead(200, headers)
      res.end(JSON.stringify(page < 3 ? [page * 10, page * 10 + 1] : [30]))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })
  afterAll(() => {
    server.closeAllConnections()
    return new Promise((resolve) => server.close(resolve))
  })

  it('walks every page on our own host, with the token in a header only', async () => {
    const client = createClient({ baseUrl: base, token: 'glpat-secret' })
    const items = await collect(client.http.paginate<number>('/items', { perPage: 2 }))
    expect(items).toEqual([10, 11, 20, 21, 30])
    expect(seen.map((s) => s.url)).toEqual([
      '/api/v4/items?per_page=2',
      '/api/v4/items?page=2&per_page=2',
      '/api/v4/items?page=3&per_page=2',
    ])
    expect(
      seen.every((s) => s.headers['private-token'] === 'glpat-secret' && !s.url.includes('secret')),
    ).toBe(true)
  })

  it('collect stops at its limit without reading further pages', async () => {
    seen.length = 0
    const client = createClient({ baseUrl: base })
    expect(await collect(client.http.paginate<number>('/items', { perPage: 2 }), { limit: 3 })).toEqual([
      10, 11, 20,
    ])
    expect(seen).toHaveLength(2)
  })

  it('times out a slow request with GitLabTimeoutError', async () => {
    const client = createClient({ baseUrl: base, timeoutMs: 100, retry: { maxRetries: 0 } })
    await expect(client.http.request('GET', '/slow')).rejects.toThrow('GET /slow timed out after 100 ms')
  })

  it('sends the job token and the OAuth token in their own headers', async () => {
    seen.length = 0
    await createClient({ baseUrl: base, token: 'job-1', tokenType: 'job' }).http.request(
      'GET',
      '/items?page=3',
    )
    await createClient({ baseUrl: base, token: 'oauth-1', tokenType: 'oauth' }).http.request(
      'GET',
      '/items?page=3',
    )
    expect(seen[0]?.headers['job-token']).toBe('job-1')
    expect(seen[1]?.headers.authorization).toBe('Bearer oauth-1')
  })
})
