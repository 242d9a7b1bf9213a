import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FormData, request } from 'undici'
import { startServer, type TestServer } from '../../support/server.js'
import { detailSeed, P, PUBLIC, T } from './issue-details-seed.js'

let t: TestServer
beforeEach(async () => {
  t = await startServer(detailSeed)
})
afterEach(() => t.close())

type Json = Record<string, unknown>
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')

/** A multipart upload as GitLab clients send it. */
async function upload(
  iid: number,
  token: string | undefined,
  parts: Record<string, string | [Buffer, string]>,
  base = P,
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(parts))
    if (typeof value === 'string') form.append(name, value)
    else form.append(name, new Blob([value[0]]), value[1])
  const res = await request(`${t.baseUrl}${base}/issues/${iid}/metric_images`, {
    method: 'POST',
    body: form,
    headers: token ? { 'private-token': token } : {},
  })
  const text = await res.body.text()
  return { status: res.statusCode, body: text ? (JSON.parse(text) as Json) : undefined }
}
const list = async (iid = 3, base = P) =>
  (await t.http('GET', `${base}/issues/${iid}/metric_images`, { token: T.root })).body as Json[]

describe('metric images', () => {
  it('uploads (201) to an incident; the file downloads from file_path; lists oldest first', async () => {
    const res = await upload(3, T.reporter, {
      url: 'https://grafana.example.com/d/1',
      url_text: 'CPU',
      file: [PNG, 'cpu graph.png'],
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      filename: 'cpu_graph.png',
      url: 'https://grafana.example.com/d/1',
      url_text: 'CPU',
      file_path: `/uploads/-/system/issuable_metric_image/file/${(res.body as Json).id}/cpu_graph.png`,
    })
    await upload(3, T.reporter, { file: [PNG, 'second.jpg'] })
    const images = await list()
    expect(images.map((i) => [i.filename, i.url])).toEqual([
      ['cpu_graph.png', 'https://grafana.example.com/d/1'],
      ['second.jpg', null],
    ])
    const file = await request(`${t.baseUrl}${(res.body as Json).file_path}`, {
      headers: { 'private-token': T.guest },
    })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('image/png')
    expect(Buffer.from(await file.body.arrayBuffer())).toEqual(PNG)
    const hidden = await request(`${t.baseUrl}${(res.body as Json).file_path}`, {
      headers: { 'private-token': T.outsider },
    })
    expect(hidden.statusCode).toBe(404)
    await hidden.body.dump()
  })

  it.each([
    ['a plain issue', 2, T.reporter, { file: [PNG, 'a.png'] }, 403, { message: 'Not allowed!' }],
    ['a guest', 3, T.guest, { file: [PNG, 'a.png'] }, 403, { message: 'Not allowed!' }],
    [
      'another file type',
      3,
      T.reporter,
      { file: [PNG, 'a.txt'] },
      403,
      {
        message:
          'Validation failed: File does not have a supported extension. Only png, jpg, jpeg, gif, bmp, tiff, ico, and webp are supported',
      },
    ],
    [
      'a local url',
      3,
      T.reporter,
      { file: [PNG, 'a.png'], url: 'http://127.0.0.1/x' },
      403,
      { message: 'Validation failed: Url is blocked: Requests to localhost are not allowed' },
    ],
    [
      'a long url_text',
      3,
      T.reporter,
      { file: [PNG, 'a.png'], url_text: 'x'.repeat(129) },
      403,
      { message: 'Validation failed: Url text is too long (maximum is 128 characters)' },
    ],
    ['no file', 3, T.reporter, { url: 'https://example.com' }, 400, { error: 'file is missing' }],
    ['a text file field', 3, T.reporter, { file: 'not a file' }, 400, { error: 'file is invalid' }],
    [
      'a file over 1 MB',
      3,
      T.reporter,
      { file: [Buffer.alloc(1024 * 1024 + 1), 'big.png'] },
      400,
      { message: '400 Bad request - File is too large' },
    ],
    ['a missing issue', 99, T.reporter, { file: [PNG, 'a.png'] }, 404, { message: '404 Not found' }],
    ['an anonymous caller', 3, undefined, { file: [PNG, 'a.png'] }, 401, { message: '401 Unauthorized' }],
  ] as const)('refuses %s and stores nothing', async (_what, iid, token, parts, status, body) => {
    const res = await upload(iid, token, parts as Record<string, string | [Buffer, string]>)
    expect([res.status, res.body]).toEqual([status, body])
    expect(await list()).toEqual([])
  })

  it.each([
    ['no boundary', 'multipart/form-data', ''],
    [
      'a cut-off body',
      'multipart/form-data; boundary=XX',
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    ],
  ])('answers a malformed multipart body (%s) with 400 and stores nothing', async (_what, type, body) => {
    const res = await request(`${t.baseUrl}${P}/issues/3/metric_images`, {
      method: 'POST',
      headers: { 'private-token': T.reporter, 'content-type': type },
      body,
    })
    expect([res.statusCode, JSON.parse(await res.body.text())]).toEqual([400, { message: '400 Bad request' }])
    expect(await list()).toEqual([])
  })

  it('updates url and url_text (200); 404 for an unknown image; 400 when invalid; 403 for guests', async () => {
    const id = (await upload(3, T.reporter, { file: [PNG, 'a.png'] })).body?.id as number
    const url = `${P}/issues/3/metric_images/${id}`
    const res = await t.http('PUT', url, {
      token: T.reporter,
      json: { url: 'https://example.com/g', url_text: 'G' },
    })
    expect([res.status, res.body]).toMatchObject([200, { id, url: 'https://example.com/g', url_text: 'G' }])
    const bad = await t.http('PUT', url, { token: T.reporter, json: { url: 'ftp://example.com' } })
    expect([bad.status, bad.body]).toEqual([400, { message: 'Metric image could not be updated' }])
    const guest = await t.http('PUT', url, { token: T.guest, json: { url_text: 'nope' } })
    expect(guest.status).toBe(403)
    const missing = await t.http('PUT', `${P}/issues/3/metric_images/999`, {
      token: T.reporter,
      json: { url_text: 'x' },
    })
    expect([missing.status, missing.body]).toEqual([404, { message: 'Metric image not found' }])
    const elsewhere = await t.http('PUT', `${P}/issues/1/metric_images/${id}`, {
      token: T.reporter,
      json: { url_text: 'x' },
    })
    expect(elsewhere.status).toBe(404)
    expect((await list())[0]).toMatchObject({ url: 'https://example.com/g', url_text: 'G' })
  })

  it('deletes (204), then 404; 400 when the file cannot be removed, and the image stays', async () => {
    // A server with a data folder, so that the test knows where the files are.
    await t.close()
    const data = mkdtempSync(join(tmpdir(), 'issue-images-test-'))
    t = await startServer(detailSeed, { data })
    const a = (await upload(3, T.reporter, { file: [PNG, 'a.png'] })).body?.id as number
    const b = (await upload(3, T.reporter, { file: [PNG, 'b.png'] })).body?.id as number
    const del = await t.http('DELETE', `${P}/issues/3/metric_images/${a}`, { token: T.reporter })
    expect([del.status, del.text]).toEqual([204, ''])
    expect((await t.http('DELETE', `${P}/issues/3/metric_images/${a}`, { token: T.reporter })).body).toEqual({
      message: 'Metric image not found',
    })
    expect((await t.http('DELETE', `${P}/issues/3/metric_images/${b}`, { token: T.guest })).status).toBe(403)
    // Make b's file undeletable: a non-empty folder where the file was.
    const dir = join(data, 'uploads', 'metric_images', String(b))
    rmSync(join(dir, 'b.png'))
    mkdirSync(join(dir, 'b.png'))
    writeFileSync(join(dir, 'b.png', 'keep'), 'x')
    const stuck = await t.http('DELETE', `${P}/issues/3/metric_images/${b}`, { token: T.reporter })
    expect([stuck.status, stuck.body]).toEqual([400, { message: 'Metric image could not be deleted' }])
    expect((await list()).map((i) => i.id)).toEqual([b])
    const bad = await t.http('DELETE', `${P}/issues/3/metric_images/x`, { token: T.reporter })
    expect(bad.body).toEqual({ error: 'metric_image_id is invalid' })
    await t.close()
    rmSync(data, { recursive: true, force: true })
  })

  it("an archived project refuses new images and others' edits; the incident's author still edits", async () => {
    // EE `IssuablePolicy`: upload needs `create_issue & update_issue` (taken away by the archived rule),
    // update and delete that or `is_author`. Mark wrote incident 3; Rita is a Reporter.
    const id = (await upload(3, T.reporter, { file: [PNG, 'a.png'] })).body?.id as number
    const url = `${P}/issues/3/metric_images/${id}`
    const archive = (action: string) => t.http('POST', `${P}/${action}`, { token: T.owner })
    expect((await archive('archive')).status).toBe(201)
    expect(await upload(3, T.reporter, { file: [PNG, 'b.png'] })).toEqual({
      status: 403,
      body: { message: 'Not allowed!' },
    })
    const edit = await t.http('PUT', url, { token: T.reporter, json: { url_text: 'R' } })
    expect([edit.status, edit.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await t.http('DELETE', url, { token: T.reporter })).status).toBe(403)
    expect((await list()).map((i) => [i.id, i.url_text])).toEqual([[id, null]])
    expect((await t.http('PUT', url, { token: T.maintainer, json: { url_text: 'M' } })).status).toBe(200)
    expect((await archive('unarchive')).status).toBe(201)
    expect((await t.http('PUT', url, { token: T.reporter, json: { url_text: 'R' } })).status).toBe(200)
  })

  it('reads are open to anyone who sees the issue; CE has no such routes', async () => {
    expect((await t.http('GET', `${PUBLIC}/issues/1/metric_images`)).body).toEqual([])
    expect((await t.http('GET', `${P}/issues/3/metric_images`, { token: T.outsider })).status).toBe(404)
    const ce = await startServer(detailSeed, { edition: 'ce' })
    try {
      const res = await ce.http('GET', `${P}/issues/3/metric_images`, { token: T.root })
      expect([res.status, res.body]).toEqual([404, { error: '404 Not Found' }])
    } finally {
      await ce.close()
    }
  })
})
