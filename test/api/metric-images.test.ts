import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { Agent, request } from 'undici'
import { createClient, type GitLabClient } from '../../src/api/client.js'
import { apiRoot, type ApiRequest } from '../../src/api/transport.js'
import { undiciSend } from '../../src/api/undici-send.js'
import { detailSeed, T } from '../server/routes/issue-details-seed.js'
import { startServer, type TestServer } from '../support/server.js'
import { apiFailure } from '../support/client-pool.js'

const W = 'acme/widgets'
const INCIDENT = 3 // the seed's incident in acme/widgets
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
let t: TestServer
let dir: string
let png: string
const clients: GitLabClient[] = []
const agents: Agent[] = []
/** Every request the client sent, as the transport saw it. */
let sent: ApiRequest[]
/** A client that records what it sends and checks every body against src/schema (`validate`). */
const as = (token?: string) => {
  const agent = new Agent()
  agents.push(agent)
  const net = undiciSend(apiRoot(t.baseUrl), agent)
  const c = createClient({
    baseUrl: t.baseUrl,
    token,
    validate: true,
    send: (req) => (sent.push(req), net(req)),
  })
  clients.push(c)
  return c
}
beforeEach(async () => {
  t = await startServer(detailSeed)
  dir = await mkdtemp(join(tmpdir(), 'metric-images-test-'))
  png = join(dir, 'cpu graph.png')
  await writeFile(png, PNG)
  sent = []
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(agents.splice(0).map((a) => a.close()))
  await t.close()
  await rm(dir, { recursive: true, force: true })
})
const stored = async () => as(T.root).metricImages.list(W, INCIDENT)

describe('metric images through the client', () => {
  it('uploads a file streamed from disk with its length; the file downloads from file_path', async () => {
    const rita = as(T.reporter)
    const image = await rita.metricImages.upload(W, INCIDENT, png, {
      url: 'https://grafana.example.com/d/1',
      url_text: 'CPU',
    })
    expect(image).toMatchObject({
      filename: 'cpu_graph.png',
      url: 'https://grafana.example.com/d/1',
      url_text: 'CPU',
      file_path: `/uploads/-/system/issuable_metric_image/file/${image.id}/cpu_graph.png`,
    })
    // sent as a stream (never a buffer of the whole file) with an exact Content-Length
    const post = sent.find((r) => r.method === 'POST')
    expect(post?.body).toBeInstanceOf(Readable)
    expect(post?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(Number(post?.headers['content-length'])).toBeGreaterThan(PNG.length)

    const file = await request(new URL(image.file_path, t.baseUrl), { headers: { 'private-token': T.guest } })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('image/png')
    expect(Buffer.from(await file.body.arrayBuffer())).toEqual(PNG)
  })

  it('sends another file name when asked, lists oldest first, updates and removes', async () => {
    const rita = as(T.reporter)
    const first = await rita.metricImages.upload(W, INCIDENT, png)
    const second = await rita.metricImages.upload(W, INCIDENT, png, {}, { filename: 'latency.webp' })
    expect(second).toMatchObject({ filename: 'latency.webp', url: null, url_text: null })
    expect((await rita.metricImages.list(W, INCIDENT)).map((i) => i.id)).toEqual([first.id, second.id])
    const updated = await rita.metricImages.update(W, INCIDENT, first.id, {
      url: 'https://grafana.example.com/d/2',
      url_text: 'Memory',
    })
    expect(updated).toMatchObject({
      id: first.id,
      url: 'https://grafana.example.com/d/2',
      url_text: 'Memory',
    })
    expect(await rita.metricImages.remove(W, INCIDENT, first.id)).toBeUndefined()
    expect((await stored()).map((i) => i.id)).toEqual([second.id])
  })

  it("surfaces GitLab's refusals as GitLabApiError, and stores nothing", async () => {
    const rita = as(T.reporter)
    const plain = await apiFailure(rita.metricImages.upload(W, 2, png))
    expect(plain).toMatchObject({ status: 403, method: 'POST', body: { message: 'Not allowed!' } })
    const guest = await apiFailure(as(T.guest).metricImages.upload(W, INCIDENT, png))
    expect(guest).toMatchObject({ status: 403, body: { message: 'Not allowed!' } })
    const text = join(dir, 'notes.txt')
    await writeFile(text, 'not an image')
    const type = await apiFailure(rita.metricImages.upload(W, INCIDENT, text))
    expect(type.status).toBe(403)
    expect(type.gitlabMessage).toMatch(/^Validation failed: File does not have a supported extension/)
    const big = join(dir, 'big.png')
    await writeFile(big, Buffer.alloc(1024 * 1024 + 1))
    const tooBig = await apiFailure(rita.metricImages.upload(W, INCIDENT, big))
    expect(tooBig).toMatchObject({ status: 400, body: { message: '400 Bad request - File is too large' } })
    const local = await apiFailure(rita.metricImages.upload(W, INCIDENT, png, { url: 'http://127.0.0.1/x' }))
    expect(local.gitlabMessage).toBe(
      'Validation failed: Url is blocked: Requests to localhost are not allowed',
    )
    const anon = await apiFailure(as().metricImages.upload(W, INCIDENT, png))
    expect(anon.status).toBe(401)
    expect(await stored()).toEqual([])
  })

  it('rejects before sending when the file is missing', async () => {
    const err = await as(T.reporter)
      .metricImages.upload(W, INCIDENT, join(dir, 'missing.png'))
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'ENOENT' })
    expect(sent).toEqual([])
  })

  it('404 for an unknown image, 400 for an invalid update, 403 for a guest; the image stays', async () => {
    const rita = as(T.reporter)
    const image = await rita.metricImages.upload(W, INCIDENT, png, { url: 'https://example.com/a' })
    const unknown = await apiFailure(rita.metricImages.remove(W, INCIDENT, image.id + 100))
    expect(unknown).toMatchObject({
      status: 404,
      method: 'DELETE',
      body: { message: 'Metric image not found' },
    })
    const bad = await apiFailure(
      rita.metricImages.update(W, INCIDENT, image.id, { url: 'ftp://example.com' }),
    )
    expect(bad).toMatchObject({ status: 400, body: { message: 'Metric image could not be updated' } })
    const guest = await apiFailure(as(T.guest).metricImages.remove(W, INCIDENT, image.id))
    expect(guest.status).toBe(403)
    expect(await stored()).toEqual([image])
  })

  it('is 404 on CE, where GitLab has no metric images', async () => {
    await t.close()
    t = await startServer(detailSeed, { edition: 'ce' })
    const err = await apiFailure(as(T.reporter).metricImages.upload(W, INCIDENT, png))
    expect(err.status).toBe(404)
  })
})
