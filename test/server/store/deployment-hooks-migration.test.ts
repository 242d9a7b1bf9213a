import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrations } from '../../../src/server/store/migrations.js'
import deploymentHooks from '../../../src/server/store/migrations/043-deployment-hooks.js'
import { commitFiles } from '../../support/ci-files.js'
import { eventually, hookReceiver } from '../../support/hook-receiver.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../../support/pipeline-seed.js'
import { startServer } from '../../support/server.js'

/*
 * Migration 43 adds `deployment_events` to `web_hooks`, `deployment_transitions` and its triggers: a
 * store made before it opens with its hooks taking no deployment events, and one edited to take them
 * hears the deployments that follow; a store whose version was set back opens again.
 */

const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-deployment-hooks-migration-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const setBack = (sql: string) => {
  const db = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
  db.exec(`${sql} PRAGMA user_version = ${migrations.indexOf(deploymentHooks)};`)
  db.close()
}

it('migration 43: hooks made before it take no deployment events until edited to, then hear deployments', async () => {
  const clock = manualClock()
  const receiver = await hookReceiver()
  const first = await startServer(pipelineSeed, { data: dir, clock, allowLocalRequests: true })
  await commitFiles(first, 'acme/app', 'ci', {
    '.gitlab-ci.yml': 'deploy: { environment: production, script: [echo] }',
  })
  const made = await first.http('POST', `${APP}/hooks`, {
    token: MARK,
    json: { url: receiver.url, push_events: false, job_events: true },
  })
  expect(made.status).toBe(201)
  await first.close()
  // The store as migration 42 left it: no column, no table, no triggers.
  setBack(`
    DROP TRIGGER deployment_transitions_on_update;
    DROP TRIGGER deployment_transitions_on_insert;
    DROP TABLE deployment_transitions;
    ALTER TABLE web_hooks DROP COLUMN deployment_events;`)

  const again = await startServer(pipelineSeed, { data: dir, clock, allowLocalRequests: true })
  try {
    const hook = `${APP}/hooks/${(made.body as Json).id as number}`
    expect(((await again.http('GET', hook, { token: MARK })).body as Json).deployment_events).toBe(false)
    const edited = await again.http('PUT', hook, { token: MARK, json: { deployment_events: true } })
    expect((edited.body as Json).deployment_events).toBe(true)
    const res = await again.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
    expect(res.status).toBe(201)
    await runOut(again, clock, { steps: 30 })
    const statuses = await eventually(
      async () =>
        receiver.got
          .filter((r) => r.headers['x-gitlab-event'] === 'Deployment Hook')
          .map((r) => r.body.status),
      (got) => got.length >= 2,
    )
    expect(statuses).toEqual(['running', 'success'])
  } finally {
    await again.close()
    await receiver.close()
  }
  // Applied again over itself (its version set back), the migration finds its column and changes nothing.
  setBack('')
  const third = await startServer(pipelineSeed, { data: dir, clock })
  try {
    const hooks = (await third.http('GET', `${APP}/hooks`, { token: MARK })).body as Json[]
    expect(hooks.map((h) => h.deployment_events)).toEqual([true])
  } finally {
    await third.close()
  }
})
