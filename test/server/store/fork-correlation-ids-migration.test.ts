import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import forkCorrelationIds from '../../../src/server/store/migrations/035-fork-correlation-ids.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 35 adds a fork's import correlation id to `project_settings`: a fork made before it reads
 * `correlation_id` null (its request is gone), and a fork made after it its request's `X-Request-Id`.
 */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - { path: acme, visibility: public }
projects:
  - { path: acme/widgets, visibility: public, files: { README.md: hi } }
`
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-fork-correlation-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 35: a fork made before it has no correlation id, one made after it its request id', async () => {
  const fork = (t: Awaited<ReturnType<typeof startServer>>, path: string) =>
    t.http('POST', '/api/v4/projects/acme%2Fwidgets/fork', { token: ROOT, json: { path, name: path } })
  const first = await startServer(seed, { data: dir })
  expect((await fork(first, 'before')).status).toBe(201)
  await first.close()
  // The store as migration 34 left it: no column, the version before 35.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`
    ALTER TABLE project_settings DROP COLUMN import_correlation_id;
    PRAGMA user_version = ${migrations.indexOf(forkCorrelationIds)};`)
  db.close()

  const again = await startServer(seed, { data: dir })
  try {
    const imported = async (path: string) =>
      (await again.http('GET', `/api/v4/projects/${encodeURIComponent(path)}/import`, { token: ROOT }))
        .body as Record<string, unknown>
    expect(await imported('root/before')).toMatchObject({ import_status: 'finished', correlation_id: null })
    const made = await fork(again, 'after')
    expect(made.status).toBe(201)
    expect((await imported('root/after')).correlation_id).toBe(made.headers['x-request-id'])
  } finally {
    await again.close()
  }
})
