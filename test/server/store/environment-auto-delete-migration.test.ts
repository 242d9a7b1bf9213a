import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import environmentAutoDelete from '../../../src/server/store/migrations/050-environment-auto-delete.js'
import { manualClock, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * Migration 50 adds environments' `auto_delete_at`: a stopped review app made before it opens with no
 * deletion scheduled, so `DELETE .../review_apps` schedules it and the clock move past the week deletes
 * it; the migration applied again over itself keeps what was scheduled.
 */

const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token'
const ENVS = '/api/v4/projects/acme%2Fapp/environments'
const DAY_S = 86_400
type Json = Record<string, unknown>
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-environment-auto-delete-migration-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const setBack = (sql: string) => {
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`${sql} PRAGMA user_version = ${migrations.indexOf(environmentAutoDelete)};`)
  db.close()
}
const clock = manualClock()
const advance = async (t: TestServer, seconds: number) =>
  expect(
    (await t.http('POST', '/-/emulator/clock', { token: ROOT, json: { action: 'advance', seconds } })).status,
  ).toBe(200)
const schedule = (t: TestServer) =>
  t.http('DELETE', `${ENVS}/review_apps`, { token: MARK, json: { dry_run: false } })
const exists = async (t: TestServer, id: number) =>
  (await t.http('GET', `${ENVS}/${id}`, { token: MARK })).status

it('migration 50: a review app made before it is scheduled and deleted after it; applied again it keeps the schedule', async () => {
  const first = await startServer(pipelineSeed, { data: dir, clock })
  const made = await first.http('POST', ENVS, { token: MARK, json: { name: 'review/old' } })
  const id = (made.body as Json).id as number
  expect((await first.http('POST', `${ENVS}/${id}/stop`, { token: MARK })).status).toBe(200)
  await first.close()
  // The store as migration 49 left it: no column, no index.
  setBack(`
    DROP INDEX environments_auto_delete;
    ALTER TABLE environments DROP COLUMN auto_delete_at;`)

  clock.advance(31 * DAY_S * 1000)
  const again = await startServer(pipelineSeed, { data: dir, clock })
  try {
    const res = await schedule(again)
    expect(res.status).toBe(200)
    expect(((res.body as Json).scheduled_entries as Json[]).map((e) => e.id)).toEqual([id])
  } finally {
    await again.close()
  }
  // Applied again over itself (its version set back), the migration finds its column and keeps the time.
  setBack('')
  const third = await startServer(pipelineSeed, { data: dir, clock })
  try {
    expect((await schedule(third)).status).toBe(400)
    await advance(third, 7 * DAY_S + 1)
    expect(await exists(third, id)).toBe(404)
  } finally {
    await third.close()
  }
})
