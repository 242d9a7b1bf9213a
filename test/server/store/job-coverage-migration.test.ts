import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import jobCoverage from '../../../src/server/store/migrations/039-job-coverage.js'
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed } from '../../support/pipeline-seed.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 39 adds `ci_builds.coverage`: a job finished before it reads `coverage` null, and a job
 * of the same store finished after it the coverage its trace reports.
 */
const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
const CONFIG = `unit:\n  coverage: '/Lines: \\d+/'\n  script: ['echo "Lines: 64"']\n`
type Json = Record<string, unknown>

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-job-coverage-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it("migration 39: a job finished before it has no coverage, one finished after it its trace's", async () => {
  const clock = manualClock()
  const run = async (t: Awaited<ReturnType<typeof startServer>>) => {
    const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    expect(res.status).toBe(201)
    const pipeline = (res.body as Json).id as number
    for (let i = 0; i < 60; i++) {
      clock.advance(1000)
      const p = await t.http('GET', `${APP}/pipelines/${pipeline}`, { token: MARK })
      if ((p.body as Json).status === 'success') break
    }
    const jobs = await t.http('GET', `${APP}/pipelines/${pipeline}/jobs`, { token: MARK })
    return (jobs.body as Json[])[0] as Json
  }
  const first = await startServer(pipelineSeed, { data: dir, clock })
  await commitFiles(first, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
  const before = await run(first)
  await first.close()
  // The store as the migration before it left it: no column, the version before 39.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`
    ALTER TABLE ci_builds DROP COLUMN coverage;
    PRAGMA user_version = ${migrations.indexOf(jobCoverage)};`)
  db.close()

  const again = await startServer(pipelineSeed, { data: dir, clock })
  try {
    const job = await again.http('GET', `${APP}/jobs/${before.id as number}`, { token: MARK })
    expect(job.body).toMatchObject({ status: 'success', coverage: null })
    expect(await run(again)).toMatchObject({ status: 'success', coverage: 64 })
  } finally {
    await again.close()
  }
})
