import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import pipelineScheduleInputs from '../../../src/server/store/migrations/047-pipeline-schedule-inputs.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 47 adds the schedules' CI inputs: a store made before it, with a schedule, opens, gains the
 * table, and keeps the inputs written through the API across a restart.
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
const path = '/api/v4/projects/acme%2Fwidgets/pipeline_schedules'
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-schedule-inputs-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 47 gives a store made before it the inputs table; its schedules keep working', async () => {
  const first = await startServer(seed, { data: dir })
  let id: number
  try {
    const made = await first.http('POST', path, {
      token: ROOT,
      json: { description: 'old', ref: 'main', cron: '0 1 * * *' },
    })
    id = (made.body as { id: number }).id
  } finally {
    await first.close()
  }
  // The store as the migration before 47 left it: no inputs table, the version before it.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`DROP TABLE ci_pipeline_schedule_inputs;
    PRAGMA user_version = ${migrations.indexOf(pipelineScheduleInputs)};`)
  db.close()

  const again = await startServer(seed, { data: dir })
  try {
    expect((await again.http('GET', `${path}/${id}`, { token: ROOT })).body).toMatchObject({ inputs: [] })
    const put = await again.http('PUT', `${path}/${id}`, {
      token: ROOT,
      json: { inputs: [{ name: 'target', value: ['a', 'b'] }] },
    })
    expect(put.status).toBe(200)
  } finally {
    await again.close()
  }
  const last = await startServer(seed, { data: dir })
  try {
    const read = await last.http('GET', `${path}/${id}`, { token: ROOT })
    expect(read.body).toMatchObject({ description: 'old', inputs: [{ name: 'target', value: ['a', 'b'] }] })
  } finally {
    await last.close()
  }
})
