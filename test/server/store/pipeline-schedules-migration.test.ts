import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import pipelineSchedules from '../../../src/server/store/migrations/038-pipeline-schedules.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 38 adds the pipeline schedules, their variables and their pipelines' links: a store made
 * before it opens, gains them, and keeps a schedule written through the API across a restart.
 */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - { path: acme }
projects:
  - { path: acme/widgets, refs: [main] }
`
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-schedules-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 38 gives a store made before it the schedule tables, kept across a restart', async () => {
  await (await startServer(seed, { data: dir })).close()
  // The store as the migration before 38 left it: no schedule tables, the version before it.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`DROP TABLE ci_pipeline_schedule_pipelines; DROP TABLE ci_pipeline_schedule_variables;
    DROP TABLE ci_pipeline_schedules; PRAGMA user_version = ${migrations.indexOf(pipelineSchedules)};`)
  db.close()

  const path = '/api/v4/projects/acme%2Fwidgets/pipeline_schedules'
  const again = await startServer(seed, { data: dir })
  let id: number
  try {
    const made = await again.http('POST', path, {
      token: ROOT,
      json: { description: 'kept', ref: 'main', cron: '0 1 * * *' },
    })
    expect(made.status).toBe(201)
    id = (made.body as { id: number }).id
    const variable = await again.http('POST', `${path}/${id}/variables`, {
      token: ROOT,
      json: { key: 'KEPT', value: 'v' },
    })
    expect(variable.status).toBe(201)
  } finally {
    await again.close()
  }
  const last = await startServer(seed, { data: dir })
  try {
    const read = await last.http('GET', `${path}/${id}`, { token: ROOT })
    expect(read.body).toMatchObject({
      description: 'kept',
      ref: 'refs/heads/main',
      variables: [{ key: 'KEPT', value: 'v' }],
    })
  } finally {
    await last.close()
  }
})
