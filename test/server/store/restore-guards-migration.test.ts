import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { applyMigration } from '../../../src/server/store/migration.js'
import { migrations } from '../../../src/server/store/migrations.js'
import restoreGuards from '../../../src/server/store/migrations/048-restore-guards.js'
import { NOT_RESTORING } from '../../../src/server/store/restoring.js'
import { Connection } from '../../../src/server/store/sqlite.js'
import { inspectDb } from '../../../src/server/store/inspect.js'
import { manualClock, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 48 makes every trigger again with one more `WHEN` condition, false while a restore puts
 * rows back (src/server/store/restoring.ts): a store made before it opens with the same triggers
 * otherwise, whose restores then record no deployment move; applied again over itself it changes
 * nothing.
 */

const MARK = 'glpat-mark-token'
const ROOT = 'glpat-root-token'
const APP = '/api/v4/projects/acme%2Fapp'
const version = migrations.indexOf(restoreGuards)
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-restore-guards-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const TRIGGERS = "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
type Trigger = { name: string; sql: string }
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ')

/** The triggers of a store as the migrations before 48 left it. */
function triggersBefore(): Trigger[] {
  const db = new Connection(':memory:')
  try {
    migrations.slice(0, version).forEach((migration, i) => applyMigration(db, migration, i + 1))
    return db.prepare(TRIGGERS).all() as Trigger[]
  } finally {
    db.close()
  }
}
/** The data directory's store, its triggers replaced by `triggers` and its version set to `to`. */
function setBack(triggers: Trigger[], to: number) {
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  for (const { name } of db.prepare(TRIGGERS).all() as Trigger[]) db.exec(`DROP TRIGGER ${name}`)
  for (const { sql } of triggers) db.exec(sql)
  db.exec(`PRAGMA user_version = ${to}`)
  db.close()
}

it('migration 48 guards every trigger of a store made before it, and changes nothing applied again', async () => {
  const before = triggersBefore()
  expect(before.map((t) => t.name)).toEqual([
    'deployment_transitions_on_insert',
    'deployment_transitions_on_update',
    'deployments_follow_job',
    'environments_auto_stop_renewed',
    'environments_follow_job',
    'pipelines_unlock_older',
  ])
  const options = { data: dir, clock: manualClock() }
  await (await startServer(pipelineSeed, options)).close()
  setBack(before, version)

  const again = await startServer(pipelineSeed, options)
  let after: Trigger[]
  try {
    after = inspectDb(again.server.store).prepare(TRIGGERS).all() as Trigger[]
    // The same triggers, each with the guard at the end of its WHEN and nothing else changed.
    expect(after.map((t) => t.name)).toEqual(before.map((t) => t.name))
    after.forEach((trigger, i) => {
      expect(trigger.sql).toMatch(new RegExp(`AND ${escape(NOT_RESTORING)}\\s+BEGIN`))
      expect(oneLine(trigger.sql.replace(` AND ${NOT_RESTORING}`, ''))).toBe(oneLine(before[i]!.sql))
    })
    // A restore of a deployment moved while a hook takes deployment events records no move.
    const hook = await again.http('POST', `${APP}/hooks`, {
      token: MARK,
      json: { url: 'https://hooks.example.com/d', deployment_events: true },
    })
    expect(hook.status).toBe(201)
    const develop = (await again.http('GET', `${APP}/repository/branches/develop`, { token: MARK })).body as {
      commit: { id: string }
    }
    const made = await again.http('POST', `${APP}/deployments`, {
      token: MARK,
      json: { environment: 'canary', sha: develop.commit.id, ref: 'develop', tag: false, status: 'success' },
    })
    expect(made.status).toBe(201)
    expect((await again.http('POST', '/-/emulator/snapshots/s', { token: ROOT })).status).toBe(201)
    expect((await again.http('POST', '/-/emulator/snapshots/s/restore', { token: ROOT })).status).toBe(200)
    expect(inspectDb(again.server.store).prepare('SELECT * FROM deployment_transitions').all()).toEqual([])
  } finally {
    await again.close()
  }

  // Applied again over itself (its version set back): the same triggers.
  setBack(after, version)
  const third = await startServer(pipelineSeed, options)
  try {
    expect(inspectDb(third.server.store).prepare(TRIGGERS).all()).toEqual(after)
  } finally {
    await third.close()
  }
})

/** `text` as a regular expression that matches it literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
