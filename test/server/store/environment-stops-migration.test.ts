import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import environments from '../../../src/server/store/migrations/042-environments.js'
import environmentStops from '../../../src/server/store/migrations/044-environment-stops.js'
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * Migration 44 adds `auto_stop_at` to environments, `on_stop` to deployments,
 * `auto_stop_in` to job_environments, and makes the job trigger again: a store made before it opens with
 * its environments without an auto-stop time, stopped at once (its deployments name no stop action), and
 * a pipeline made after it sets the time and stops through its `on_stop` job; applied again over itself,
 * it changes nothing.
 */

const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
const CONFIG = `
deploy:
  environment: { name: review, on_stop: close, auto_stop_in: 1 hour }
  script: [echo]
close:
  environment: { name: review, action: stop }
  when: manual
  script: [echo]
`
type Json = Record<string, unknown>
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-environment-stops-migration-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const setBack = (sql: string) => {
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`${sql} PRAGMA user_version = ${migrations.indexOf(environmentStops)};`)
  db.close()
}
const clock = manualClock()
const runPipeline = async (t: TestServer) => {
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  await runOut(t, clock, { steps: 20 })
}
const review = async (t: TestServer) =>
  ((await t.http('GET', `${APP}/environments?name=review`, { token: MARK })).body as Json[])[0]!

it('migration 44: environments made before it have no auto-stop; a pipeline after it sets one and stops on_stop', async () => {
  const first = await startServer(pipelineSeed, { data: dir, clock })
  await commitFiles(first, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
  await runPipeline(first)
  await first.close()
  // The store as migration 43 left it: the columns gone, the job trigger of migration 42.
  setBack(`
    DROP INDEX environments_auto_stop;
    DROP TRIGGER environments_follow_job;
    DROP TRIGGER environments_auto_stop_renewed;
    ALTER TABLE environments DROP COLUMN auto_stop_at;
    ALTER TABLE deployments DROP COLUMN on_stop;
    ALTER TABLE job_environments DROP COLUMN auto_stop_in;
    ${environments}`)

  const again = await startServer(pipelineSeed, { data: dir, clock })
  try {
    const before = await review(again)
    expect([before.state, before.auto_stop_at]).toEqual(['available', null])
    // Its deployment, made before, names no stop action: stopped at once.
    const url = `${APP}/environments/${before.id as number}`
    expect(((await again.http('POST', `${url}/stop`, { token: MARK })).body as Json).state).toBe('stopped')

    await runPipeline(again)
    const after = await review(again)
    expect(after.state).toBe('available')
    expect(after.auto_stop_at).not.toBeNull()
    expect(((await again.http('POST', `${url}/stop`, { token: MARK })).body as Json).state).toBe('stopping')
  } finally {
    await again.close()
  }
  // Applied again over itself (its version set back), the migration finds its column and changes nothing.
  setBack('')
  const third = await startServer(pipelineSeed, { data: dir, clock })
  try {
    expect((await review(third)).state).toBe('stopping')
  } finally {
    await third.close()
  }
})
