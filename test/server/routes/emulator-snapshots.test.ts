import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type TestServer } from '../../support/server.js'
import { manualClock } from '../../support/pipeline-seed.js'
import { filesDump, storeDump } from '../../support/store-dump.js'
import { FormData, request } from 'undici'
import { startServer as startSuiteServer } from '../../../src/server/start/start-server.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/*
 * Named snapshots (`/-/emulator/snapshots`) over HTTP against the real server: a restore puts every
 * table back as saved (rowids, sqlite_sequence), a reset afterwards still returns to the seed, a
 * data directory keeps its snapshots across a restart, and bad requests change nothing.
 */
const examples = readFileSync(join(__dirname, '../../../examples/seed.yaml'), 'utf8')
const ROOT = 'glpat-root-token'
const ALICE = 'glpat-alice-token' // a project owner, no administrator
const P = '/api/v4/projects/acme%2Fwidgets'
type Json = Record<string, unknown>

let t: TestServer
let data: string | undefined
afterEach(async () => {
  await t?.close()
  if (data) rmSync(data, { recursive: true, force: true })
  data = undefined
})
const start = async (options: { data?: string } = {}) => {
  t = await startServer(examples, { ...options, clock: manualClock('2026-12-01T10:00:00.000Z') })
}

const ok = async (method: string, path: string, options: Parameters<TestServer['http']>[2] = {}) => {
  const res = await t.http(method, path, { token: ROOT, ...options })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`)
  return res.body
}
const save = (name: string, query?: string, token: string | undefined = ROOT) =>
  t.http('POST', `/-/emulator/snapshots/${name}`, { token, query })
const restore = (name: string, token: string | undefined = ROOT) =>
  t.http('POST', `/-/emulator/snapshots/${name}/restore`, { token })
const reset = async () =>
  expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)

/** Writes through several route families: issues, notes, labels, a project, a group, a user, tokens. */
async function writeSome(tag: string) {
  const issue = (await ok('POST', `${P}/issues`, { json: { title: `Issue ${tag}`, labels: 'bug' } })) as Json
  await ok('PUT', `${P}/issues/1`, { json: { title: `Renamed ${tag}`, state_event: 'close' } })
  await ok('POST', `${P}/issues/${issue.iid}/notes`, { json: { body: `Note ${tag}` } })
  await ok('POST', `${P}/labels`, { json: { name: `label-${tag}`, color: '#ff0000' } })
  await ok('POST', '/api/v4/projects', { json: { name: `project-${tag}` } })
  await ok('POST', '/api/v4/groups', { json: { name: `group-${tag}`, path: `group-${tag}` } })
  await ok('POST', '/api/v4/users', {
    json: { username: `user-${tag}`, name: tag, email: `${tag}@example.com`, password: 'secret-pass-123' },
  })
  const doomed = (await ok('POST', `${P}/issues`, { json: { title: `Deleted ${tag}` } })) as Json
  await ok('DELETE', `${P}/issues/${doomed.iid}`)
}

/** API answers a client sees, to compare beside the store's dump. */
const answers = async () => ({
  issues: await ok('GET', `${P}/issues`, { query: 'per_page=100&state=all' }),
  projects: await ok('GET', '/api/v4/projects', { query: 'per_page=100&order_by=id' }),
  labels: await ok('GET', `${P}/labels`),
})

describe('named snapshots', () => {
  it('save, change through the API, restore: every table and the answers are as saved', async () => {
    await start()
    await writeSome('before')
    const dump = storeDump(t.server.store)
    const seen = await answers()

    const saved = await save('mid-test')
    expect(saved.status).toBe(201)
    const rows = Object.entries(dump)
      .filter(([table]) => table !== 'sqlite_sequence')
      .reduce((n, [, r]) => n + r.length, 0)
    expect(saved.body).toEqual({ name: 'mid-test', created_at: '2026-12-01T10:00:00.000Z', rows })
    expect(storeDump(t.server.store)).toEqual(dump)

    await writeSome('after')
    expect(storeDump(t.server.store)).not.toEqual(dump)
    const restored = await restore('mid-test')
    expect(restored.status).toBe(200)
    expect(restored.body).toEqual(saved.body)
    expect(storeDump(t.server.store)).toEqual(dump)
    expect(await answers()).toEqual(seen)

    // Ids go on from where the snapshot was (sqlite_sequence and rowids came back with it).
    const next = (await ok('POST', `${P}/issues`, { json: { title: 'Next' } })) as Json
    expect(next.iid).toBe(((seen.issues as Json[])[0]!.iid as number) + 1)

    // Restored twice: the snapshot stays.
    await writeSome('again')
    expect((await restore('mid-test')).status).toBe(200)
    expect(storeDump(t.server.store)).toEqual(dump)
  })

  it('a reset after a restore returns to the seed exactly; a restore after a reset works', async () => {
    await start()
    await reset() // takes the seed snapshot, and holds a transaction from it
    const seed = storeDump(t.server.store)
    await writeSome('one')
    const one = storeDump(t.server.store)
    expect((await save('one')).status).toBe(201)

    await reset()
    expect(storeDump(t.server.store)).toEqual(seed)
    expect((await restore('one')).status).toBe(200)
    expect(storeDump(t.server.store)).toEqual(one)

    // Writes after the restore, then a reset: the whole seed comes back (the log was given up).
    await writeSome('two')
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('full')
    expect(storeDump(t.server.store)).toEqual(seed)

    // After that full copy-back the in-memory store holds its transaction again: the next reset rolls it back.
    await writeSome('three')
    await reset()
    expect(t.server.store.snapshot.lastRestore).toBe('rollback')
    expect(storeDump(t.server.store)).toEqual(seed)
  })

  it('after a reset (an in-memory store holds its transaction): saves and removals outlive the next reset; reads and refusals keep it a rollback', async () => {
    await start()
    await reset()
    const seed = storeDump(t.server.store)
    const snapshots = async () => (await t.http('GET', '/-/emulator/snapshots', { token: ROOT })).body
    const lastRestore = () => t.server.store.snapshot.lastRestore
    expect(await snapshots()).toEqual([])
    expect((await restore('nope')).status).toBe(404)
    expect((await t.http('DELETE', '/-/emulator/snapshots/nope', { token: ROOT })).status).toBe(404)
    await writeSome('one')
    await reset()
    expect(lastRestore()).toBe('rollback')
    expect(storeDump(t.server.store)).toEqual(seed)

    // A save commits what the transaction held: the snapshot stays, the seed is copied back whole.
    await writeSome('two')
    const two = storeDump(t.server.store)
    const saved = (await save('two')).body
    await reset()
    expect(lastRestore()).toBe('full')
    expect(storeDump(t.server.store)).toEqual(seed)
    expect(await snapshots()).toEqual([saved])
    // Held again: a list and a refused restore leave it so.
    expect((await restore('nope')).status).toBe(404)
    await writeSome('three')
    await reset()
    expect(lastRestore()).toBe('rollback')
    expect(await snapshots()).toEqual([saved])

    expect((await restore('two')).status).toBe(200)
    expect(storeDump(t.server.store)).toEqual(two)
    await reset()
    expect(storeDump(t.server.store)).toEqual(seed)
    // A removal outlives the next reset too.
    expect((await t.http('DELETE', '/-/emulator/snapshots/two', { token: ROOT })).status).toBe(204)
    await reset()
    expect(await snapshots()).toEqual([])
    expect((await restore('two')).status).toBe(404)
  })

  it('a restore before the seed snapshot is taken, then a reset: the seed', async () => {
    await start()
    await writeSome('one')
    expect((await save('one')).status).toBe(201)
    // The first reset seeds again (new nonces in sealed tokens) and takes the seed snapshot.
    await reset()
    const seed = storeDump(t.server.store)
    await writeSome('two')
    expect((await restore('one')).status).toBe(200)
    await reset()
    expect(storeDump(t.server.store)).toEqual(seed)
  })

  it('a replaced snapshot restores its new content, not the one restored before', async () => {
    await start()
    expect((await save('s')).status).toBe(201)
    await writeSome('one')
    expect((await restore('s')).status).toBe(200)
    await writeSome('two')
    const two = storeDump(t.server.store)
    expect((await save('s', 'replace=true')).status).toBe(201)
    await writeSome('three')
    expect((await restore('s')).status).toBe(200)
    expect(storeDump(t.server.store)).toEqual(two)
  })

  it('the response cache follows a restore: a list read before is not answered again', async () => {
    await start()
    const before = await ok('GET', `${P}/issues`, { query: 'per_page=100' })
    expect((await save('s')).status).toBe(201)
    await ok('POST', `${P}/issues`, { json: { title: 'Gone after the restore' } })
    const during = (await ok('GET', `${P}/issues`, { query: 'per_page=100' })) as Json[]
    expect(during.length).toBe((before as Json[]).length + 1)
    await restore('s')
    expect(await ok('GET', `${P}/issues`, { query: 'per_page=100' })).toEqual(before)
  })

  it('lists, replaces and deletes snapshots', async () => {
    await start()
    const rows = () =>
      Object.entries(storeDump(t.server.store))
        .filter(([table]) => table !== 'sqlite_sequence')
        .reduce((n, [, r]) => n + r.length, 0)
    expect((await t.http('GET', '/-/emulator/snapshots', { token: ROOT })).body).toEqual([])
    const b = (await save('b.2')).body as Json
    expect(b.rows).toBe(rows())
    await ok('POST', `${P}/issues`, { json: { title: 'One more' } })
    const a = (await save('A_1-x')).body as Json
    expect(a.rows).toBe(rows())
    expect(a.rows).toBeGreaterThan(b.rows as number)
    const list = await t.http('GET', '/-/emulator/snapshots', { token: ROOT })
    expect(list.status).toBe(200)
    expect(list.body).toEqual([a, b])

    const taken = await save('b.2')
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual({
      message: 'snapshot b.2 already exists (POST with replace=true to overwrite it)',
    })
    const replaced = await save('b.2', 'replace=true')
    expect(replaced.status).toBe(201)
    expect(replaced.body).toEqual({ ...b, rows: a.rows })

    const gone = await t.http('DELETE', '/-/emulator/snapshots/b.2', { token: ROOT })
    expect(gone.status).toBe(204)
    expect(gone.text).toBe('')
    expect((await t.http('GET', '/-/emulator/snapshots', { token: ROOT })).body).toEqual([a])
    expect((await restore('b.2')).status).toBe(404)
  })

  it('refuses bad names, unknown and taken ones, and non-administrators, changing nothing', async () => {
    await start()
    expect((await save('kept')).status).toBe(201)
    await ok('POST', `${P}/issues`, { json: { title: 'After the save' } })
    // Alice's token once used already: its use is stamped, which is no change the refusals made.
    expect((await t.http('GET', '/api/v4/user', { token: ALICE })).status).toBe(200)
    const dump = storeDump(t.server.store)
    const list = (await t.http('GET', '/-/emulator/snapshots', { token: ROOT })).body

    for (const bad of ['a%20b', 'x'.repeat(65), '%C3%A9t%C3%A9', 'a%2Fb']) {
      for (const res of [
        await save(bad),
        await restore(bad),
        await t.http('DELETE', `/-/emulator/snapshots/${bad}`, { token: ROOT }),
      ]) {
        expect(res.status).toBe(400)
        expect(res.body).toEqual({ error: 'name is invalid' })
      }
    }
    expect((await save('x'.repeat(64))).status).toBe(201)
    expect((await t.http('DELETE', `/-/emulator/snapshots/${'x'.repeat(64)}`, { token: ROOT })).status).toBe(
      204,
    )

    const badReplace = await save('kept', 'replace=yes')
    expect(badReplace.status).toBe(400)
    expect(badReplace.body).toEqual({ error: 'replace is invalid' })
    expect((await save('kept')).status).toBe(409)
    for (const res of [
      await restore('nope'),
      await t.http('DELETE', '/-/emulator/snapshots/nope', { token: ROOT }),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Snapshot Not Found' })
    }

    for (const [token, status, message] of [
      [ALICE, 403, '403 Forbidden'],
      [undefined, 401, '401 Unauthorized'],
    ] as const) {
      for (const res of [
        await t.http('GET', '/-/emulator/snapshots', { token }),
        await t.http('POST', '/-/emulator/snapshots/other', { token }),
        await t.http('POST', '/-/emulator/snapshots/kept/restore', { token }),
        await t.http('DELETE', '/-/emulator/snapshots/kept', { token }),
      ]) {
        expect(res.status).toBe(status)
        expect(res.body).toEqual({ message })
      }
    }
    expect(storeDump(t.server.store)).toEqual(dump)
    expect((await t.http('GET', '/-/emulator/snapshots', { token: ROOT })).body).toEqual(list)
  })

  it('a data directory keeps its snapshots across a restart', async () => {
    data = mkdtempSync(join(tmpdir(), 'snapshots-'))
    await start({ data })
    await writeSome('kept')
    const dump = storeDump(t.server.store)
    const saved = (await save('kept')).body
    await writeSome('lost')
    await t.close()

    await start({ data })
    expect((await t.http('GET', '/-/emulator/snapshots', { token: ROOT })).body).toEqual([saved])
    expect((await restore('kept')).status).toBe(200)
    expect(storeDump(t.server.store)).toEqual(dump)
  })

  it('keeps the metric images of a data directory, and survives a restart', async () => {
    data = mkdtempSync(join(tmpdir(), 'snapshots-'))
    const files = () => filesDump(join(data!, 'uploads'), () => false)
    let incident = 0
    const upload = async (bytes: string) => {
      const form = new FormData()
      form.append('file', new Blob([Buffer.from(bytes)]), 'graph.png')
      const res = await request(`${t.baseUrl}${P}/issues/${incident}/metric_images`, {
        method: 'POST',
        body: form,
        headers: { 'private-token': ROOT },
      })
      expect(res.statusCode).toBe(201)
      return (await res.body.json()) as Json
    }
    await start({ data })
    const made = (await ok('POST', `${P}/issues`, {
      json: { title: 'Outage', issue_type: 'incident' },
    })) as Json
    incident = made.iid as number
    await upload('kept PNG bytes')
    const kept = { store: storeDump(t.server.store), files: files() }
    expect(Object.keys(kept.files)).toHaveLength(1)
    expect((await save('with-image')).status).toBe(201)

    const image = await upload('lost PNG bytes')
    await ok('DELETE', `${P}/issues/${incident}/metric_images/${(await upload('third')).id}`)
    expect(Object.keys(files())).toHaveLength(2)
    expect(image.id).toBeDefined()
    expect((await restore('with-image')).status).toBe(200)
    expect({ store: storeDump(t.server.store), files: files() }).toEqual(kept)

    await upload('after')
    await t.close()
    await start({ data })
    expect((await restore('with-image')).status).toBe(200)
    expect({ store: storeDump(t.server.store), files: files() }).toEqual(kept)
    const read = await t.http('GET', `${P}/issues/${incident}/metric_images`, { token: ROOT })
    expect((read.body as Json[]).length).toBe(1)

    expect((await t.http('DELETE', '/-/emulator/snapshots/with-image', { token: ROOT })).status).toBe(204)
    expect(readdirSync(join(data, 'snapshots'))).toEqual([])
  })

  it('refuses to restore a snapshot saved before a migration of the store (409), changing nothing', async () => {
    await start()
    expect((await save('old')).status).toBe(201)
    await ok('POST', `${P}/issues`, { json: { title: 'After the save' } })
    const dump = storeDump(t.server.store)
    // As a data dir saved by an older release and migrated since would have it.
    inspectDb(t.server.store).exec('UPDATE snapshots."snapshot list" SET user_version = user_version - 1')
    const res = await restore('old')
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      message: 'snapshot old was saved before a migration of the store; save it again',
    })
    expect(storeDump(t.server.store)).toEqual(dump)
  })

  it('is in the OpenAPI document', async () => {
    await start()
    const doc = (await t.http('GET', '/api/v4/openapi.json')).body as { paths: Record<string, Json> }
    expect(Object.keys(doc.paths['/-/emulator/snapshots']!)).toEqual(['servers', 'get'])
    expect(Object.keys(doc.paths['/-/emulator/snapshots/{name}']!)).toEqual(['servers', 'post', 'delete'])
    expect(Object.keys(doc.paths['/-/emulator/snapshots/{name}/restore']!)).toEqual(['servers', 'post'])
  })
})

describe('startServer', () => {
  it('snapshot(name) and restore(name)', async () => {
    const gitlab = await startSuiteServer({ seed: examples })
    try {
      const dump = storeDump(gitlab.server.store)
      await gitlab.snapshot('start')
      await expect(gitlab.snapshot('start')).rejects.toThrow()
      await gitlab.server.seed({ users: [{ username: 'zed' }] } as never)
      expect(storeDump(gitlab.server.store)).not.toEqual(dump)
      await gitlab.restore('start')
      expect(storeDump(gitlab.server.store)).toEqual(dump)
      await expect(gitlab.restore('missing')).rejects.toThrow()
    } finally {
      await gitlab.close()
    }
  })
})
