import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import environments from '../../../src/server/store/migrations/042-environments.js'
import { commitFiles } from '../../support/ci-files.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 42 adds `environments`, `deployments`, `job_environments` and the triggers that move them
 * with their jobs: a store made before it opens with its pipelines as they were and no environments
 * (GitLab makes none for jobs already made), and a pipeline made after it deploys.
 */

const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-environments-migration-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 42: a store made before it gets the tables; a pipeline after it deploys', async () => {
  const clock = manualClock()
  const first = await startServer(pipelineSeed, { data: dir, clock })
  await commitFiles(first, 'acme/app', 'ci', {
    '.gitlab-ci.yml': 'deploy: { environment: production, script: [echo] }',
  })
  const trigger = () =>
    first.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect((await trigger()).status).toBe(201)
  await first.close()
  // The store as the migration before left it: no tables, no triggers, the version before 42.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`
    DROP TRIGGER deployments_follow_job;
    DROP TRIGGER environments_follow_job;
    DROP TABLE job_environments;
    DROP TABLE deployments;
    DROP TABLE environments;
    PRAGMA user_version = ${migrations.indexOf(environments)};`)
  db.close()

  const again = await startServer(pipelineSeed, { data: dir, clock })
  try {
    expect((await again.http('GET', `${APP}/environments`, { token: MARK })).body).toEqual([])
    expect((await again.http('GET', `${APP}/pipelines`, { token: MARK })).body).toHaveLength(1)
    const res = await again.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    expect(res.status).toBe(201)
    await runOut(again, clock, { steps: 30 })
    const deployments = (await again.http('GET', `${APP}/deployments`, { token: MARK })).body as {
      status: string
      environment: { name: string }
    }[]
    expect(deployments.map((d) => [d.environment.name, d.status])).toEqual([['production', 'success']])
  } finally {
    await again.close()
  }
})
