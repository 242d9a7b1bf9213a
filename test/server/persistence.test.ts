import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { startServer } from '../support/server.js'
import { FormData, request } from 'undici'
import { widgetsSeed } from '../support/seeds.js'
import { detailSeed, T } from './routes/issue-details-seed.js'

const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fwidgets/issues'

describe('--data DIR', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gla-data-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps writes across a restart and does not apply the seed twice', async () => {
    const first = await startServer(widgetsSeed, { data: dir })
    const created = await first.http('POST', P, { token: ROOT, json: { title: 'Survives restarts' } })
    expect(created.status).toBe(201)
    await first.http('PUT', `${P}/1`, { token: ROOT, json: { state_event: 'close' } })
    await first.close()

    const second = await startServer(widgetsSeed, { data: dir })
    try {
      const list = await second.http('GET', P, { token: ROOT })
      expect((list.body as { iid: number }[]).map((i) => i.iid)).toEqual([6, 5, 4, 3, 2, 1])
      expect((await second.http('GET', `${P}/1`, { token: ROOT })).body).toMatchObject({ state: 'closed' })
    } finally {
      await second.close()
    }
  })
})

describe('POST /-/emulator/reset', () => {
  it('is for administrators and brings back the seed', async () => {
    const t = await startServer(widgetsSeed)
    try {
      await t.http('POST', P, { token: ROOT, json: { title: 'temporary' } })
      const trigger = await t.http('POST', '/api/v4/projects/acme%2Fwidgets/triggers', {
        token: ROOT,
        json: { description: 'temp' },
      })
      expect(trigger.status).toBe(201)
      const denied = await t.http('POST', '/-/emulator/reset', { token: 'glpat-alice-token' })
      expect(denied.status).toBe(403)
      expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
      const list = await t.http('GET', P, { token: ROOT })
      expect((list.body as { iid: number }[]).map((i) => i.iid)).toEqual([5, 4, 3, 2, 1])
      // Every area's tables are emptied, not only the foundation's.
      expect((await t.http('GET', '/api/v4/projects/acme%2Fwidgets/triggers', { token: ROOT })).body).toEqual(
        [],
      )
    } finally {
      await t.close()
    }
  })

  /** A persistent server with a metric image uploaded and a finished export: files outside the store. */
  async function withFiles(dir: string) {
    const t = await startServer(detailSeed, { data: dir })
    const form = new FormData()
    form.append('file', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')]), 'graph.png')
    const uploaded = await request(`${t.baseUrl}${project}/issues/3/metric_images`, {
      method: 'POST',
      body: form,
      headers: { 'private-token': T.root },
    })
    expect(uploaded.statusCode).toBe(201)
    await uploaded.body.dump()
    expect((await t.http('POST', `${project}/export`, { token: T.root })).status).toBe(202)
    let status = ''
    for (let i = 0; i < 500 && status !== 'finished'; i++)
      status = (
        (await t.http('GET', `${project}/export`, { token: T.root })).body as { export_status: string }
      ).export_status
    expect(status).toBe('finished')
    return t
  }
  const project = '/api/v4/projects/acme%2Fwidgets'
  const images = (dir: string) => readdirSync(join(dir, 'uploads', 'metric_images'), { recursive: true })
  const archives = (dir: string) =>
    readdirSync(join(dir, 'transfers'), { recursive: true }).filter((f) => String(f).endsWith('.tar.gz'))

  it('removes the files the store pointed at: metric images and export archives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-reset-'))
    const t = await withFiles(dir)
    try {
      expect(images(dir).length).toBeGreaterThan(0)
      expect(archives(dir)).toHaveLength(1)

      expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(200)
      expect(images(dir)).toEqual([])
      expect(archives(dir)).toEqual([])
      expect((await t.http('GET', `${project}/export`, { token: T.root })).body).toMatchObject({
        export_status: 'none',
      })
      expect((await t.http('GET', `${project}/issues/3/metric_images`, { token: T.root })).body).toEqual([])
    } finally {
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('removes no file when the reset fails and its transaction rolls back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-reset-'))
    const t = await withFiles(dir)
    // A second connection makes emptying the store fail, as a broken store would.
    const other = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
    try {
      other.exec("CREATE TRIGGER keep_issues BEFORE DELETE ON issues BEGIN SELECT RAISE(ABORT, 'kept'); END")
      const before = { images: images(dir), archives: archives(dir) }
      expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(500)
      expect({ images: images(dir), archives: archives(dir) }).toEqual(before)
      const download = await t.http('GET', `${project}/export/download`, { token: T.root })
      expect(download.status).toBe(200)
      expect((await t.http('GET', `${project}/issues/3/metric_images`, { token: T.root })).body).toHaveLength(
        1,
      )
    } finally {
      other.close()
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
