import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import events from '../../../src/server/store/migrations/041-events.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 41 adds `events` and `push_event_payloads`: a store made before it opens with both, its
 * projects and issues as they were, no events for what happened before it (GitLab records none
 * afterwards either), and the writes after it recorded.
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
  dir = mkdtempSync(join(tmpdir(), 'gla-events-migration-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 41: a store made before it gets the tables; writes after it are recorded', async () => {
  const P = '/api/v4/projects/acme%2Fwidgets'
  const first = await startServer(seed, { data: dir })
  expect((await first.http('POST', `${P}/issues`, { token: ROOT, json: { title: 'Before' } })).status).toBe(
    201,
  )
  await first.close()
  // The store as the migration before left it: no tables, the version before 38.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`
    DROP TABLE push_event_payloads;
    DROP TABLE events;
    PRAGMA user_version = ${migrations.indexOf(events)};`)
  db.close()

  const again = await startServer(seed, { data: dir })
  try {
    expect((await again.http('GET', `${P}/events`, { token: ROOT })).body).toEqual([])
    expect((await again.http('POST', `${P}/issues`, { token: ROOT, json: { title: 'After' } })).status).toBe(
      201,
    )
    const list = await again.http('GET', `${P}/events`, { token: ROOT })
    expect((list.body as { target_title: string }[]).map((e) => e.target_title)).toEqual(['After'])
  } finally {
    await again.close()
  }
})
