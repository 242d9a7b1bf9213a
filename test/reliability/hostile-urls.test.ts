import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../support/server.js'
import { widgetsSeed } from '../support/seeds.js'
import { headOf } from '../../src/server/jobs/import-remote.js'
import { checkUrl } from '../../src/server/outbound/outbound-url.js'
import { installNetworkGuard, type NetworkGuard } from '../support/fuzz-network-guard.js'

/*
 * Hostile URLs for `POST /projects/remote-import` and the export's `upload[url]`.
 * Without --allow-local-requests every loopback, private, link-local, metadata or otherwise
 * local target (literal, odd spelling, or a name resolving to one) is refused with GitLab's 400
 * body, nothing is created, and nothing is connected to: the network guard records every
 * connection attempt and answers DNS from a fake hosts table, and a loopback listener stands in
 * for the loopback targets. With local requests allowed, a lying or oversize Content-Length is
 * caught.
 */
const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // maintainer of acme/widgets
const P = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

const LOCALHOST = 'Requests to localhost are not allowed'
const LOCAL_NET = 'Requests to the local network are not allowed'
const LINK_LOCAL = 'Requests to the link local network are not allowed'

let guard: NetworkGuard
let standIn: Server
let hits: IncomingMessage[]
let port: number
let strict: TestServer

beforeAll(async () => {
  guard = installNetworkGuard(
    {
      'intranet.test': ['10.0.0.7'],
      'metadata.test': ['169.254.169.254'],
      'loop.test': ['127.0.0.1'],
      'mixed.test': ['93.184.216.34', '192.168.1.20'],
      'v6local.test': ['fd00:ec2::254'],
    },
    ['203.0.113.10', '203.0.113.11'],
  )
  hits = []
  standIn = createServer((req, res) => {
    hits.push(req)
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': '10' }).end('0123456789')
  })
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve))
  port = (standIn.address() as AddressInfo).port
  strict = await startServer(widgetsSeed, {
    transfers: { rateLimits: { project_export: 0, project_import: 0 } },
  })
})
afterAll(async () => {
  await strict?.close()
  await new Promise<void>((resolve) => standIn.close(() => resolve()))
  guard.uninstall()
})

let mark = 0
beforeEach(() => {
  mark = guard.attempts.length
})
/** Connection attempts of this test other than its own requests to `server`. */
const outbound = (server: TestServer) => {
  const own = `connect 127.0.0.1:${new URL(server.baseUrl).port}`
  return guard.attempts.slice(mark).filter((a) => a.startsWith('connect ') && a !== own)
}

/** Every hostile target: [url template with PORT, UrlBlocker's sentence]. */
const TARGETS: [string, string][] = [
  ['://127.0.0.1:PORT/x.tar.gz', LOCALHOST],
  ['://127.1.2.3:PORT/x.tar.gz', LOCALHOST],
  ['://[::1]:PORT/x.tar.gz', LOCALHOST],
  ['://localhost:PORT/x.tar.gz', LOCALHOST],
  ['://LOCALHOST.:PORT/x.tar.gz', LOCALHOST],
  ['://app.localhost:PORT/x.tar.gz', LOCALHOST],
  ['://0.0.0.0:PORT/x.tar.gz', LOCALHOST],
  ['://0:PORT/x.tar.gz', LOCALHOST],
  ['://[::]:PORT/x.tar.gz', LOCALHOST],
  ['://[::ffff:127.0.0.1]:PORT/x.tar.gz', LOCALHOST],
  ['://[::ffff:7f00:1]:PORT/x.tar.gz', LOCALHOST],
  ['://2130706433:PORT/x.tar.gz', LOCALHOST],
  ['://0x7f.0.0.1:PORT/x.tar.gz', LOCALHOST],
  ['://0177.0.0.1:PORT/x.tar.gz', LOCALHOST],
  ['://0x7f000001:PORT/x.tar.gz', LOCALHOST],
  ['://127.1:PORT/x.tar.gz', LOCALHOST],
  ['://10.0.0.1:PORT/x.tar.gz', LOCAL_NET],
  ['://172.16.0.1:PORT/x.tar.gz', LOCAL_NET],
  ['://172.31.255.254:PORT/x.tar.gz', LOCAL_NET],
  ['://192.168.0.1:PORT/x.tar.gz', LOCAL_NET],
  ['://0xc0a80001:PORT/x.tar.gz', LOCAL_NET],
  ['://100.64.0.1:PORT/x.tar.gz', LOCAL_NET],
  ['://[fd00:ec2::254]:PORT/x.tar.gz', LOCAL_NET],
  ['://[::ffff:10.0.0.1]:PORT/x.tar.gz', LOCAL_NET],
  // IPv6 forms that carry an IPv4 address: IPv4-compatible and -translated, NAT64 (well-known and
  // local), 6to4, Teredo.
  ['://[::127.0.0.1]:PORT/x.tar.gz', LOCALHOST],
  ['://[::ffff:0:127.0.0.1]:PORT/x.tar.gz', LOCALHOST],
  ['://[::a00:1]:PORT/x.tar.gz', LOCAL_NET],
  ['://[64:ff9b::127.0.0.1]:PORT/x.tar.gz', LOCALHOST],
  ['://[64:ff9b::c0a8:1]:PORT/x.tar.gz', LOCAL_NET],
  ['://[64:ff9b:1::5db8:d822]:PORT/x.tar.gz', LOCAL_NET],
  ['://[2002:7f00:1::1]:PORT/x.tar.gz', LOCALHOST],
  ['://[2002:a9fe:a9fe::]/latest/meta-data/', LINK_LOCAL],
  ['://[2001:0:4136:e378:8000:63bf:80ff:fffe]:PORT/x.tar.gz', LOCALHOST],
  ['://[2001:0:a00:1::]:PORT/x.tar.gz', LOCAL_NET],
  ['://metadata.google.internal/computeMetadata/v1/', LOCAL_NET],
  ['://169.254.1.1:PORT/x.tar.gz', LINK_LOCAL],
  ['://169.254.169.254/latest/meta-data/', LINK_LOCAL],
  ['://2852039166/latest/meta-data/', LINK_LOCAL],
  ['://[fe80::1]:PORT/x.tar.gz', LINK_LOCAL],
]
/** Names the fake resolver maps to refused addresses. */
const NAMES: [string, string][] = [
  ['://loop.test:PORT/x.tar.gz', LOCALHOST],
  ['://intranet.test:PORT/x.tar.gz', LOCAL_NET],
  ['://metadata.test/latest/meta-data/', LINK_LOCAL],
  ['://mixed.test:PORT/x.tar.gz', LOCAL_NET],
  ['://v6local.test:PORT/x.tar.gz', LOCAL_NET],
]
const url = (scheme: string, template: string) => `${scheme}${template.replace('PORT', String(port))}`

describe('POST /projects/remote-import without --allow-local-requests', () => {
  it.each(TARGETS)(
    'refuses https%s with 400, creates nothing and connects nowhere',
    async (template, why) => {
      const hitsBefore = hits.length
      const res = await strict.http('POST', '/api/v4/projects/remote-import', {
        token: ROOT,
        json: { url: url('https', template), path: 'hostile', namespace: 'acme' },
      })
      expect([res.status, res.body]).toEqual([400, { message: `File url is blocked: ${why}` }])
      expect(strict.server.store.projects.byPath('acme/hostile')).toBeUndefined()
      expect(outbound(strict)).toEqual([])
      expect(hits.length).toBe(hitsBefore)
    },
  )
})

describe('POST /projects/:id/export upload[url] without --allow-local-requests', () => {
  it.each(TARGETS)('refuses http%s with 400 and queues no export', async (template, why) => {
    const hitsBefore = hits.length
    const res = await strict.http('POST', `${P}/export`, {
      token: ALICE,
      json: { upload: { url: url('http', template) } },
    })
    expect([res.status, res.body]).toEqual([400, { message: { url: [`is blocked: ${why}`] } }])
    const status = await strict.http('GET', `${P}/export`, { token: ALICE })
    expect((status.body as Json).export_status).toBe('none')
    expect(outbound(strict)).toEqual([])
    expect(hits.length).toBe(hitsBefore)
  })
})

/*
 * Names resolving to refused addresses: the server checks them only when connecting (a `lookup`
 * on its dispatcher), while the guard refuses any connect to a non-literal host before that
 * lookup runs, so under the guard we can assert only that the request is refused, nothing is
 * created and no socket ever reaches the resolved address (not GitLab's exact sentence).
 */
describe('remote-import of a name that resolves to a refused address', () => {
  it.each(NAMES)('refuses https%s and never connects to its address', async (template) => {
    const hitsBefore = hits.length
    const target = url('https', template)
    const res = await strict.http('POST', '/api/v4/projects/remote-import', {
      token: ROOT,
      json: { url: target, path: 'hostile', namespace: 'acme' },
    })
    expect(res.status).toBe(400)
    expect(typeof (res.body as Json).message).toBe('string')
    expect(strict.server.store.projects.byPath('acme/hostile')).toBeUndefined()
    const addresses = guard.hosts[new URL(target).hostname] ?? []
    for (const a of addresses) expect(outbound(strict).some((c) => c.includes(a))).toBe(false)
    expect(hits.length).toBe(hitsBefore)
  })
})

/*
 * With --allow-local-requests and a loopback file host: the HEAD's Content-Length is what the
 * download may bring. A GET that streams far more than the HEAD announced (chunked, no length)
 * is cut off while streaming; a HEAD announcing more than 10 GiB is refused before any GET.
 */
describe('remote-import of a file whose size lies', () => {
  const HUGE = 256 * 1024 * 1024
  let data: string
  let local: TestServer
  let host: Server
  let sent: number
  let methods: string[]
  let headLength: string
  beforeEach(async () => {
    data = mkdtempSync(join(tmpdir(), 'hostile-urls-'))
    sent = 0
    methods = []
    headLength = '1024'
    host = createServer((req, res) => {
      methods.push(req.method ?? '')
      if (req.method === 'HEAD')
        return res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': headLength }).end()
      res.writeHead(200, { 'content-type': 'application/gzip' })
      const chunk = Buffer.alloc(1024 * 1024, 0x1f)
      const pump = () => {
        while (sent < HUGE && !res.destroyed) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        if (!res.destroyed) res.end()
      }
      res.on('close', () => res.destroy())
      pump()
    })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    local = await startServer(widgetsSeed, { allowLocalRequests: true, data })
  })
  afterEach(async () => {
    await local.close()
    host.closeAllConnections()
    await new Promise<void>((resolve) => host.close(() => resolve()))
    rmSync(data, { recursive: true, force: true })
  })
  const fileUrl = () => `http://127.0.0.1:${(host.address() as AddressInfo).port}/x.tar.gz`

  it('cuts a GET that streams past the announced length off while streaming', async () => {
    const res = await local.http('POST', '/api/v4/projects/remote-import', {
      token: ROOT,
      json: { url: fileUrl(), path: 'liar', namespace: 'acme' },
    })
    expect(res.status).toBe(201)
    const id = (res.body as Json).id
    let status: Json = {}
    for (let i = 0; i < 2000; i++) {
      status = (await local.http('GET', `/api/v4/projects/${String(id)}/import`, { token: ROOT }))
        .body as Json
      if (status.import_status === 'finished' || status.import_status === 'failed') break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(status.import_status).toBe('failed')
    expect(methods).toEqual(['HEAD', 'GET'])
    expect(sent).toBeLessThan(HUGE / 4)
    expect((await local.http('GET', '/api/v4/version', { token: ROOT })).status).toBe(200)
    expect(readdirSync(join(data, 'transfers'))).toEqual([])
  })

  it('refuses a HEAD announcing one byte over 10 GiB before any GET', async () => {
    headLength = String(10 * 1024 ** 3 + 1)
    const res = await local.http('POST', '/api/v4/projects/remote-import', {
      token: ROOT,
      json: { url: fileUrl(), path: 'liar', namespace: 'acme' },
    })
    expect([res.status, res.body]).toEqual([
      400,
      { message: 'Content length is too big (should be at most 10 GiB)' },
    ])
    expect(methods).toEqual(['HEAD'])
    expect(local.server.store.projects.byPath('acme/liar')).toBeUndefined()
  })
})

/*
 * Redirects are followed as `Gitlab::HTTP` follows them (at most 5), and every hop is checked
 * again when it connects. Two loopback listeners stand in for public addresses (the guard
 * reroutes 203.0.113.10 and .11 to 127.0.0.1); strict mode is driven through `headOf`, the HEAD
 * the remote-import route makes, because the route itself takes only https URLs without
 * --allow-local-requests.
 */
describe('redirects are followed and every hop is checked again', () => {
  let redirector: Server
  let files: Server
  let fileMethods: string[]
  let redirectorHits: number
  let location: string
  const publicUrl = (s: Server, address: string, path: string) =>
    `http://${address}:${(s.address() as AddressInfo).port}${path}`
  beforeAll(async () => {
    files = createServer((req, res) => {
      fileMethods.push(req.method!)
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': '10' }).end('0123456789')
    })
    redirector = createServer((req, res) => {
      redirectorHits++
      const n = Number(/\/hop(\d+)/.exec(req.url!)?.[1] ?? -1)
      res.writeHead(302, { location: n >= 0 ? `/hop${n + 1}` : location }).end()
    })
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve))
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => redirector.close(() => resolve()))
    await new Promise<void>((resolve) => files.close(() => resolve()))
  })
  beforeEach(() => {
    fileMethods = []
    redirectorHits = 0
  })
  const start = () => new URL(publicUrl(redirector, '203.0.113.10', '/x.tar.gz'))

  it('follows a redirect to a public host and answers with its headers', async () => {
    location = publicUrl(files, '203.0.113.11', '/x.tar.gz')
    const head = await headOf(start(), {}, false)
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe('application/gzip')
    expect(fileMethods).toEqual(['HEAD'])
  })

  it.each([
    ['loopback', () => publicUrl(files, '127.0.0.1', '/x.tar.gz'), '127.0.0.1', LOCALHOST],
    ['IPv6 loopback', () => publicUrl(files, '[::1]', '/x.tar.gz'), '::1', LOCALHOST],
    ['metadata', () => 'http://169.254.169.254/latest/meta-data/', '169.254.169.254', LINK_LOCAL],
    ['private', () => 'http://10.0.0.7/x.tar.gz', '10.0.0.7', LOCAL_NET],
    ['decimal loopback', () => 'http://2130706433/x.tar.gz', '127.0.0.1', LOCALHOST],
  ])('refuses a hop to %s and never connects to it', async (_name, target, address, sentence) => {
    location = target()
    await expect(headOf(start(), {}, false)).rejects.toThrow(sentence)
    expect(redirectorHits).toBe(1)
    expect(fileMethods).toEqual([])
    expect(outbound(strict).filter((a) => a.includes(address))).toEqual([])
  })

  it('refuses a hop to another scheme', async () => {
    location = 'ftp://203.0.113.11/x.tar.gz'
    await expect(headOf(start(), {}, false)).rejects.toThrow(/protocol/)
    expect(fileMethods).toEqual([])
  })

  it('gives up after 5 redirects', async () => {
    await expect(headOf(new URL(publicUrl(redirector, '203.0.113.10', '/hop0')), {}, false)).rejects.toThrow()
    expect(redirectorHits).toBe(6)
  })

  it('remote-import fetches the archive from where the file host redirects (HEAD, then GET)', async () => {
    const local = await startServer(widgetsSeed, { allowLocalRequests: true })
    try {
      location = publicUrl(files, '127.0.0.1', '/x.tar.gz')
      const res = await local.http('POST', '/api/v4/projects/remote-import', {
        token: ROOT,
        json: { url: publicUrl(redirector, '127.0.0.1', '/x.tar.gz'), path: 'redirected', namespace: 'acme' },
      })
      expect(res.status).toBe(201)
      let status: Json = {}
      for (let i = 0; i < 2000; i++) {
        status = (
          await local.http('GET', `/api/v4/projects/${String((res.body as Json).id)}/import`, { token: ROOT })
        ).body as Json
        if (status.import_status === 'finished' || status.import_status === 'failed') break
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      // Ten bytes that are no gzip: the download happened, the import fails cleanly.
      expect(status.import_status).toBe('failed')
      expect(fileMethods).toEqual(['HEAD', 'GET'])
    } finally {
      await local.close()
    }
  })

  it('an export upload answered by a redirect fails, and the redirect target gets nothing', async () => {
    // HTTParty would replay a 302'd PUT as a bodiless GET; we refuse rather than "succeed".
    const local = await startServer(widgetsSeed, { allowLocalRequests: true })
    try {
      location = publicUrl(files, '127.0.0.1', '/x.tar.gz')
      const res = await local.http('POST', `${P}/export`, {
        token: ALICE,
        json: { upload: { url: publicUrl(redirector, '127.0.0.1', '/x.tar.gz') } },
      })
      expect(res.status).toBe(202)
      let status: Json = {}
      for (let i = 0; i < 2000; i++) {
        status = (await local.http('GET', `${P}/export`, { token: ALICE })).body as Json
        if (status.export_status !== 'queued' && status.export_status !== 'started') break
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(status.export_status).toBe('failed')
      expect(redirectorHits).toBe(1)
      expect(fileMethods).toEqual([])
    } finally {
      await local.close()
    }
  })
})

describe('IPv6 forms that carry a public IPv4 address', () => {
  it.each([
    '[::ffff:5db8:d822]',
    '[64:ff9b::93.184.216.34]',
    '[2002:5db8:d822::1]',
    '[2001:0:4136:e378:8000:63bf:a247:27dd]',
    '[2606:4700::6810:84e5]',
  ])('passes %s, as its IPv4 address passes', (host) => {
    const target = `https://${host}/x.tar.gz`
    expect(checkUrl(target, ['https'], false).href).toBe(new URL(target).href)
  })
})
