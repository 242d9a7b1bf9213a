import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { dripServer } from '../support/drip-server.js'
import { killed, startServe } from '../support/serve-child.js'
import { rootAndAcme } from '../support/seeds.js'

/*
 * SIGTERM while a remote import downloads from a host that sends a byte every 2 s (the whole file
 * would take over half an hour): the server stops the download, records the import as failed and
 * exits, and after a restart the import reads failed with the reason.
 */
const ROOT = 'glpat-root-token'
const seed = rootAndAcme()
/** Liveness bound only: far less than the drip's half hour, far more than a prompt exit needs. */
const EXIT_BOUND_MS = 60_000

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await request(`${url}/api/v4${path}`, {
    method: method as 'GET',
    headers: { 'private-token': ROOT, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> }
}

describe('SIGTERM during a slow remote import', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gla-drip-'))
    writeFileSync(join(dir, 'seed.yaml'), seed)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('exits, and the import is failed with the reason after a restart', async () => {
    const drip = await dripServer()
    const data = join(dir, 'data')
    const seedFile = join(dir, 'seed.yaml')
    const first = await startServe(data, seedFile, ['--allow-local-requests'])
    try {
      const created = await api(first.url, 'POST', '/projects/remote-import', {
        url: `${drip.url}/x.tar.gz`,
        path: 'dripped',
        namespace: 'acme',
      })
      expect(created.status).toBe(201)
      while (drip.requests() === 0) await new Promise((r) => setTimeout(r, 50))

      const exit = new Promise<number | null>((resolve) => first.child.once('exit', (code) => resolve(code)))
      first.child.kill('SIGTERM')
      const bound = new Promise<'still running'>((resolve) =>
        setTimeout(() => resolve('still running'), EXIT_BOUND_MS).unref(),
      )
      expect(await Promise.race([exit, bound])).toBe(0)
    } finally {
      await killed(first.child)
      await drip.close()
    }

    const second = await startServe(data, seedFile)
    try {
      const status = await api(second.url, 'GET', '/projects/acme%2Fdripped/import')
      expect(status.body).toMatchObject({
        import_status: 'failed',
        import_error: 'The download was stopped: the server is shutting down',
      })
    } finally {
      await killed(second.child)
    }
  }, 120_000)
})
