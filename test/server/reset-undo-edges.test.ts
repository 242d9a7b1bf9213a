import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { startServer, type TestServer } from '../support/server.js'
import { manualClock } from '../support/pipeline-seed.js'
import { storeDump } from '../support/store-dump.js'
import { inspectDb } from '../../src/server/store/inspect.js'

/*
 * The edges of a data directory's reset (src/server/store/snapshot.ts): the undo runs on a second
 * connection sharing the store's page cache, and falls back to the store's own connection when a
 * row the log never saw still refers to a row the undo deletes, or when the shared cache's lock
 * stops it. After either, and with two servers on one directory, the answers are the snapshot's.
 */
const examples = readFileSync(join(__dirname, '../../examples/seed.yaml'), 'utf8')
const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

let data: string
const servers: TestServer[] = []
const open = async () => {
  const t = await startServer(examples, { data, clock: manualClock('2026-12-01T10:00:00.000Z') })
  servers.push(t)
  return t
}
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'reset-undo-edges-'))
})
afterEach(async () => {
  for (const t of servers.splice(0)) await t.close()
  rmSync(data, { recursive: true, force: true })
})

const ok = async (t: TestServer, method: string, path: string, json?: Json) => {
  const res = await t.http(method, path, { token: ROOT, ...(json ? { json } : {}) })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body as Json
}
const reset = async (t: TestServer) =>
  expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
/** What a suite reads back: the project's issues (ids, iids, titles) and its notes on issue 1. */
const answers = async (t: TestServer) => ({
  issues: ((await ok(t, 'GET', `${P}/issues?per_page=100`)) as unknown as Json[]).map(
    ({ id, iid, title, state }) => ({ id, iid, title, state }),
  ),
  notes: ((await ok(t, 'GET', `${P}/issues/1/notes`)) as unknown as Json[]).map(({ id, body }) => ({
    id,
    body,
  })),
})
const path = (t: TestServer) => (t.server.store.snapshot.lastUndoConnection ? 'undo connection' : 'store')

describe("a data directory's reset: the fallbacks", () => {
  it('a row written past the log that refers to a row made since: restored on the store connection, exactly', async () => {
    const t = await open()
    await reset(t)
    const snapshot = { store: storeDump(t.server.store), answers: await answers(t) }
    const made = await ok(t, 'POST', `${P}/issues`, { title: 'Made since' })
    await ok(t, 'PUT', `${P}/issues/1`, { title: 'Edited since' })
    // Another process on the same file (sqlite3, a script): its note is in no log of the server.
    const outside = new DatabaseSync(join(data, 'gitlab.sqlite3'))
    try {
      outside.exec('PRAGMA busy_timeout = 5000')
      outside
        .prepare(
          "INSERT INTO notes (issue_id, author_id, body, created_at, updated_at) VALUES (?, 1, 'from outside', '2026-12-01', '2026-12-01')",
        )
        .run(made.id as number)
    } finally {
      outside.close()
    }
    await reset(t)
    // The undo connection (foreign keys off) would have left the note referring to no issue.
    expect([path(t), t.server.store.snapshot.lastRestore]).toEqual(['store', 'full'])
    expect(storeDump(t.server.store)).toEqual(snapshot.store)
    expect(await answers(t)).toEqual(snapshot.answers)
    expect(inspectDb(t.server.store).prepare('PRAGMA foreign_key_check').all()).toEqual([])
    // The same write again gets the same id and iid; the next reset undoes on the second connection.
    expect(await ok(t, 'POST', `${P}/issues`, { title: 'Made since' })).toMatchObject({
      id: made.id,
      iid: made.iid,
    })
    await reset(t)
    expect([path(t), t.server.store.snapshot.lastRestore]).toEqual(['undo connection', 'undo'])
    expect(storeDump(t.server.store)).toEqual(snapshot.store)
  })

  it("a reset's transaction that wrote first: the shared cache's lock stops the second connection, the store's undoes", async () => {
    const t = await open()
    await reset(t)
    const snapshot = { store: storeDump(t.server.store), answers: await answers(t) }
    const db = inspectDb(t.server.store)
    const { snapshot: control } = t.server.store
    await ok(t, 'POST', `${P}/issues`, { title: 'Made since' })
    await ok(t, 'POST', `${P}/issues/1/notes`, { body: 'Since' })
    await ok(t, 'PUT', `${P}/issues/2`, { state_event: 'close' })
    // What the server's reset runs (services/emulator.ts), with a resetter that writes before the
    // undo: the store connection then holds the shared cache's write lock.
    t.server.store.transaction(() => {
      db.prepare("UPDATE issues SET title = 'Written by a resetter' WHERE iid = 3").run()
      control.restore()
    })
    expect([path(t), control.lastRestore]).toEqual(['store', 'undo'])
    expect(storeDump(t.server.store)).toEqual(snapshot.store)
    expect(await answers(t)).toEqual(snapshot.answers)
    // Nothing of the failed attempt stays on the second connection: the next reset undoes there.
    await ok(t, 'POST', `${P}/issues`, { title: 'Made after' })
    await reset(t)
    expect([path(t), control.lastRestore]).toEqual(['undo connection', 'undo'])
    expect(storeDump(t.server.store)).toEqual(snapshot.store)
  })
})

describe('two servers on one data directory', () => {
  it('one after the other: the second opens what the first left, and its reset goes back to the seed', async () => {
    const first = await open()
    await reset(first)
    const seeded = await answers(first)
    const made = await ok(first, 'POST', `${P}/issues`, { title: 'Made by the first' })
    await first.close()
    servers.splice(0)
    const second = await open()
    // The rows the first wrote are there; its log went with it.
    expect((await ok(second, 'GET', `${P}/issues/${String(made.iid)}`)).title).toBe('Made by the first')
    await reset(second)
    expect(await answers(second)).toEqual(seeded)
    await ok(second, 'POST', `${P}/issues`, { title: 'Made by the second' })
    await reset(second)
    expect([path(second), second.server.store.snapshot.lastRestore]).toEqual(['undo connection', 'undo'])
    expect(await answers(second)).toEqual(seeded)
  })

  it('at once: reads, writes and resets through both answer, none a 500; each reset puts back its own snapshot', async () => {
    const a = await open()
    const b = await open()
    const statuses: number[] = []
    const call = async (t: TestServer, method: string, at: string, json?: Json) => {
      const res = await t.http(method, at, { token: ROOT, ...(json ? { json } : {}) })
      statuses.push(res.status)
      return res
    }
    const iids = async (t: TestServer) =>
      ((await call(t, 'GET', `${P}/issues?per_page=100`)).body as Json[]).map((issue) => issue.iid)
    await reset(a)
    const seeded = await answers(a)
    const seededIids = seeded.issues.map((issue) => issue.iid)
    const fromA = (await call(a, 'POST', `${P}/issues`, { title: 'By A' })).body as Json
    const fromB = (await call(b, 'POST', `${P}/issues`, { title: 'By B' })).body as Json
    // One file, one page cache: each reads the other's rows, and iids go on from the other's.
    expect(fromB.iid).toBe((fromA.iid as number) + 1)
    expect((await call(b, 'GET', `${P}/issues/${String(fromA.iid)}`)).status).toBe(200)
    expect((await call(a, 'GET', `${P}/issues/${String(fromB.iid)}`)).status).toBe(200)
    // A's reset undoes what A wrote, on its second connection; B's issue is in no log of A's.
    await reset(a)
    expect([path(a), a.server.store.snapshot.lastRestore]).toEqual(['undo connection', 'undo'])
    expect(await iids(a)).toEqual([fromB.iid, ...seededIids])
    expect((await call(b, 'GET', `${P}/issues/${String(fromB.iid)}`)).status).toBe(200)
    // B writes a note on an issue A made since: A's log never saw it, so A's reset restores on the
    // store connection (a cascade there), back to A's snapshot whole, B's issue gone too.
    const again = (await call(a, 'POST', `${P}/issues`, { title: 'By A again' })).body as Json
    expect((await call(b, 'POST', `${P}/issues/${String(again.iid)}/notes`, { body: 'B on A' })).status).toBe(
      201,
    )
    await reset(a)
    expect([path(a), a.server.store.snapshot.lastRestore]).toEqual(['store', 'full'])
    expect(await answers(a)).toEqual(seeded)
    expect(inspectDb(a.server.store).prepare('PRAGMA foreign_key_check').all()).toEqual([])
    // B's first reset seeds the directory again; its next ones undo on its own second connection.
    await call(b, 'POST', `${P}/issues`, { title: 'By B again' })
    await reset(b)
    await call(b, 'POST', `${P}/issues`, { title: 'By B once more' })
    await reset(b)
    expect([path(b), b.server.store.snapshot.lastRestore]).toEqual(['undo connection', 'undo'])
    expect(await answers(b)).toEqual(seeded)
    // A stops: B's page cache, log and second connection go on without it.
    await a.close()
    servers.splice(servers.indexOf(a), 1)
    await call(b, 'POST', `${P}/issues`, { title: 'By B alone' })
    await reset(b)
    expect([path(b), b.server.store.snapshot.lastRestore]).toEqual(['undo connection', 'undo'])
    expect(await answers(b)).toEqual(seeded)
    expect(statuses.filter((status) => status >= 500)).toEqual([])
  })
})
