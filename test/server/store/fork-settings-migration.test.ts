import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import forkSettings from '../../../src/server/store/migrations/031-fork-settings.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 31 moves a fork's `import_status` into `project_settings`: a store made before it keeps
 * its forks reading `finished` (the root of their network and projects outside one `none`), and
 * `mr_default_target_self` starts false.
 */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - { path: acme, visibility: public }
projects:
  - { path: acme/widgets, visibility: public, files: { README.md: hi } }
  - { path: acme/other, visibility: public }
`
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-fork-settings-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 31 marks the forks of a store made before it finished, and only them', async () => {
  const first = await startServer(seed, { data: dir })
  const made = await first.http('POST', '/api/v4/projects/acme%2Fwidgets/fork', {
    token: ROOT,
    json: { path: 'fork', name: 'Fork' },
  })
  expect(made.status).toBe(201)
  await first.close()
  // The store as migration 30 left it: no fork settings, the version before 31.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`
    ALTER TABLE project_settings DROP COLUMN import_status;
    ALTER TABLE project_settings DROP COLUMN mr_default_target_self;
    PRAGMA user_version = ${migrations.indexOf(forkSettings)};`)
  db.close()

  const again = await startServer(seed, { data: dir })
  try {
    const read = async (path: string) =>
      (await again.http('GET', `/api/v4/projects/${encodeURIComponent(path)}`, { token: ROOT }))
        .body as Record<string, unknown>
    expect(await read('root/fork')).toMatchObject({
      import_status: 'finished',
      mr_default_target_self: false,
    })
    expect((await read('acme/widgets')).import_status).toBe('none')
    expect((await read('acme/other')).import_status).toBe('none')
  } finally {
    await again.close()
  }
})
