import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { secretBox } from '../../src/server/store/secret-box.js'
import { exportSettled } from '../support/imports.js'
import { startServer } from '../support/server.js'
import { FormData, request } from 'undici'
import { widgetsSeed } from '../support/seeds.js'
import { detailSeed, T } from './routes/issue-details-seed.js'
import { inspectDb } from '../../src/server/store/inspect.js'

const ROOT = 'glpat-root-token'
const P = '/api/v4/projects/acme%2Fwidgets/issues'

describe('--data DIR', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gla-data-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps writes across a restart and does not apply the seed twice', async () => {
    const first = await startServer(widgetsSeed, { data: dir })
    const created = await first.http('POST', P, { token: ROOT, json: { title: 'Survives restarts' } })
    expect(created.status).toBe(201)
    await first.http('PUT', `${P}/1`, { token: ROOT, json: { state_event: 'close' } })
    await first.close()

    const second = await startServer(widgetsSeed, { data: dir })
    try {
      const list = await second.http('GET', P, { token: ROOT })
      expect((list.body as { iid: number }[]).map((i) => i.iid)).toEqual([6, 5, 4, 3, 2, 1])
      expect((await second.http('GET', `${P}/1`, { token: ROOT })).body).toMatchObject({ state: 'closed' })
    } finally {
      await second.close()
    }
  })
})

/** A persistent server with a metric image uploaded and a finished export: files outside the store. */
async function withFiles(dir: string) {
  const t = await startServer(detailSeed, { data: dir })
  const form = new FormData()
  form.append('file', new Blob([Buffer.from('89504e470d0a1a0a', 'hex')]), 'graph.png')
  const uploaded = await request(`${t.baseUrl}${project}/issues/3/metric_images`, {
    method: 'POST',
    body: form,
    headers: { 'private-token': T.root },
  })
  expect(uploaded.statusCode).toBe(201)
  await uploaded.body.dump()
  expect((await t.http('POST', `${project}/export`, { token: T.root })).status).toBe(202)
  expect((await exportSettled(t, project, T.root)).export_status).toBe('finished')
  return t
}
const project = '/api/v4/projects/acme%2Fwidgets'
const images = (dir: string) => readdirSync(join(dir, 'uploads', 'metric_images'), { recursive: true })
const archives = (dir: string) =>
  readdirSync(join(dir, 'transfers'), { recursive: true }).filter((f) => String(f).endsWith('.tar.gz'))

/** `path mode` of the data dir and of everything in it, e.g. `transfers 700`. */
const modes = (dir: string) =>
  ['.', ...readdirSync(dir, { recursive: true }).map(String)]
    .map((f) => `${f} ${(statSync(join(dir, f)).mode & 0o777).toString(8)}`)
    .sort()

describe('secrets in the data dir', () => {
  let dir: string
  let umask: number
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gla-secrets-'))
    umask = process.umask(0o022) // the usual umask, under which files would be 0644
  })
  afterEach(() => {
    process.umask(umask)
    rmSync(dir, { recursive: true, force: true })
  })
  const data = () => join(dir, 'data')
  const triggers = '/api/v4/projects/acme%2Fwidgets/triggers'

  it('keeps the data dir 0700 and every file in it 0600: database, WAL, archives, images, key', async () => {
    const t = await withFiles(data())
    try {
      const all = modes(data())
      expect(all).toEqual(
        expect.arrayContaining([
          '. 700',
          'gitlab-secrets.json 600',
          'gitlab.sqlite3 600',
          'gitlab.sqlite3-wal 600',
          'gitlab.sqlite3-shm 600',
          'transfers 700',
          'uploads 700',
          'uploads/metric_images 700',
        ]),
      )
      expect(all.filter((m) => m.endsWith('.tar.gz 600'))).toHaveLength(1)
      expect(all.filter((m) => m.endsWith('.png 600'))).toHaveLength(1)
      expect(all.filter((m) => !/ (600|700)$/.test(m))).toEqual([])
    } finally {
      await t.close()
    }
  })

  it('keeps the key in gitlab-secrets.json, never in the database', async () => {
    const t = await startServer(widgetsSeed, { data: data() })
    const created = await t.http('POST', triggers, { token: ROOT, json: { description: 'ci' } })
    await t.close()
    const token = (created.body as { token: string }).token
    expect(token).toMatch(/^glptt-/)

    const db = new DatabaseSync(join(data(), 'gitlab.sqlite3'), { readOnly: true })
    const meta = db.prepare('SELECT key FROM emulator_meta').all()
    const { token_encrypted: sealed } = db.prepare('SELECT token_encrypted FROM triggers').get() as {
      token_encrypted: string
    }
    db.close()
    // No key in the database; the remembered seed and its tokens (printed at a restart) are sealed too.
    expect(meta).toEqual([{ key: 'seed_encrypted' }, { key: 'seed_tokens_encrypted' }])
    expect(readFileSync(join(data(), 'gitlab.sqlite3')).includes(token)).toBe(false)
    const file = JSON.parse(readFileSync(join(data(), 'gitlab-secrets.json'), 'utf8')) as Record<
      string,
      string
    >
    expect(Object.keys(file)).toEqual(['db_key_base'])
    expect(secretBox(Buffer.from(file.db_key_base!, 'hex')).open(sealed)).toBe(token)
  })

  it('does not start without the key file when the database holds sealed tokens', async () => {
    const first = await startServer(widgetsSeed, { data: data() })
    expect((await first.http('POST', triggers, { token: ROOT, json: { description: 'ci' } })).status).toBe(
      201,
    )
    await first.close()
    rmSync(join(data(), 'gitlab-secrets.json'))
    await expect(startServer(widgetsSeed, { data: data() })).rejects.toThrow(
      `${join(data(), 'gitlab-secrets.json')} is missing: the tokens sealed in the database cannot be opened without it`,
    )
    expect(existsSync(join(data(), 'gitlab-secrets.json'))).toBe(false)
  })

  /** Every token digest the store file holds, by table. */
  const digests = (file: string) => {
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      return [
        'personal_access_tokens',
        'triggers',
        'ci_builds',
        'runner_registration_tokens',
        'ci_runners',
      ].flatMap((table) =>
        (db.prepare(`SELECT token_digest FROM ${table}`).all() as { token_digest: string }[]).map(
          (r) => r.token_digest,
        ),
      )
    } finally {
      db.close()
    }
  }
  const sha256 = (token: string) => createHash('sha256').update(token).digest('hex')
  const USERS = { root: ROOT, alice: 'glpat-alice-token', bob: 'glpat-bob-token', carol: 'glpat-carol-token' }

  it("keys token digests with the instance's key: the database alone gives up no guessable token", async () => {
    const t = await startServer(widgetsSeed, { data: data() })
    const created = await t.http('POST', triggers, { token: ROOT, json: { description: 'ci' } })
    await t.close()
    const trigger = (created.body as { token: string }).token
    const stored = digests(join(data(), 'gitlab.sqlite3'))
    expect(stored.length).toBeGreaterThanOrEqual(5)
    // Trying guesses against the file finds nothing: no digest is the token's SHA-256.
    for (const token of [...Object.values(USERS), trigger]) expect(stored).not.toContain(sha256(token))
    for (const digest of stored) expect(digest).toMatch(/^[A-Za-z0-9+/]{43}=$/)
  })

  it('keys the digests of a data dir from the previous release at start; its tokens still work', async () => {
    const first = await startServer(widgetsSeed, { data: data() })
    const created = await first.http('POST', triggers, { token: ROOT, json: { description: 'ci' } })
    await first.close()
    const trigger = (created.body as { token: string }).token
    // The previous release's layout: plain SHA-256 digests (hex) of the same tokens.
    const file = join(data(), 'gitlab.sqlite3')
    const db = new DatabaseSync(file)
    const byUser = db.prepare(
      'UPDATE personal_access_tokens SET token_digest = ? WHERE user_id = (SELECT id FROM users WHERE username = ?)',
    )
    for (const [username, token] of Object.entries(USERS)) byUser.run(sha256(token), username)
    db.prepare('UPDATE triggers SET token_digest = ?').run(sha256(trigger))
    db.close()
    expect(digests(file)).toContain(sha256(ROOT))

    const second = await startServer(widgetsSeed, { data: data() })
    try {
      for (const token of Object.values(USERS))
        expect((await second.http('GET', '/api/v4/user', { token })).status).toBe(200)
      const pipeline = await second.http('POST', '/api/v4/projects/acme%2Fwidgets/trigger/pipeline', {
        form: `ref=main&token=${trigger}`,
      })
      expect(pipeline.status).toBe(201)
      expect((await second.http('GET', '/api/v4/user', { token: 'glpat-wrong' })).status).toBe(401)
    } finally {
      await second.close()
    }
    const stored = digests(file)
    for (const token of [...Object.values(USERS), trigger]) expect(stored).not.toContain(sha256(token))
    // A third start finds nothing left to key, and the tokens still work.
    const third = await startServer(widgetsSeed, { data: data() })
    try {
      expect((await third.http('GET', '/api/v4/user', { token: ROOT })).status).toBe(200)
      expect(digests(file)).toEqual(stored)
    } finally {
      await third.close()
    }
  })

  it('does not start without the key file when the database holds keyed token digests', async () => {
    await (
      await startServer('users:\n  - { username: root, admin: true, token: glpat-root-token }\n', {
        data: data(),
      })
    ).close()
    rmSync(join(data(), 'gitlab-secrets.json'))
    await expect(startServer(widgetsSeed, { data: data() })).rejects.toThrow(
      `${join(data(), 'gitlab-secrets.json')} is missing: the tokens in the database cannot be checked without it`,
    )
  })

  it('moves a key an older release kept in the database to the key file', async () => {
    const first = await startServer(widgetsSeed, { data: data() })
    const created = await first.http('POST', triggers, { token: ROOT, json: { description: 'ci' } })
    await first.close()
    // The older layout: the key (base64) in emulator_meta, no key file.
    const keyFile = join(data(), 'gitlab-secrets.json')
    const hex = (JSON.parse(readFileSync(keyFile, 'utf8')) as { db_key_base: string }).db_key_base
    rmSync(keyFile)
    const db = new DatabaseSync(join(data(), 'gitlab.sqlite3'))
    db.prepare("INSERT INTO emulator_meta (key, value) VALUES ('secret_key', ?)").run(
      Buffer.from(hex, 'hex').toString('base64'),
    )
    db.close()

    const second = await startServer(widgetsSeed, { data: data() })
    try {
      const id = (created.body as { id: number }).id
      const read = await second.http('GET', `${triggers}/${id}`, { token: ROOT })
      expect(read.body).toMatchObject({ token: (created.body as { token: string }).token })
      expect(readFileSync(keyFile, 'utf8')).toContain(hex)
      expect(modes(data())).toContain('gitlab-secrets.json 600')
      expect(inspectDb(second.server.store).prepare('SELECT key FROM emulator_meta').all()).toEqual([
        { key: 'seed_encrypted' },
        { key: 'seed_tokens_encrypted' },
      ])
    } finally {
      await second.close()
    }
    expect(existsSync(keyFile)).toBe(true)
  })
})

describe('POST /-/emulator/reset', () => {
  it('is for administrators and brings back the seed', async () => {
    const t = await startServer(widgetsSeed)
    try {
      await t.http('POST', P, { token: ROOT, json: { title: 'temporary' } })
      const trigger = await t.http('POST', '/api/v4/projects/acme%2Fwidgets/triggers', {
        token: ROOT,
        json: { description: 'temp' },
      })
      expect(trigger.status).toBe(201)
      const denied = await t.http('POST', '/-/emulator/reset', { token: 'glpat-alice-token' })
      expect(denied.status).toBe(403)
      expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
      const list = await t.http('GET', P, { token: ROOT })
      expect((list.body as { iid: number }[]).map((i) => i.iid)).toEqual([5, 4, 3, 2, 1])
      // Every area's tables are emptied, not only the foundation's.
      expect((await t.http('GET', '/api/v4/projects/acme%2Fwidgets/triggers', { token: ROOT })).body).toEqual(
        [],
      )
    } finally {
      await t.close()
    }
  })

  it('removes the files the store pointed at: metric images and export archives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-reset-'))
    const t = await withFiles(dir)
    try {
      expect(images(dir).length).toBeGreaterThan(0)
      expect(archives(dir)).toHaveLength(1)

      expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(200)
      expect(images(dir)).toEqual([])
      expect(archives(dir)).toEqual([])
      expect((await t.http('GET', `${project}/export`, { token: T.root })).body).toMatchObject({
        export_status: 'none',
      })
      expect((await t.http('GET', `${project}/issues/3/metric_images`, { token: T.root })).body).toEqual([])
    } finally {
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('removes no file when the reset fails and its transaction rolls back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gla-reset-'))
    const t = await withFiles(dir)
    // A second connection makes emptying the store fail, as a broken store would.
    const other = new DatabaseSync(join(dir, 'gitlab.sqlite3'))
    try {
      other.exec("CREATE TRIGGER keep_issues BEFORE DELETE ON issues BEGIN SELECT RAISE(ABORT, 'kept'); END")
      const before = { images: images(dir), archives: archives(dir) }
      expect((await t.http('POST', '/-/emulator/reset', { token: T.root })).status).toBe(500)
      expect({ images: images(dir), archives: archives(dir) }).toEqual(before)
      const download = await t.http('GET', `${project}/export/download`, { token: T.root })
      expect(download.status).toBe(200)
      expect((await t.http('GET', `${project}/issues/3/metric_images`, { token: T.root })).body).toHaveLength(
        1,
      )
    } finally {
      other.close()
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('--data DIR keeps the emulator clock', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gla-clock-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const DAY_MS = 86_400_000
  type ClockState = { now: string; frozen: boolean }
  /** Starts on `dir`, runs `act` with the server, closes it. */
  const withServer = async (act: (t: Awaited<ReturnType<typeof startServer>>) => Promise<void>) => {
    const t = await startServer(widgetsSeed, { data: dir })
    try {
      await act(t)
    } finally {
      await t.close()
    }
  }
  const move = async (t: Awaited<ReturnType<typeof startServer>>, json: Record<string, unknown>) =>
    expect((await t.http('POST', '/-/emulator/clock', { token: ROOT, json })).status).toBe(200)
  const clockOf = async (t: Awaited<ReturnType<typeof startServer>>) =>
    (await t.http('GET', '/-/emulator/clock', { token: ROOT })).body as ClockState

  it('a frozen clock stays frozen at its instant across a restart', async () => {
    await withServer((t) => move(t, { action: 'freeze', time: '2031-05-01T12:00:00Z' }))
    await withServer(async (t) => {
      expect(await clockOf(t)).toEqual({ now: '2031-05-01T12:00:00.000Z', frozen: true })
      // Still no going back: the kept instant is the server's time.
      const back = await t.http('POST', '/-/emulator/clock', {
        token: ROOT,
        json: { action: 'set', time: '2031-05-01T11:00:00Z' },
      })
      expect(back.status).toBe(409)
    })
  })

  it('a shifted clock runs on shifted after a restart, and a reset forgets the shift', async () => {
    await withServer((t) => move(t, { action: 'advance', seconds: 2 * 86_400 }))
    await withServer(async (t) => {
      const state = await clockOf(t)
      expect(state.frozen).toBe(false)
      const shift = Date.parse(state.now) - Date.now()
      expect(shift).toBeGreaterThan(2 * DAY_MS - 60_000)
      expect(shift).toBeLessThan(2 * DAY_MS + 60_000)
      expect((await t.http('POST', '/-/emulator/reset', { token: ROOT })).status).toBe(200)
    })
    await withServer(async (t) => {
      const state = await clockOf(t)
      expect(state.frozen).toBe(false)
      expect(Math.abs(Date.parse(state.now) - Date.now())).toBeLessThan(60_000)
    })
  })
})
