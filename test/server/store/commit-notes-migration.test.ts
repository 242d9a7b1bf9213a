import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import commitNotes from '../../../src/server/store/migrations/037-commit-notes.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 37 adds `commit_notes`: a store made before it (no table, the version before it) opens,
 * its commits take comments, and they are there after the next start.
 */

const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fwidgets'
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
  dir = mkdtempSync(join(tmpdir(), 'gla-commit-notes-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 37: a store made before it takes commit comments and keeps them', async () => {
  const first = await startServer(seed, { data: dir })
  await first.close()
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`DROP TABLE commit_notes; PRAGMA user_version = ${migrations.indexOf(commitNotes)};`)
  db.close()

  const again = await startServer(seed, { data: dir })
  try {
    const made = await again.http('POST', `${P}/repository/commits/main/comments`, {
      token: ROOT,
      json: { note: 'after the migration' },
    })
    expect(made.status).toBe(201)
  } finally {
    await again.close()
  }
  const third = await startServer(seed, { data: dir })
  try {
    const list = await third.http('GET', `${P}/repository/commits/main/comments`, { token: ROOT })
    expect((list.body as { note: string }[]).map((n) => n.note)).toEqual(['after the migration'])
  } finally {
    await third.close()
  }
})
