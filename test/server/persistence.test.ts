import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../support/server.js'
import { widgetsSeed } from '../support/seeds.js'

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
})
