import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import runnerManagement from '../../../src/server/store/migrations/040-runner-management.js'
import { startServer } from '../../support/server.js'
import { versionsSeed, vt, PROJECT } from '../../support/versions-seed.js'

/*
 * Migration 40 adds the runner management columns and `ci_runner_projects`: a project runner registered
 * before it is enabled in its owner project, listed to that project's Maintainers and never contacted.
 */
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-runner-management-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('migration 40 enables the runners of a store made before it in their projects', async () => {
  const options = { data: dir, gitlabVersion: '16.11.0' }
  const first = await startServer(versionsSeed, options)
  const reset = await first.http('POST', `${PROJECT}/runners/reset_registration_token`, {
    token: vt.maintainer,
  })
  const token = (reset.body as { token: string }).token
  const registered = await first.http('POST', '/api/v4/runners', { json: { token, tag_list: 'docker' } })
  expect(registered.status).toBe(201)
  const { id, token: runnerToken } = registered.body as { id: number; token: string }
  await first.close()
  // The store as the migration before 40 left it: ci_runners as migration 5 made it, no ci_runner_projects.
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`
    PRAGMA foreign_keys = OFF;
    DROP TABLE ci_runner_projects;
    CREATE TABLE ci_runners_before (
      id INTEGER PRIMARY KEY,
      runner_type TEXT NOT NULL,
      project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
      namespace_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
      token_digest TEXT NOT NULL UNIQUE,
      description TEXT,
      name TEXT,
      maintenance_note TEXT,
      active INTEGER NOT NULL DEFAULT 1,
      locked INTEGER NOT NULL DEFAULT 0,
      run_untagged INTEGER NOT NULL DEFAULT 1,
      access_level TEXT NOT NULL DEFAULT 'not_protected',
      maximum_timeout INTEGER,
      tag_list TEXT NOT NULL DEFAULT '[]',
      created_at TEXT NOT NULL
    );
    INSERT INTO ci_runners_before SELECT id, runner_type, project_id, namespace_id, token_digest, description, name,
      maintenance_note, active, locked, run_untagged, access_level, maximum_timeout, tag_list, created_at FROM ci_runners;
    DROP TABLE ci_runners;
    ALTER TABLE ci_runners_before RENAME TO ci_runners;
    PRAGMA user_version = ${migrations.indexOf(runnerManagement)};`)
  db.close()

  const again = await startServer(versionsSeed, options)
  try {
    const listed = await again.http('GET', '/api/v4/runners', { token: vt.maintainer })
    expect((listed.body as { id: number }[]).map((r) => r.id)).toEqual([id])
    const one = await again.http('GET', `/api/v4/runners/${id}`, { token: vt.maintainer })
    expect(one.body).toMatchObject({
      runner_type: 'project_type',
      tag_list: ['docker'],
      status: 'never_contacted',
      contacted_at: null,
      projects: [{ path_with_namespace: 'acme/widgets' }],
    })
    expect(one.body).not.toHaveProperty('created_by')
    expect(
      (await again.http('POST', '/api/v4/runners/verify', { json: { token: runnerToken } })).status,
    ).toBe(200)
  } finally {
    await again.close()
  }
})
