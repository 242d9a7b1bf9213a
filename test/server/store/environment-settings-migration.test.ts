import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import environmentStops from '../../../src/server/store/migrations/044-environment-stops.js'
import environmentSettings from '../../../src/server/store/migrations/045-environment-settings.js'
import { manualClock, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * Migration 45 adds `description` and `auto_stop_setting` to environments and makes the renewal trigger
 * again: an environment made before it opens with no description and `always`, takes both after it, and
 * the migration applied again over itself changes nothing.
 */

const MARK = 'glpat-mark-token'
const ENVS = '/api/v4/projects/acme%2Fapp/environments'
type Json = Record<string, unknown>
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-environment-settings-migration-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const setBack = (sql: string) => {
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`${sql} PRAGMA user_version = ${migrations.indexOf(environmentSettings)};`)
  db.close()
}
const clock = manualClock()
const staging = async (t: TestServer) =>
  ((await t.http('GET', `${ENVS}?name=staging`, { token: MARK })).body as Json[])[0]!

it('migration 45: an environment made before it has no description and `always`; both set after it', async () => {
  const first = await startServer(pipelineSeed, { data: dir, clock })
  expect((await first.http('POST', ENVS, { token: MARK, json: { name: 'staging' } })).status).toBe(201)
  await first.close()
  // The store as migration 44 left it: no columns, its renewal trigger.
  const renewal = environmentStops.sql.slice(
    environmentStops.sql.indexOf('CREATE TRIGGER IF NOT EXISTS environments_auto_stop_renewed'),
  )
  setBack(`
    DROP TRIGGER environments_auto_stop_renewed;
    ALTER TABLE environments DROP COLUMN description;
    ALTER TABLE environments DROP COLUMN auto_stop_setting;
    ${renewal}`)

  const again = await startServer(pipelineSeed, { data: dir, clock })
  try {
    const before = await staging(again)
    expect(before).toMatchObject({ description: null, auto_stop_setting: 'always' })
    const edited = await again.http('PUT', `${ENVS}/${before.id as number}`, {
      token: MARK,
      json: { description: 'kept', auto_stop_setting: 'with_action' },
    })
    expect(edited.status).toBe(200)
  } finally {
    await again.close()
  }
  // Applied again over itself (its version set back), the migration finds its column and changes nothing.
  setBack('')
  const third = await startServer(pipelineSeed, { data: dir, clock })
  try {
    expect(await staging(third)).toMatchObject({ description: 'kept', auto_stop_setting: 'with_action' })
  } finally {
    await third.close()
  }
})
