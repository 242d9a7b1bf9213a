import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commitFiles } from '../support/ci-files.js'
import { hookReceiver } from '../support/hook-receiver.js'
import { manualClock, MARK_TRIGGER, pipelineSeed, runOut } from '../support/pipeline-seed.js'
import { startServer, type TestServer } from '../support/server.js'
import { storeDump } from '../support/store-dump.js'
import { inspectDb } from '../../src/server/store/inspect.js'
import { NOT_RESTORING } from '../../src/server/store/restoring.js'

/*
 * The store's SQL triggers (a job's deployment and environment follow it, deployments' moves are
 * recorded for the Deployment Hooks, a successful pipeline unlocks older ones' artifacts) are
 * side effects of a write. Putting state back is no write: a named snapshot's restore, a reset's
 * undo log (a data directory) and its full copy-back copy rows back with plain INSERT, UPDATE and
 * DELETE, and must leave every table as the snapshot had it, and send no webhook for what they
 * copied back (src/server/store/restoring.ts). Each trigger, those a later migration adds too, is
 * watched by a twin that notes in a table when it fires: a restore that fired one leaves a row the
 * snapshot never held.
 */
const ROOT = 'glpat-root-token'
const MARK = 'glpat-mark-token'
const APP = '/api/v4/projects/acme%2Fapp'
type Json = Record<string, unknown>

const CONFIG = `
deploy:
  environment: { name: production, url: https://prod.example.com, auto_stop_in: 1 day }
  script: [echo deploy]
ship:
  environment: staging
  script: [exit 1]
  allow_failure: true
`

let t: TestServer
let clock: ReturnType<typeof manualClock>
let data: string | undefined
let receiver: Awaited<ReturnType<typeof hookReceiver>>

const start = async (withData: boolean) => {
  receiver = await hookReceiver()
  data = withData ? mkdtempSync(join(tmpdir(), 'restore-triggers-')) : undefined
  clock = manualClock('2026-12-01T10:00:00.000Z')
  t = await startServer(pipelineSeed, { clock, allowLocalRequests: true, ...(data ? { data } : {}) })
}
afterEach(async () => {
  await t?.close()
  await receiver?.close()
  if (data) rmSync(data, { recursive: true, force: true })
  data = undefined
})

const ok = async (method: string, path: string, options: Parameters<TestServer['http']>[2] = {}) => {
  const res = await t.http(method, path, { token: MARK, ...options })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body as Json
}
const settle = () => ok('POST', '/-/emulator/settle', { token: ROOT, json: {} })
const deliveries = () => receiver.got.filter((r) => r.headers['x-gitlab-event'] === 'Deployment Hook')

const TRIGGERS = "SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger' ORDER BY name"

/**
 * Beside each trigger of the main schema a twin, the same event, table and `WHEN`, that notes its
 * name in `fired`; the names watched.
 */
function watchTriggers(): string[] {
  const db = inspectDb(t.server.store)
  const triggers = db.prepare(TRIGGERS).all() as { name: string; sql: string }[]
  db.exec('CREATE TABLE fired (name TEXT NOT NULL)')
  for (const { name, sql } of triggers) {
    const head = sql
      .slice(0, sql.search(/\bBEGIN\b/))
      .replace(/^CREATE TRIGGER \S+/, `CREATE TRIGGER "watch ${name}"`)
    db.exec(`${head} BEGIN INSERT INTO fired VALUES ('${name}'); END`)
  }
  return triggers.map((t) => t.name)
}
/** The watched triggers that fired so far. */
const fired = () =>
  inspectDb(t.server.store).prepare('SELECT DISTINCT name FROM fired ORDER BY name').pluck().all() as string[]

/** A pipeline of `CONFIG` on `ci`, run to its end: a successful and a failed deployment. */
async function runPipeline() {
  await commitFiles(t, 'acme/app', 'ci', { '.gitlab-ci.yml': CONFIG })
  const res = await t.http('POST', `${APP}/trigger/pipeline`, { form: `ref=ci&token=${MARK_TRIGGER}` })
  expect(res.status).toBe(201)
  await runOut(t, clock)
  await settle()
}

/** A deployment made through the API on `develop`, in `status`. */
async function apiDeployment(environment: string, status: string) {
  const develop = await ok('GET', `${APP}/repository/branches/develop`)
  return ok('POST', `${APP}/deployments`, {
    json: { environment, sha: (develop.commit as Json).id, ref: 'develop', tag: false, status },
  })
}

/**
 * A hook that takes deployment events, deployments that succeeded, failed, run and were
 * canceled, an environment with an auto-stop time and a stopped one, pipelines that succeeded
 * (their artifacts locked): rows each trigger's `WHEN` matches once copied back or set back.
 */
async function deployedWorld() {
  await ok('POST', `${APP}/hooks`, {
    json: { url: receiver.url, deployment_events: true, push_events: false },
  })
  await runPipeline()
  await apiDeployment('canary', 'running')
  const canceled = await apiDeployment('review', 'running')
  await ok('PUT', `${APP}/deployments/${canceled.id as number}`, { json: { status: 'canceled' } })
  const stopped = await ok('POST', `${APP}/environments`, { json: { name: 'old' } })
  await ok('POST', `${APP}/environments/${stopped.id as number}/stop`)
  await settle()
  expect(deliveries().length).toBeGreaterThanOrEqual(5)
}

/** Writes after the snapshot that move what the triggers follow. */
async function moveOn() {
  const [canary] = (await ok('GET', `${APP}/deployments`, {
    query: 'environment=canary',
  })) as unknown as Json[]
  await ok('PUT', `${APP}/deployments/${canary!.id as number}`, { json: { status: 'success' } })
  await runPipeline()
  const [production] = (await ok('GET', `${APP}/environments`, {
    query: 'name=production',
  })) as unknown as Json[]
  await ok('POST', `${APP}/environments/${production!.id as number}/stop`, { json: { force: true } })
  await settle()
}

/**
 * After the restore: the store is the snapshot's, and the next write that sends the deployments'
 * moves (a deployment made through the API) sends its own move alone.
 */
async function expectRestored(snapshot: Record<string, unknown[]>) {
  expect(storeDump(t.server.store)).toEqual(snapshot)
  const sent = deliveries().length
  await apiDeployment('later', 'running')
  await settle()
  expect(
    deliveries()
      .slice(sent)
      .map((r) => [r.body.environment, r.body.status]),
  ).toEqual([['later', 'running']])
}

/** Takes the reset's snapshot here, as the first reset does of the seed (tests only). */
function resetSnapshotHere() {
  const { snapshot, transaction } = t.server.store
  snapshot.release()
  snapshot.attach()
  transaction(() => snapshot.take())()
  snapshot.hold()
}
const reset = () => ok('POST', '/-/emulator/reset', { token: ROOT })

describe.each([
  { storage: 'in memory', withData: false },
  { storage: 'with a data directory', withData: true },
])('putting state back $storage runs no trigger', ({ withData }) => {
  beforeEach(() => start(withData))

  it('a named snapshot restore: no deployment move recorded or sent for the deployments it copies back', async () => {
    watchTriggers()
    await deployedWorld()
    expect((await t.http('POST', '/-/emulator/snapshots/deployed', { token: ROOT })).status).toBe(201)
    const snapshot = storeDump(t.server.store)
    await moveOn()
    expect(storeDump(t.server.store)).not.toEqual(snapshot)
    const restored = await t.http('POST', '/-/emulator/snapshots/deployed/restore', { token: ROOT })
    expect(restored.status).toBe(200)
    await expectRestored(snapshot)
  })

  it("a reset's full copy-back", async () => {
    watchTriggers()
    await deployedWorld()
    resetSnapshotHere()
    const snapshot = storeDump(t.server.store)
    t.server.store.snapshot.setLogBound(0)
    await moveOn()
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('full')
    await expectRestored(snapshot)
  })
})

describe('putting state back with a data directory runs no trigger', () => {
  beforeEach(() => start(true))

  it("a reset's undo log: deployments, jobs, environments and pipelines set back to their images", async () => {
    const watched = watchTriggers()
    await deployedWorld()
    resetSnapshotHere()
    const snapshot = storeDump(t.server.store)
    await moveOn()
    // What the API cannot move back, SQL can: each status trigger's WHEN matches the undo's update.
    const db = inspectDb(t.server.store)
    db.exec(`UPDATE deployments SET status = 'created'`)
    db.exec(`UPDATE ci_builds SET status = 'running' WHERE status <> 'running'`)
    db.exec(`UPDATE pipelines SET status = 'running' WHERE status <> 'running'`)
    // Every trigger fired on this world's writes: the undo puts back rows of the kinds each WHEN matches.
    expect(fired()).toEqual(watched)
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('undo')
    await expectRestored(snapshot)
  })
})

it('every trigger of the main schema ends its WHEN with the guard a restore sets', async () => {
  await start(false)
  const triggers = inspectDb(t.server.store).prepare(TRIGGERS).all() as { name: string; sql: string }[]
  expect(triggers.length).toBeGreaterThan(0)
  for (const { name, sql } of triggers)
    expect([
      name,
      sql
        .slice(0, sql.search(/\bBEGIN\b/))
        .trimEnd()
        .endsWith(NOT_RESTORING),
    ]).toEqual([name, true])
})
