import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { dripServer } from '../../support/drip-server.js'
import { exportSettled } from '../../support/imports.js'
import { startServer, type TestServer } from '../../support/server.js'
import { widgetsSeed } from '../../support/seeds.js'
import { tarGzMembers } from '../../support/archive-members.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // group maintainer
const BOB = 'glpat-bob-token' // project developer
const CAROL = 'glpat-carol-token' // no membership
const P = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

/** A manual clock: tests move it, nothing waits for wall-clock time. */
const clock = { t: Date.parse('2026-03-01T12:34:56.789Z'), now: () => new Date(clock.t) }
let t: TestServer
beforeEach(async () => {
  clock.t = Date.parse('2026-03-01T12:34:56.789Z')
  t = await startServer(widgetsSeed, { clock, allowLocalRequests: true })
})
afterEach(() => t.close())

/** The caller's export status once the job is done. */
const settled = (token = ALICE): Promise<Json> => exportSettled(t, P, token)

async function download(token = ALICE) {
  const res = await request(`${t.baseUrl}${P}/export/download`, {
    headers: { 'private-token': token },
    reset: true,
  })
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) }
}

describe('POST /projects/:id/export', () => {
  it('answers 202 and moves queued -> finished with _links on the base URL', async () => {
    expect((await t.http('GET', `${P}/export`, { token: ALICE })).body).toMatchObject({
      export_status: 'none',
    })
    const res = await t.http('POST', `${P}/export`, { token: ALICE })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ message: '202 Accepted' })
    const early = (await t.http('GET', `${P}/export`, { token: ALICE })).body as Json
    expect(['queued', 'started', 'finished']).toContain(early.export_status)
    expect(early._links === undefined).toBe(early.export_status !== 'finished')
    const done = await settled()
    expect(done).toEqual({
      id: 1,
      description: null,
      name: 'Widgets',
      name_with_namespace: 'ACME / Widgets',
      path: 'widgets',
      path_with_namespace: 'acme/widgets',
      created_at: expect.any(String),
      export_status: 'finished',
      _links: {
        api_url: `${t.baseUrl}/api/v4/projects/1/export/download`,
        web_url: `${t.baseUrl}/acme/widgets/download_export`,
      },
    })
  })

  it('keeps exports per user', async () => {
    await t.http('POST', `${P}/export`, { token: ALICE })
    // The emulator's settle answers once the export job has ended: no polling.
    expect(await t.http('POST', '/-/emulator/settle', { token: ROOT })).toMatchObject({
      status: 200,
      body: { ran: { transfer_jobs: 1 } },
    })
    expect((await t.http('GET', `${P}/export`, { token: ALICE })).body).toMatchObject({
      export_status: 'finished',
    })
    expect((await t.http('GET', `${P}/export`, { token: ROOT })).body).toMatchObject({
      export_status: 'none',
    })
    expect((await download(ROOT)).status).toBe(404)
  })

  it.each([
    ['developer', BOB, 403, { message: '403 Forbidden' }],
    ['non-member of a private project', CAROL, 404, { message: '404 Project Not Found' }],
    ['anonymous', undefined, 401, { message: '401 Unauthorized' }],
  ])('refuses a %s on every route and schedules nothing', async (_who, token, status, body) => {
    for (const [method, path] of [
      ['POST', `${P}/export`],
      ['GET', `${P}/export`],
      ['GET', `${P}/export/download`],
    ] as const) {
      const res = await t.http(method, path, { token })
      expect([method, path, res.status, res.body]).toEqual([method, path, status, body])
    }
    expect((await t.http('GET', `${P}/export`, { token: ROOT })).body).toMatchObject({
      export_status: 'none',
    })
  })

  it.each([
    [{ upload: { url: 'whatever' } }, 400, { message: { url: ['is blocked: URI is invalid'] } }],
    [
      { upload: { url: 'ftp://example.com/x' } },
      400,
      { message: { url: ['is blocked: Only allowed schemes are http, https'] } },
    ],
    [
      { upload: { url: 'https://example.com/x', http_method: 'GET' } },
      400,
      { error: 'upload[http_method] does not have a valid value' },
    ],
  ])('refuses %j and changes nothing', async (json, status, body) => {
    const res = await t.http('POST', `${P}/export`, { token: ALICE, json })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(body)
    expect((await t.http('GET', `${P}/export`, { token: ALICE })).body).toMatchObject({
      export_status: 'none',
    })
  })

  // lib/api/project_export.rb declares `upload[url]` optional; no URL means no upload strategy.
  it.each([{ upload: {} }, { upload: { http_method: 'POST' } }, { upload: { url: '' } }])(
    'accepts %j (go-gitlab sends an empty upload hash) and keeps the export for download',
    async (json) => {
      const res = await t.http('POST', `${P}/export`, { token: ALICE, json })
      expect([res.status, res.body]).toEqual([202, { message: '202 Accepted' }])
      expect((await settled()).export_status).toBe('finished')
      expect((await download()).status).toBe(200)
    },
  )

  it('allows 6 exports per minute and user, then 429', async () => {
    for (let i = 0; i < 6; i++)
      expect((await t.http('POST', `${P}/export`, { token: ALICE })).status).toBe(202)
    const res = await t.http('POST', `${P}/export`, { token: ALICE })
    expect(res.status).toBe(429)
    clock.t += 60_000
    await settled()
    expect((await t.http('POST', `${P}/export`, { token: ALICE })).status).toBe(202)
  })
})

describe('GET /projects/:id/export/download', () => {
  it('answers GitLab 404s without a finished export', async () => {
    const none = await t.http('GET', `${P}/export/download`, { token: ALICE })
    expect([none.status, none.body]).toEqual([404, { message: '404 Not found or has expired' }])
    await t.http('POST', `${P}/export`, { token: ALICE })
    clock.t += 60_000
    const pending = await t.http('GET', `${P}/export/download`, { token: ALICE })
    expect([pending.status, pending.body]).toEqual([
      404,
      { message: 'The project export file is not available yet' },
    ])
  })

  it("streams GitLab's archive: name, headers, layout, relations", async () => {
    await t.http('POST', `${P}/export`, { token: ROOT, json: { description: 'Exported copy' } })
    await settled(ROOT)
    const res = await download(ROOT)
    expect(res.status).toBe(200)
    const name = '2026-03-01_12-34-789_acme_widgets_export.tar.gz'
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    )
    expect(res.headers['content-type']).toBe('application/octet-stream')
    expect(Number(res.headers['content-length'])).toBe(res.body.length)
    const files = await tarGzMembers(res.body)
    expect([...files.keys()][0]).toBe('./')
    expect(files.get('./VERSION')?.body).toBe('0.2.4')
    // The test server is EE, and `Gitlab::VERSION` says so.
    expect(files.get('./GITLAB_VERSION')?.body).toBe('18.6.0-ee')
    expect(files.has('./GITLAB_REVISION')).toBe(true)
    expect(JSON.parse(files.get('./tree/project.json')!.body)).toMatchObject({
      description: 'Exported copy',
      visibility_level: 0,
      archived: false,
    })
    const lines = (rel: string) =>
      files
        .get(`./tree/project/${rel}.ndjson`)!
        .body.split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Json)
    expect(lines('labels').map((l) => l.title)).toEqual(['bug', 'feature', 'docs'])
    expect(lines('milestones').map((m) => m.title)).toEqual(['v1.0', 'v2.0'])
    const issues = lines('issues')
    expect(issues.map((i) => i.iid)).toEqual([1, 2, 3, 4, 5])
    expect(issues[0]).toMatchObject({
      title: 'Crash on start',
      time_estimate: 12600,
      milestone: { title: 'v1.0' },
      label_links: [{ label: { title: 'bug', color: '#d9534f' } }],
      work_item_type: { base_type: 'issue' },
      issue_assignees: [{ user_id: 3 }],
    })
    expect(issues[4]).toMatchObject({ work_item_type: { base_type: 'incident' } })
    expect(
      lines('project_members')
        .map((m) => (m.user as Json).username)
        .sort(),
    ).toEqual(['alice', 'bob'])
    for (const [name, entry] of files)
      expect([name, entry.type]).toEqual([name, name.endsWith('/') ? 'directory' : 'file'])
  })

  it('allows one download per minute, user and project, then 429', async () => {
    await t.http('POST', `${P}/export`, { token: ALICE })
    await settled()
    expect((await download()).status).toBe(200)
    const again = await t.http('GET', `${P}/export/download`, { token: ALICE })
    expect([again.status, again.body]).toEqual([
      429,
      { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
    ])
    clock.t += 60_000
    expect((await download()).status).toBe(200)
  })

  it('counts downloads afresh after a reset, whose world reuses the ids', async () => {
    await t.http('POST', `${P}/export`, { token: ALICE })
    await settled()
    expect((await download()).status).toBe(200)
    await t.server.reset()
    await t.http('POST', `${P}/export`, { token: ALICE })
    await settled()
    expect((await download()).status).toBe(200)
  })

  it('takes JSON upload: null as no upload: the archive is kept for download', async () => {
    const res = await t.http('POST', `${P}/export`, { token: ALICE, json: { upload: null } })
    expect(res.status).toBe(202)
    expect((await settled()).export_status).toBe('finished')
    expect((await download()).status).toBe(200)
  })

  it('a new export replaces the finished one of the same user', async () => {
    await t.http('POST', `${P}/export`, { token: ALICE })
    await settled()
    clock.t += 60_000
    await t.http('POST', `${P}/export`, { token: ALICE, json: { description: 'second' } })
    expect((await settled()).export_status).toBe('finished')
    const files = await tarGzMembers((await download()).body)
    expect(JSON.parse(files.get('./tree/project.json')!.body).description).toBe('second')
  })
})

describe('export upload', () => {
  let receiver: Server
  let received: { method?: string; type?: string; length?: string; body: Buffer }[]
  let answer = 200
  beforeEach(async () => {
    received = []
    answer = 200
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        received.push({
          method: req.method,
          type: req.headers['content-type'],
          length: req.headers['content-length'],
          body: Buffer.concat(chunks),
        })
        res.writeHead(answer).end(answer === 200 ? '' : 'denied')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  })
  afterEach(() => new Promise<void>((resolve) => receiver.close(() => resolve())))
  /** The stored upload URLs: a pre-signed URL carries its signature, so none outlives its upload. */
  const storedUrls = () => inspectDb(t.server.store).prepare('SELECT upload_url FROM project_exports').all()
  const url = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bucket/x.tar.gz?sig=1`

  it.each(['PUT', 'POST'])(
    '%s streams the archive with Content-Type application/gzip, then keeps no file',
    async (method) => {
      const res = await t.http('POST', `${P}/export`, {
        token: ALICE,
        json: { upload: { url: url(), http_method: method } },
      })
      expect(res.status).toBe(202)
      expect((await settled()).export_status).toBe('none')
      expect(received).toHaveLength(1)
      const [got] = received
      expect(got).toMatchObject({ method, type: 'application/gzip', length: String(got!.body.length) })
      expect((await tarGzMembers(got!.body)).get('./VERSION')?.body).toBe('0.2.4')
      expect((await download()).status).toBe(404)
      expect(storedUrls()).toEqual([{ upload_url: null }])
    },
  )

  it('fails the export when the target refuses the upload', async () => {
    answer = 403
    await t.http('POST', `${P}/export`, { token: ALICE, json: { upload: { url: url() } } })
    expect((await settled()).export_status).toBe('failed')
    expect(storedUrls()).toEqual([{ upload_url: null }])
  })
})

describe('export upload to a host that answers a byte every 2 s', () => {
  it('fails the export on the minimum rate and forgets the URL', async () => {
    const drip = await dripServer()
    // At least 1 KiB per second here (default: 10 KiB per 30 s), so the test takes a second or two.
    const slow = await startServer(widgetsSeed, {
      allowLocalRequests: true,
      transfers: { transferLimits: { minBytes: 1024, windowMs: 1000 } },
    })
    try {
      const res = await slow.http('POST', `${P}/export`, {
        token: ALICE,
        json: { upload: { url: `${drip.url}/bucket/x.tar.gz?sig=1` } },
      })
      expect(res.status).toBe(202)
      let status: unknown
      while (status !== 'failed' && status !== 'none')
        status = ((await slow.http('GET', `${P}/export`, { token: ALICE })).body as Json).export_status
      expect(status).toBe('failed')
      expect(
        inspectDb(slow.server.store).prepare('SELECT error, upload_url FROM project_exports').all(),
      ).toEqual([{ error: 'The upload was stopped: less than 1 KiB moved in 1 s', upload_url: null }])
      expect(drip.requests()).toBe(1)
    } finally {
      await slow.close()
      await drip.close()
    }
  })
})

describe('export upload without --allow-local-requests', () => {
  it.each([
    ['http://127.0.0.1:9/x', 'Requests to localhost are not allowed'],
    ['http://localhost/x', 'Requests to localhost are not allowed'],
    ['http://10.1.2.3/x', 'Requests to the local network are not allowed'],
    ['http://169.254.169.254/latest/meta-data', 'Requests to the link local network are not allowed'],
    ['http://[::1]/x', 'Requests to localhost are not allowed'],
  ])('refuses %s', async (target, why) => {
    const strict = await startServer(widgetsSeed, { clock })
    try {
      const res = await strict.http('POST', `${P}/export`, {
        token: ALICE,
        json: { upload: { url: target } },
      })
      expect([res.status, res.body]).toEqual([400, { message: { url: [`is blocked: ${why}`] } }])
      const status = await strict.http('GET', `${P}/export`, { token: ALICE })
      expect((status.body as Json).export_status).toBe('none')
    } finally {
      await strict.close()
    }
  })
})
