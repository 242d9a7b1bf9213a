import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import artifactLocks from '../../../src/server/store/migrations/046-artifact-locks.js'
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { startServer, type TestServer } from '../../support/server.js'

/*
 * Migration 46 (artifact locks, `keep_latest_artifact`, a gone archive's `expire_at`) on a store made
 * before it: each ref's latest successful pipeline comes out locked, so a clock move past the expiry
 * destroys the older pipeline's archive and keeps the latest's; applied again, it changes nothing.
 */
const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
const CONFIG = 'build:\n  script: [echo hi > out.txt]\n  artifacts: { paths: [out.txt], expire_in: 1 hour }\n'
type Json = Record<string, unknown>

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-artifact-locks-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const setVersionBack = (undo: string) => {
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`${undo} PRAGMA user_version = ${migrations.indexOf(artifactLocks)};`)
  db.close()
}
const archive = async (t: TestServer, id: number) =>
  (await t.http('GET', `${APP}/jobs/${id}/artifacts`, { token: MARK })).status

it('migration 46: the latest successful pipeline of a ref comes out locked; applied twice it changes nothing', async () => {
  const clock = manualClock()
  const run = async (t: TestServer) => {
    const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    const pipeline = (res.body as Json).id as number
    await runOut(t, clock, { steps: 20 })
    const jobs = (await t.http('GET', `${APP}/pipelines/${pipeline}/jobs`, { token: MARK })).body as Json[]
    expect(jobs[0]).toMatchObject({ status: 'success', artifacts_file: { filename: 'artifacts.zip' } })
    return jobs[0]!.id as number
  }
  const first = await startServer(pipelineSeed, { data: dir, clock })
  await commitFiles(first, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
  const older = await run(first)
  const latest = await run(first)
  await first.close()
  // The store as the migration before it left it.
  setVersionBack(`
    DROP TRIGGER pipelines_unlock_older;
    DROP TABLE ci_pipeline_artifact_locks;
    DROP TABLE project_ci_cd_settings;
    DROP INDEX ci_job_artifacts_expire_at;
    ALTER TABLE ci_job_states DROP COLUMN artifacts_expire_at;`)

  const again = await startServer(pipelineSeed, { data: dir, clock })
  try {
    expect(((await again.http('GET', APP, { token: MARK })).body as Json).keep_latest_artifact).toBe(true)
    const moved = await again.http('POST', '/-/emulator/clock', {
      token: ROOT,
      json: { action: 'advance', seconds: 7200 },
    })
    expect(moved.status).toBe(200)
    expect([await archive(again, older), await archive(again, latest)]).toEqual([404, 200])
    const gone = (await again.http('GET', `${APP}/jobs/${older}`, { token: MARK })).body as Json
    expect(gone.artifacts_expire_at).not.toBeNull()
  } finally {
    await again.close()
  }

  // Set back again with everything in place: `done` finds the column, the SQL is not run twice.
  setVersionBack('')
  const third = await startServer(pipelineSeed, { data: dir, clock })
  try {
    expect([await archive(third, older), await archive(third, latest)]).toEqual([404, 200])
  } finally {
    await third.close()
  }
})
