import { Type } from '@sinclair/typebox'
import {
  createClient,
  GitLabResponseError,
  GitLabTimeoutError,
  NOT_MODIFIED,
  type ClientOptions,
} from '../../src/api/client.js'
import { apiRoot, compose, serverRoot, type Layer } from '../../src/api/transport.js'
import { cannedServer, json, type Canned } from './canned-server.js'
import { scripted } from './fake-send.js'

describe('apiRoot', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/api/v4'],
    ['https://gitlab.example.com/gitlab', 'https://gitlab.example.com/gitlab/api/v4'],
    ['https://gitlab.example.com/gitlab//', 'https://gitlab.example.com/gitlab/api/v4'],
    ['https://gitlab.example.com/api/v4/', 'https://gitlab.example.com/api/v4'],
  ])('%s -> %s', (base, root) => expect(apiRoot(base)).toBe(root))

  it.each([
    ['https://gitlab.example.com/gitlab/', 'https://gitlab.example.com/gitlab'],
    ['https://gitlab.example.com/gitlab/api/v4', 'https://gitlab.example.com/gitlab'],
  ])('serverRoot: %s -> %s (the emulator controls)', (base, root) => expect(serverRoot(base)).toBe(root))

  it('refuses what is not a plain http(s) URL, without repeating it', () => {
    expect(() => apiRoot('gitlab.example.com')).toThrow('baseUrl must be an absolute http(s) URL')
    expect(() => apiRoot('ftp://h')).toThrow('baseUrl must be an http(s) URL, not ftp:')
    expect(() => apiRoot('https://user:glpat-x@h')).toThrow(
      new TypeError('baseUrl must not carry credentials; use token'),
    )
    expect(() => apiRoot('https://h/?private_token=glpat-x')).toThrow(
      'baseUrl must not have a query string or fragment',
    )
  })
})

describe('compose', () => {
  it('runs layers outermost first', async () => {
    const order: string[] = []
    const tag =
      (name: string): Layer =>
      (next) =>
      (req) => (order.push(name), next(req))
    const { send } = scripted([{ status: 200 }])
    await compose(send, tag('a'), tag('b'))({ method: 'GET', path: '/', headers: {} })
    expect(order).toEqual(['a', 'b'])
  })

  it('refuses a layer that is not a function', () => {
    const { send } = scripted([])
    expect(() => compose(send, 'nope' as unknown as Layer)).toThrow(
      'invalid layer, expected function received string',
    )
  })
})

describe('headers and bodies (fake Send)', () => {
  const call = async (options: Partial<ClientOptions>) => {
    const { send, calls } = scripted([
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' },
    ])
    await createClient({ baseUrl: 'http://gitlab.test', send, ...options }).request('GET', '/user')
    return calls[0]?.headers ?? {}
  }

  it('sends each token type in its own header, and none when anonymous', async () => {
    expect(await call({ token: 'p1' })).toMatchObject({ 'private-token': 'p1' })
    expect(await call({ token: 'j1', tokenType: 'job' })).toMatchObject({ 'job-token': 'j1' })
    const oauth = await call({ token: 'o1', tokenType: 'oauth' })
    expect(oauth).toMatchObject({ authorization: 'Bearer o1' })
    expect(oauth['private-token']).toBeUndefined()
    const anonymous = await call({})
    expect(Object.keys(anonymous).sort()).toEqual(['accept', 'user-agent'])
  })

  it('sets the user agent and Accept: application/json', async () => {
    expect(await call({ userAgent: 'sync-issues/1.0' })).toEqual({
      accept: 'application/json',
      'user-agent': 'sync-issues/1.0',
    })
  })

  it('sends JSON bodies with Content-Type application/json', async () => {
    const { send, calls } = scripted([
      { status: 201, headers: { 'content-type': 'application/json' }, body: '{"iid":5}' },
    ])
    const client = createClient({ baseUrl: 'http://gitlab.test', send })
    expect(
      await client.request('POST', '/projects/1/issues', { json: { title: 'x', labels: 'a,b' } }),
    ).toEqual({ iid: 5 })
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/projects/1/issues',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"x","labels":"a,b"}',
    })
  })

  it('gives undefined for 204, NOT_MODIFIED for 304, text for a non-JSON body', async () => {
    const { send, log } = scripted([
      { status: 204 },
      { status: 304 },
      { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' },
    ])
    const client = createClient({ baseUrl: 'http://gitlab.test', send })
    expect(await client.issues.remove('acme/widgets', 1)).toBeUndefined()
    expect(await client.request('POST', '/projects/1/issues/1/todo')).toBe(NOT_MODIFIED)
    expect(await client.request('GET', '/-/health')).toBe('ok')
    expect(log.filter((e) => e === 'dump')).toHaveLength(2)
  })

  it('with validate, checks a body against the call schema', async () => {
    const body = '{"version":"18.1.0"}'
    const answer = { status: 200, headers: { 'content-type': 'application/json' }, body }
    const loose = createClient({ baseUrl: 'http://gitlab.test', send: scripted([answer]).send })
    expect(await loose.version()).toEqual({ version: '18.1.0' })
    const strict = createClient({
      baseUrl: 'http://gitlab.test',
      send: scripted([answer]).send,
      validate: true,
    })
    await expect(strict.version()).rejects.toBeInstanceOf(GitLabResponseError)
    const item = Type.Object({ id: Type.Integer() })
    const list = scripted([
      { status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id":1},{"id":"2"}]' },
    ])
    const client = createClient({ baseUrl: 'http://gitlab.test', send: list.send, validate: true })
    await expect(client.paginate('/things', { item }).next()).rejects.toThrow(
      'GET /things: unexpected response: /id',
    )
  })
})

describe('timeouts and aborts over a socket', () => {
  let canned: Canned
  beforeAll(async () => {
    canned = await cannedServer((req, res) => {
      if (req.url?.startsWith('/api/v4/slow-head'))
        return void setTimeout(() => json(res, 200, []), 1000).unref()
      if (req.url?.startsWith('/api/v4/slow-body')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('[1,')
        return void setTimeout(() => res.end('2]'), 1000).unref()
      }
      json(res, 200, [])
    })
  })
  afterAll(() => canned.close())

  it('rejects a slow answer with GitLabTimeoutError, not retried', async () => {
    // 300 ms (the answer takes 1 s): long enough that a loaded machine has delivered the request
    // before the client gives up, so "sent once, not retried" is what the count shows.
    const client = createClient({ baseUrl: canned.origin, timeoutMs: 300 })
    const err = await client.request('GET', '/slow-head?x=1').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GitLabTimeoutError)
    expect((err as Error).message).toBe('GET /slow-head timed out after 300 ms')
    expect(canned.seen.filter((s) => s.url.startsWith('/api/v4/slow-head'))).toHaveLength(1)
    await client.close()
  })

  it('covers the body too, and a call may set its own timeout', async () => {
    const client = createClient({ baseUrl: canned.origin, timeoutMs: 0 })
    await expect(client.request('GET', '/slow-body', { timeoutMs: 50 })).rejects.toThrow(
      new GitLabTimeoutError('GET', '/slow-body', 50),
    )
    await client.close()
  })

  it("rejects with the caller's abort reason when the caller aborts", async () => {
    const client = createClient({ baseUrl: canned.origin })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('stopped by caller')), 20)
    await expect(client.request('GET', '/slow-head', { signal: controller.signal })).rejects.toThrow(
      'stopped by caller',
    )
    await client.close()
  })

  it('a fast answer within the timeout succeeds', async () => {
    const client = createClient({ baseUrl: canned.origin, timeoutMs: 5000 })
    expect(await client.request('GET', '/fast')).toEqual([])
    await client.close()
  })
})

describe('bodies read whole over a socket (undici dispatch, whole.ts)', () => {
  let canned: Canned
  beforeAll(async () => {
    canned = await cannedServer((req, res) => {
      if (req.url?.startsWith('/api/v4/hinted')) res.writeEarlyHints({ link: '</style.css>; rel=preload' })
      if (req.url?.startsWith('/api/v4/bom')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return void res.end('\ufeff{"ok":true}')
      }
      if (req.url?.startsWith('/api/v4/split')) {
        // "é" is 0xC3 0xA9: its two bytes go out in two writes, so they reach the client in two chunks.
        const body = Buffer.from('{"title":"café au lait"}')
        const at = body.indexOf(0xc3) + 1
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
        res.write(body.subarray(0, at))
        return void setTimeout(() => res.end(body.subarray(at)), 30)
      }
      json(res, 200, { ok: true })
    })
  })
  afterAll(() => canned.close())

  it('reads the final answer after a 1xx one', async () => {
    const client = createClient({ baseUrl: canned.origin })
    expect(await client.request('GET', '/hinted')).toEqual({ ok: true })
    await client.close()
  })

  it('decodes a character whose bytes came in two chunks', async () => {
    const client = createClient({ baseUrl: canned.origin })
    expect(await client.request('GET', '/split')).toEqual({ title: 'café au lait' })
    await client.close()
  })

  it('drops a byte-order mark, as undici text() does', async () => {
    const client = createClient({ baseUrl: canned.origin })
    expect(await client.request('GET', '/bom')).toEqual({ ok: true })
    await client.close()
  })
})

describe('connection reset over a socket', () => {
  it('retries a GET whose connection was reset, and does not retry the POST', async () => {
    let resets = 1
    const canned = await cannedServer((req, res) => {
      if (req.url?.includes('reset') && resets-- > 0) return void req.socket.destroy()
      json(res, 200, { ok: true })
    })
    const client = createClient({ baseUrl: canned.origin, retry: { sleep: async () => undefined } })
    expect(await client.request('GET', '/reset')).toEqual({ ok: true })
    resets = 1
    await expect(client.request('POST', '/reset-post')).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
    expect(canned.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/v4/reset',
      'GET /api/v4/reset',
      'POST /api/v4/reset-post',
    ])
    await client.close()
    await canned.close()
  })
})
