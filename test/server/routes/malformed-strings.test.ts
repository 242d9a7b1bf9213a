import { connect } from 'node:net'
import Fastify, { type FastifyInstance } from 'fastify'
import { request } from 'undici'
import { bodyParsers } from '../../../src/server/http/body-parsers.js'
import { malformedStringGuard } from '../../../src/server/http/malformed-strings.js'
import { startServer, type TestServer } from '../../support/server.js'
import { snapshotStore } from '../../support/fuzz-store.js'
import { tokens } from '../../support/seeds.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * lib/gitlab/middleware/handle_malformed_strings.rb: a NUL byte or invalid UTF-8 in the path, the
 * credentials or a parameter (query, form, multipart, JSON, nested two levels down) is a plain-text
 * `400 Bad Request` before any API code runs, and changes nothing.
 */
const seed = `
users:
  - { username: root, admin: true, token: ${tokens.root} }
  - { username: mark, token: ${tokens.maintainer} }
groups:
  - { path: acme, visibility: public, members: { mark: maintainer } }
projects:
  - path: acme/app
    visibility: public
    issues: [ { title: First, author: mark } ]
`

let t: TestServer
beforeAll(async () => {
  t = await startServer(seed)
})
afterAll(() => t.close())

interface Raw {
  method?: 'GET' | 'POST' | 'PUT'
  query?: string
  headers?: Record<string, string>
  body?: Buffer | string
}

/** Sends raw bytes: the test controls every byte of path, query, headers and body. */
async function send(path: string, raw: Raw = {}) {
  const res = await request(`${t.baseUrl}${path}${raw.query ? `?${raw.query}` : ''}`, {
    method: raw.method ?? 'POST',
    headers: { 'private-token': tokens.maintainer, ...raw.headers },
    body: raw.body,
  })
  return { status: res.statusCode, type: String(res.headers['content-type']), text: await res.body.text() }
}

const json = (text: string) => ({ headers: { 'content-type': 'application/json' }, body: Buffer.from(text) })
const form = (body: Buffer | string) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body,
})
function multipart(name: string, value: Buffer) {
  const b = 'xyzzy'
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${b}` },
    body: Buffer.concat([
      Buffer.from(`--${b}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n`),
      value,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]),
  }
}
const ISSUES = '/api/v4/projects/acme%2Fapp/issues'

describe("GitLab's malformed-string guard", () => {
  const refused: [string, string, Raw][] = [
    ['a NUL in the query', ISSUES, { query: 'title=nul%00byte' }],
    ['invalid UTF-8 in the query', ISSUES, { query: 'title=%C0%80' }],
    ['a broken percent-escape in the query', ISSUES, { query: 'title=a%E0%A4%A' }],
    ['a percent-escape cut short in the query', ISSUES, { query: 'title=a%2' }],
    ['a NUL two hashes down in the query', ISSUES, { query: 'title=x&a[b][c]=%00' }],
    ['a NUL in an array in the query', ISSUES, { query: 'title=x&labels[]=%00' }],
    ['invalid UTF-8 in a form body', ISSUES, form('title=%FF%FE')],
    [
      'raw invalid UTF-8 bytes in a form body',
      ISSUES,
      form(Buffer.from([0x74, 0x69, 0x74, 0x6c, 0x65, 0x3d, 0xc0, 0x80])),
    ],
    ['a NUL in a form body', ISSUES, form('title=nul%00byte')],
    ['a JSON \\u0000 escape', ISSUES, json('{"title":"nul\\u0000byte"}')],
    ['a NUL two levels down in JSON', ISSUES, json('{"title":"x","a":{"b":["\\u0000"]}}')],
    ['a lone surrogate in JSON', ISSUES, json('{"title":"\\ud800"}')],
    [
      'raw invalid UTF-8 in a JSON body',
      ISSUES,
      {
        ...json(''),
        body: Buffer.from([
          0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d,
        ]),
      },
    ],
    ['a NUL in a multipart field', ISSUES, multipart('title', Buffer.from('nul\u0000byte'))],
    ['invalid UTF-8 in a multipart field', ISSUES, multipart('title', Buffer.from([0xc0, 0x80]))],
    ['a NUL in the path', '/api/v4/projects/acme%2Fapp%00/issues', {}],
    ['invalid UTF-8 in the path', '/api/v4/projects/%C0%AF/issues', {}],
    [
      'a NUL in Basic credentials',
      ISSUES,
      { headers: { authorization: `Basic ${Buffer.from('mark:a\u0000b').toString('base64')}` } },
    ],
    [
      'invalid UTF-8 in the Authorization header',
      ISSUES,
      { headers: { authorization: 'Bearer \u00c0\u0080' } },
    ],
  ]

  it.each(refused)('refuses %s with a plain 400 and changes nothing', async (_what, path, raw) => {
    const before = snapshotStore(inspectDb(t.server.store))
    const res = await send(path, { query: 'title=ok', ...raw })
    expect(res).toEqual({ status: 400, type: 'text/plain', text: 'Bad Request' })
    expect(snapshotStore(inspectDb(t.server.store))).toEqual(before)
  })

  it('answers GETs the same way, before authentication and routing', async () => {
    for (const path of ['/api/v4/version', '/api/v4/nowhere'])
      expect(
        await send(path, { method: 'GET', query: 'x=%00', headers: { 'private-token': 'bad' } }),
      ).toEqual({
        status: 400,
        type: 'text/plain',
        text: 'Bad Request',
      })
  })

  it('refuses a malformed multipart field before refusing the token, on uploads too', async () => {
    // HandleMalformedStrings reads the parameters before Grape authenticates: an unknown token
    // with a malformed field is a 400, the same body well formed a 401.
    const uploads = '/api/v4/projects/acme%2Fapp/issues/1/metric_images'
    const unknown = { 'private-token': 'glpat-revoked-or-unknown' }
    for (const path of [ISSUES, uploads]) {
      const bad = multipart('url_text', Buffer.from([0xed, 0xa0, 0x80]))
      expect(await send(path, { ...bad, headers: { ...bad.headers, ...unknown } })).toEqual({
        status: 400,
        type: 'text/plain',
        text: 'Bad Request',
      })
      const good = multipart('url_text', Buffer.from('fine'))
      const res = await send(path, { ...good, headers: { ...good.headers, ...unknown } })
      expect([res.status, res.text]).toEqual([401, '{"message":"401 Unauthorized"}'])
    }
  })

  it('lets a NUL deeper than the middleware looks through to the API', async () => {
    const res = await send(ISSUES, json('{"title":"Deep","a":{"b":{"c":["\\u0000"]}}}'))
    expect(res.status).toBe(201)
  })

  it('keeps valid UTF-8 everywhere, in multipart fields too', async () => {
    const res = await send(ISSUES, multipart('title', Buffer.from('Grüße 🙂')))
    expect(res.status).toBe(201)
    expect(JSON.parse(res.text)).toMatchObject({ title: 'Grüße 🙂' })
    const query = await send(ISSUES, { query: `title=${encodeURIComponent('Ünïcode ✓')}` })
    expect(JSON.parse(query.text)).toMatchObject({ title: 'Ünïcode ✓' })
  })

  it("answers a NUL byte in a header, which Node's parser refuses, with the same plain 400", async () => {
    const before = snapshotStore(inspectDb(t.server.store))
    const url = new URL(t.baseUrl)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write(
          `POST ${ISSUES}?title=nul HTTP/1.1\r\nHost: ${url.host}\r\nPrivate-Token: glpat-\u0000x\r\nContent-Length: 0\r\n\r\n`,
        ),
      )
      let text = ''
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')))
      socket.on('close', () => resolve(text))
      socket.on('error', reject)
    })
    const [head, body] = answer.split('\r\n\r\n')
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request')
    expect(head).toMatch(/^content-type: text\/plain$/im)
    expect(body).toBe('Bad Request')
    expect(snapshotStore(inspectDb(t.server.store))).toEqual(before)
  })

  it('treats a PRIVATE-TOKEN with invalid bytes as an unknown token, as GitLab does', async () => {
    const res = await send(ISSUES, { query: 'title=x', headers: { 'private-token': 'glpat-\u00c0\u0080' } })
    expect(res.status).toBe(401)
  })
})

describe("the guard beside the server's parsers", () => {
  /** The guard with the app's parsers (http/body-parsers.ts), and a later preParsing hook that sees what is handed on. */
  let app: FastifyInstance
  let base: string
  const handedOn: boolean[] = []
  beforeAll(async () => {
    app = Fastify()
    await bodyParsers(app)
    malformedStringGuard(app)
    app.addHook('preParsing', (req, _reply, payload, done) => {
      handedOn.push(payload === req.raw)
      done(null, payload)
    })
    app.get('/echo', async () => ({ ok: true }))
    app.post('/echo', async (req) => req.body)
    base = await app.listen({ host: '127.0.0.1', port: 0 })
  })
  afterAll(() => app.close())
  beforeEach(() => void (handedOn.length = 0))
  const post = (type: string, body: string | Buffer) =>
    request(`${base}/echo`, { method: 'POST', headers: { 'content-type': type }, body })

  it('hands on a request without a body as it came, whatever its Content-Type says', async () => {
    const res = await request(`${base}/echo`, { headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).toBe(200)
    expect(await res.body.json()).toEqual({ ok: true })
    expect(handedOn).toEqual([true])
  })

  it('makes no copy of a JSON body, and checks the bytes the parser read', async () => {
    const res = await post('application/json', '{"title":"fine"}')
    expect(await res.body.json()).toEqual({ title: 'fine' })
    expect(handedOn).toEqual([true])
    for (const body of [
      '{"title":"a\\u0000b"}',
      Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d]),
    ]) {
      const bad = await post('application/json', body)
      // The guard's refusal (the bare app has no GitLab error handler to write its plain text).
      expect(bad.statusCode).toBe(400)
      await bad.body.dump()
    }
  })

  it('makes no copy of a urlencoded body either, and checks its bytes as Rack reads them', async () => {
    const res = await post('application/x-www-form-urlencoded', 'title=fine&labels[]=a%2Fb')
    expect(await res.body.json()).toEqual({ title: 'fine', labels: ['a/b'] })
    expect(handedOn).toEqual([true])
    for (const body of ['title=a%00b', 'title=%C0%80', 'title=%zz', Buffer.from([0x74, 0x3d, 0xc0, 0x80])]) {
      const bad = await post('application/x-www-form-urlencoded', body)
      expect([body, bad.statusCode]).toEqual([body, 400])
      await bad.body.dump()
    }
  })
})
