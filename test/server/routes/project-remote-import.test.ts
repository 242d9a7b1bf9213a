import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signV4 } from '../../../src/server/jobs/import-s3.js'
import { dripServer } from '../../support/drip-server.js'
import { settled as settledImport } from '../../support/imports.js'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'

const ROOT = 'glpat-root-token'
type Json = Record<string, unknown>
let t: TestServer
let archive: Buffer
let files: Server
let headers: Record<string, string>
let seen: IncomingMessage[]
let s3Problem: string | undefined

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'remote-import-'))
  writeFileSync(join(dir, 'VERSION'), '0.2.4')
  execFileSync('mkdir', ['-p', join(dir, 'tree/project')])
  writeFileSync(join(dir, 'tree/project.json'), '{}')
  writeFileSync(join(dir, 'tree/project/issues.ndjson'), `${JSON.stringify({ iid: 3, title: 'Remote' })}\n`)
  execFileSync('tar', ['-czf', join(dir, 'x.tar.gz'), '-C', dir, 'VERSION', 'tree'])
  archive = readFileSync(join(dir, 'x.tar.gz'))
  rmSync(dir, { recursive: true, force: true })
})

/**
 * One local server playing a file host and an S3-compatible endpoint (path style). For S3 it checks
 * the SigV4 shape from AWS's documentation: `AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/s3/aws4_request,
 * SignedHeaders=...;host;...;x-amz-content-sha256;x-amz-date, Signature=<64 hex>`, an `x-amz-date`
 * of the credential's day, and a signature that matches the secret (the signer itself is checked
 * against AWS's published example in test/server/archive/s3-signature.test.ts).
 */
beforeEach(async () => {
  headers = { 'content-type': 'application/gzip', 'content-length': String(archive.length) }
  seen = []
  s3Problem = undefined
  files = createServer((req, res) => {
    seen.push(req)
    if (req.url?.startsWith('/bucket/')) {
      const auth = req.headers.authorization ?? ''
      const m =
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/(\d{8})\/eu-west-1\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
          auth,
        )
      const date = String(req.headers['x-amz-date'] ?? '')
      const url = new URL(`http://${req.headers.host}${req.url}`)
      const expected =
        m &&
        signV4({
          method: req.method as 'GET' | 'HEAD',
          url,
          region: 'eu-west-1',
          accessKeyId: 'AKIDEXAMPLE',
          secretAccessKey: 'secret',
          now: new Date(date.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')),
        }).authorization
      if (!m || !date.startsWith(m[1]!) || !m[2]!.split(';').includes('host') || expected !== auth) {
        s3Problem = auth
        return res.writeHead(403).end()
      }
      if (req.url !== '/bucket/exports/x.tar.gz') return res.writeHead(404).end()
    }
    res.writeHead(200, headers)
    res.end(req.method === 'HEAD' ? undefined : archive)
  })
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(files.address() as AddressInfo).port}`
  t = await startServer(widgetsSeed, { allowLocalRequests: true, transfers: { s3Endpoint: endpoint } })
})
afterEach(async () => {
  await t.close()
  await new Promise<void>((resolve) => files.close(() => resolve()))
})
const fileUrl = () => `http://127.0.0.1:${(files.address() as AddressInfo).port}/x.tar.gz`

const settled = (id: unknown) => settledImport(t, id, ROOT)

describe('POST /projects/remote-import', () => {
  it('checks the file with HEAD, answers 201 scheduled, downloads and imports', async () => {
    const res = await t.http('POST', '/api/v4/projects/remote-import', {
      token: ROOT,
      json: { url: fileUrl(), path: 'remote', namespace: 'acme' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ import_status: 'scheduled', import_error: null, path: 'remote' })
    expect((await t.http('POST', '/-/emulator/settle', { token: ROOT })).status).toBe(200)
    const status = await t.http('GET', `/api/v4/projects/${String((res.body as Json).id)}/import`, {
      token: ROOT,
    })
    expect(status.body).toMatchObject({ import_status: 'finished' })
    expect(seen.map((r) => r.method)).toEqual(['HEAD', 'GET'])
    const issues = await t.http('GET', '/api/v4/projects/acme%2Fremote/issues', { token: ROOT })
    expect((issues.body as Json[]).map((i) => i.title)).toEqual(['Remote'])
  })

  it.each([
    [
      { 'content-type': 'text/html', 'content-length': '10' },
      "Content type 'text/html' not allowed. (Allowed: application/gzip, application/x-tar, application/x-gzip)",
    ],
    [
      { 'content-type': 'application/gzip', 'content-length': '0' },
      'Content length is too small (should be at least 1 Byte)',
    ],
    [
      { 'content-type': 'application/gzip', 'content-length': String(11 * 1024 ** 3) },
      'Content length is too big (should be at most 10 GiB)',
    ],
    [
      {
        'content-type': 'application/gzip',
        'content-length': '10',
        server: 'AmazonS3',
        'x-amz-request-id': 'x',
      },
      'To import from AWS S3 use `projects/remote-import-s3`',
    ],
  ])('refuses a file served with %j and creates nothing', async (given, message) => {
    headers = given
    const res = await t.http('POST', '/api/v4/projects/remote-import', {
      token: ROOT,
      json: { url: fileUrl(), path: 'remote' },
    })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(t.server.store.projects.byPath('root/remote')).toBeUndefined()
  })

  it('refuses http and local addresses without --allow-local-requests', async () => {
    const strict = await startServer(widgetsSeed)
    try {
      for (const [url, message] of [
        [fileUrl(), 'File url is blocked: Only allowed schemes are https'],
        ['https://127.0.0.1/x.tar.gz', 'File url is blocked: Requests to localhost are not allowed'],
        [
          'https://192.168.1.1/x.tar.gz',
          'File url is blocked: Requests to the local network are not allowed',
        ],
      ]) {
        const res = await strict.http('POST', '/api/v4/projects/remote-import', {
          token: ROOT,
          json: { url, path: 'r' },
        })
        expect([res.status, res.body]).toEqual([400, { message }])
      }
      expect(strict.server.store.projects.byPath('root/r')).toBeUndefined()
    } finally {
      await strict.close()
    }
  })

  it('needs url and path', async () => {
    const res = await t.http('POST', '/api/v4/projects/remote-import', { token: ROOT, json: {} })
    expect([res.status, res.body]).toEqual([400, { error: 'url is missing, path is missing' }])
  })
})

describe('POST /projects/remote-import-s3', () => {
  const body = (over: Json = {}) => ({
    region: 'eu-west-1',
    bucket_name: 'bucket',
    file_key: 'exports/x.tar.gz',
    access_key_id: 'AKIDEXAMPLE',
    secret_access_key: 'secret',
    path: 's3',
    ...over,
  })

  it('signs HEAD and GET with SigV4 and imports', async () => {
    const res = await t.http('POST', '/api/v4/projects/remote-import-s3', { token: ROOT, json: body() })
    expect(res.status).toBe(201)
    expect(await settled((res.body as Json).id)).toMatchObject({ import_status: 'finished' })
    expect(s3Problem).toBeUndefined()
    expect(seen.map((r) => r.method)).toEqual(['HEAD', 'GET'])
  })

  it.each([
    [{ region: '' }, "Region can't be blank"],
    [{ file_key: 'missing.tar.gz' }, "File not found 'missing.tar.gz' in 'bucket'"],
    [{ secret_access_key: 'wrong' }, "Failed to open 'exports/x.tar.gz' in 'bucket': HTTP 403"],
  ])('refuses %j and creates nothing', async (over, message) => {
    const res = await t.http('POST', '/api/v4/projects/remote-import-s3', { token: ROOT, json: body(over) })
    expect([res.status, res.body]).toEqual([400, { message }])
    expect(t.server.store.projects.byPath('root/s3')).toBeUndefined()
  })

  it('names every missing parameter', async () => {
    const res = await t.http('POST', '/api/v4/projects/remote-import-s3', {
      token: ROOT,
      json: { path: 'x' },
    })
    expect(res.body).toEqual({
      error:
        'region is missing, bucket_name is missing, file_key is missing, access_key_id is missing, secret_access_key is missing',
    })
  })
})

describe('a remote file that arrives a byte every 2 s', () => {
  // Limits of a second here (defaults: 10 KiB per 30 s, 4 h in all), so each case takes about a second.
  it.each([
    ['minimum rate', { minBytes: 1024, windowMs: 1000 }, 'less than 1 KiB moved in 1 s'],
    ['deadline', { deadlineMs: 1500, minBytes: 0 }, 'it took longer than 1.5 s'],
  ])('fails the import on the %s, with a clear import_error', async (_, transferLimits, why) => {
    const drip = await dripServer()
    const slow = await startServer(widgetsSeed, { allowLocalRequests: true, transfers: { transferLimits } })
    try {
      const res = await slow.http('POST', '/api/v4/projects/remote-import', {
        token: ROOT,
        json: { url: `${drip.url}/x.tar.gz`, path: 'dripped' },
      })
      expect(res.status).toBe(201)
      // The emulator's settle answers once the import job has ended: no polling.
      const settle = await slow.http('POST', '/-/emulator/settle', { token: ROOT })
      expect(settle.body).toMatchObject({ ran: { transfer_jobs: 1 } })
      const status = (
        await slow.http('GET', `/api/v4/projects/${String((res.body as Json).id)}/import`, { token: ROOT })
      ).body as Json
      expect(status).toMatchObject({
        import_status: 'failed',
        import_error: `The download was stopped: ${why}`,
      })
      expect(drip.requests()).toBe(1)
    } finally {
      await slow.close()
      await drip.close()
    }
  })
})

describe('import slots shared between users', () => {
  it("one user's dripping imports leave a slot: another user's import starts and finishes", async () => {
    const drip = await dripServer()
    const status = async (path: string, token: string) =>
      ((await t.http('GET', `/api/v4/projects/${path}/import`, { token })).body as Json).import_status
    try {
      const slow = ['drip-1', 'drip-2', 'drip-3']
      for (const path of slow) {
        const res = await t.http('POST', '/api/v4/projects/remote-import', {
          token: 'glpat-alice-token',
          json: { url: `${drip.url}/${path}.tar.gz`, path },
        })
        expect(res.status).toBe(201)
      }
      const res = await t.http('POST', '/api/v4/projects/remote-import', {
        token: 'glpat-bob-token',
        json: { url: fileUrl(), path: 'fast' },
      })
      expect(res.status).toBe(201)
      expect(await settled((res.body as Json).id)).toMatchObject({
        import_status: 'finished',
        import_error: null,
      })
      const issues = await t.http('GET', '/api/v4/projects/bob%2Ffast/issues', { token: 'glpat-bob-token' })
      expect((issues.body as Json[]).map((i) => i.title)).toEqual(['Remote'])
      // Alice's first two still hold their slots (a byte every 2 s); her third waits, fetching nothing.
      expect(await Promise.all(slow.map((path) => status(`alice%2F${path}`, 'glpat-alice-token')))).toEqual([
        'started',
        'started',
        'scheduled',
      ])
      for (let i = 0; i < 250 && drip.requests() < 2; i++) await new Promise((r) => setTimeout(r, 20))
      expect(drip.requests()).toBe(2)
    } finally {
      await drip.close()
    }
  })
})
