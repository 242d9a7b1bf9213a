import { open, type FileHandle } from 'node:fs/promises'
import { exportSettled } from '../../support/imports.js'
import { rawExchange } from '../../support/raw-exchange.js'
import { startServer, type TestServer } from '../../support/server.js'
import { FormData, request } from 'undici'
import { widgetsSeed } from '../../support/seeds.js'
import { detailSeed, P as DETAIL, T } from '../routes/issue-details-seed.js'

/*
 * HEAD on GET routes (src/server/http/head-requests.ts): GitLab (Grape) answers HEAD on every GET route
 * with the GET's status and headers and no body, as Fastify's own HEAD routes did here before.
 * Read from the socket, so that header order and framing count too.
 */
/** A manual clock: the download's rate limit (one a minute) is passed by moving it. */
const clock = { t: Date.parse('2026-03-01T12:34:56.789Z'), now: () => new Date(clock.t) }
let t: TestServer
beforeEach(async () => {
  t = await startServer(
    expect.getState().currentTestName?.includes('metric image') ? detailSeed : widgetsSeed,
    {
      clock,
    },
  )
})
afterEach(() => t.close())

const P = '/api/v4/projects/acme%2Fwidgets'
const ALICE = 'glpat-alice-token'

/** One request on its own connection: the head (status line and headers, `date` left out, the request id's form only) and the bytes after it. */
async function exchange(method: string, path: string, headers: Record<string, string> = {}) {
  const { head, body } = await rawExchange(Number(new URL(t.baseUrl).port), method, path, headers)
  return {
    head: head
      .replace(/^date: .*\r\n/im, '')
      // Each answer has an id of its own (GitLab's correlation id): its form is compared, not its value.
      .replace(/^x-request-id: [0-9A-HJKMNP-TV-Z]{26}\r\n/im, 'x-request-id: <ULID>\r\n'),
    body,
  }
}

/** HEAD answers with GET's status line and headers, byte for byte, and no body. */
async function expectHeadAsGet(path: string, headers: Record<string, string> = {}) {
  const get = await exchange('GET', path, headers)
  clock.t += 60_000
  const head = await exchange('HEAD', path, headers)
  // A body of unknown length goes chunked; a HEAD answer has none to frame.
  expect(head.head).toBe(get.head.replace(/\r\nTransfer-Encoding: chunked$/, ''))
  expect(head.body.length).toBe(0)
  return get
}

describe('HEAD on GET routes', () => {
  it('answers a list with its paging headers and the length of the body GET sends', async () => {
    const get = await expectHeadAsGet(`${P}/issues?per_page=1&page=2`, { 'private-token': ALICE })
    expect(get.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(get.head).toMatch(/\r\nx-total-pages: \d+/)
    expect(get.head).toContain(`\r\ncontent-length: ${get.body.length}`)
  })

  it('answers errors as GET does: 401, 404 (routes and records), 410 for API v3', async () => {
    await expectHeadAsGet(`${P}/issues`, { 'private-token': 'glpat-nobody' })
    await expectHeadAsGet(`${P}/issues/999`, { 'private-token': ALICE })
    await expectHeadAsGet('/api/v4/no/such/route')
    const gone = await expectHeadAsGet('/api/v3/projects')
    expect(gone.head).toMatch(/^HTTP\/1\.1 410 Gone\r\n/)
  })

  it('answers a streamed download with its headers (the file length among them), reading none of the file', async () => {
    expect((await t.http('POST', `${P}/export`, { token: ALICE })).status).toBe(202)
    await exportSettled(t, P, ALICE)
    // The archive's reads, counted: HEAD sends none of it, so it reads none of it.
    const probe = await open(__filename)
    const read = jest.spyOn(Object.getPrototypeOf(probe) as FileHandle, 'read')
    await probe.close()
    const get = await exchange('GET', `${P}/export/download`, { 'private-token': ALICE })
    expect(read.mock.calls.length).toBeGreaterThan(0)
    read.mockClear()
    clock.t += 60_000
    const head = await exchange('HEAD', `${P}/export/download`, { 'private-token': ALICE })
    expect(read).not.toHaveBeenCalled()
    read.mockRestore()
    expect(head.head).toBe(get.head)
    expect(head.body.length).toBe(0)
    expect(get.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(get.head).toContain(`\r\ncontent-length: ${get.body.length}`)
  })

  it('has no route where GET has none: HEAD of a POST-only path is the same 404 as GET', async () => {
    const get = await expectHeadAsGet('/-/emulator/reset', { 'private-token': 'glpat-root-token' })
    expect(get.head).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/)
  })

  it('answers a streamed metric image file (no length given) with its headers', async () => {
    const form = new FormData()
    form.append('file', new Blob([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')]), 'cpu.png')
    const res = await request(`${t.baseUrl}${DETAIL}/issues/3/metric_images`, {
      method: 'POST',
      body: form,
      headers: { 'private-token': T.reporter },
    })
    expect(res.statusCode).toBe(201)
    const { file_path: file } = (await res.body.json()) as { file_path: string }
    const get = await expectHeadAsGet(file, { 'private-token': T.guest })
    expect(get.head).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: image\/png\r\n/)
  })
})
