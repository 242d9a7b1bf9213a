import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import jobTokenScope from '../../../src/server/store/migrations/049-job-token-scope.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 49 adds the job token scope: a store made before it opens with every project's inbound
 * limit on (GitLab's default, and what such a store answered: no other project's job token got in),
 * keeps allowlists written through the API across a restart, and applied a second time changes nothing.
 */

const ROOT = 'glpat-root-token'
const seed = `
users:
  - { username: root, admin: true, token: ${ROOT} }
groups:
  - { path: acme }
projects:
  - { path: acme/widgets, refs: [main] }
  - { path: acme/tools, refs: [main] }
`
const scope = '/api/v4/projects/acme%2Fwidgets/job_token_scope'
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-job-token-scope-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The store as the migration before 49 left it, or (`again`) with 49 to run once more. */
function setBack(again: boolean) {
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  if (!again)
    db.exec(`DROP TABLE ci_job_token_scopes;
      DROP TABLE ci_job_token_project_scope_links;
      DROP TABLE ci_job_token_group_scope_links;`)
  db.exec(`PRAGMA user_version = ${migrations.indexOf(jobTokenScope)};`)
  db.close()
}

it('migration 49 gives a store made before it the scope tables, the limit on; they last across restarts', async () => {
  const first = await startServer(seed, { data: dir })
  await first.close()
  setBack(false)

  const again = await startServer(seed, { data: dir })
  let tools: number
  try {
    expect((await again.http('GET', scope, { token: ROOT })).body).toEqual({
      inbound_enabled: true,
      outbound_enabled: false,
    })
    tools = (
      (await again.http('GET', '/api/v4/projects/acme%2Ftools', { token: ROOT })).body as { id: number }
    ).id
    const widgets = (
      (await again.http('GET', '/api/v4/projects/acme%2Fwidgets', { token: ROOT })).body as {
        id: number
      }
    ).id
    const added = await again.http('POST', `/api/v4/projects/${widgets}/job_token_scope/allowlist`, {
      token: ROOT,
      json: { target_project_id: tools },
    })
    expect(added.status).toBe(201)
    expect((await again.http('PATCH', scope, { token: ROOT, json: { enabled: false } })).status).toBe(204)
  } finally {
    await again.close()
  }
  setBack(true)

  const last = await startServer(seed, { data: dir })
  try {
    expect((await last.http('GET', scope, { token: ROOT })).body).toEqual({
      inbound_enabled: false,
      outbound_enabled: false,
    })
    const list = (await last.http('GET', `${scope}/allowlist`, { token: ROOT })).body as { id: number }[]
    expect(list.map((p) => p.id)).toContain(tools)
  } finally {
    await last.close()
  }
})
