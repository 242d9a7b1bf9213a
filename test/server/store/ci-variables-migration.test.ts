import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import ciVariables from '../../../src/server/store/migrations/032-ci-variables.js'
import ciInstanceVariables from '../../../src/server/store/migrations/034-ci-instance-variables.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 32 adds `ci_variables`, migration 34 `ci_instance_variables` and the jobs' sealed
 * `runner_variables`: a store made before them opens, gains them, and keeps the variables written
 * through the API across a restart.
 */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - { path: acme, visibility: public }
projects:
  - { path: acme/widgets, visibility: public }
`
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-ci-variables-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 32 gives a store made before it the variables table, kept across a restart', async () => {
  await (await startServer(seed, { data: dir })).close()
  // The store as migration 31 left it: no variables table, the version before 32.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`DROP TABLE ci_variables; PRAGMA user_version = ${migrations.indexOf(ciVariables)};`)
  db.close()

  const again = await startServer(seed, { data: dir })
  const path = '/api/v4/projects/acme%2Fwidgets/variables'
  try {
    const made = await again.http('POST', path, { token: ROOT, json: { key: 'KEPT', value: 'v' } })
    expect(made.status).toBe(201)
  } finally {
    await again.close()
  }
  const last = await startServer(seed, { data: dir })
  try {
    const list = (await last.http('GET', path, { token: ROOT })).body as { key: string }[]
    expect(list.map((v) => v.key)).toEqual(['KEPT'])
  } finally {
    await last.close()
  }
})

it("migration 34 gives a store made before it the instance variables and the jobs' picked variables", async () => {
  await (await startServer(seed, { data: dir })).close()
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`DROP TABLE ci_instance_variables; ALTER TABLE ci_job_states DROP COLUMN runner_variables;
    PRAGMA user_version = ${migrations.indexOf(ciInstanceVariables)};`)
  db.close()

  const again = await startServer(seed, { data: dir })
  const path = '/api/v4/admin/ci/variables'
  try {
    const made = await again.http('POST', path, { token: ROOT, json: { key: 'KEPT', value: 'v' } })
    expect(made.status).toBe(201)
  } finally {
    await again.close()
  }
  const last = await startServer(seed, { data: dir })
  try {
    const list = (await last.http('GET', path, { token: ROOT })).body as { key: string }[]
    expect(list.map((v) => v.key)).toEqual(['KEPT'])
    const file = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
    const columns = file
      .prepare("SELECT name FROM pragma_table_info('ci_job_states') WHERE name = 'runner_variables'")
      .all()
    file.close()
    expect(columns).toHaveLength(1)
  } finally {
    await last.close()
  }
})
