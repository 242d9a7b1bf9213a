import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Agent, request } from 'undici'
import { secretBox } from '../../src/server/store/secret-box.js'
import { killed, startServe } from '../support/serve-child.js'
import { rootAndAcme } from '../support/seeds.js'

/*
 * The real CLI (`gitlab-actions serve --data DIR`, compiled in build/) under
 * concurrent creates and edits, killed with SIGKILL at a random moment, restarted, for N cycles:
 *   - every write that got a 2xx is there after the restart (an edit in flight at the kill may or
 *     may not have landed, but then wholly);
 *   - nothing half-written is visible: each issue has both labels it was created with, and its
 *     title and description (always written together) agree;
 *   - `PRAGMA integrity_check` says ok on the file the killed server left behind;
 *   - that file (and its WAL) holds no plain token, and no key that opens the sealed ones: the key is
 *     in `gitlab-secrets.json`; the data dir is 0700 and every file in it 0600.
 * GLA_DURABILITY_CYCLES sets N: CI runs 5; the full run is GLA_DURABILITY_CYCLES=20.
 */
const CYCLES = Number(process.env.GLA_DURABILITY_CYCLES ?? 5)
const WRITERS = 8
const ROOT = 'glpat-root-token'
const TRIGGER = `glptt-${'d1ce'.repeat(10)}`
const PROJECT = '/api/v4/projects/acme%2Fwidgets/issues'
const seed = rootAndAcme(`
projects:
  - path: acme/widgets
    labels: [ { name: bug, color: "#d9534f" }, { name: feature, color: "#5cb85c" } ]
    refs: [main]
    ci_jobs: [build]
    ci_job_duration: 1h
    triggers: [ { description: deploy, owner: root, token: ${TRIGGER} } ]
`)

/**
 * What a copy of the data dir gives away: the modes of the dir and its files, plain tokens found in
 * the database or its WAL, and the sealed tokens that any value kept in the database decrypts.
 */
function exposure(data: string, db: DatabaseSync) {
  const modes = ['.', ...readdirSync(data, { recursive: true }).map(String)]
    .map((f) => {
      const st = statSync(join(data, f))
      return `${f} ${st.isDirectory() ? 'dir' : 'file'} ${(st.mode & 0o777).toString(8)}`
    })
    .sort()
  const bytes = Buffer.concat(
    ['gitlab.sqlite3', 'gitlab.sqlite3-wal']
      .filter((f) => readdirSync(data).includes(f))
      .map((f) => readFileSync(join(data, f))),
  )
  const plain = [ROOT, TRIGGER].filter((token) => bytes.includes(token))
  const sealed = db
    .prepare('SELECT token_encrypted AS s FROM triggers UNION ALL SELECT token_encrypted FROM ci_builds')
    .all() as { s: string }[]
  const candidates = (db.prepare('SELECT value FROM emulator_meta').all() as { value: string }[]).flatMap(
    (r) => [Buffer.from(r.value, 'base64'), Buffer.from(r.value, 'hex')].filter((k) => k.length === 32),
  )
  const opens = (key: Buffer) =>
    sealed.filter(({ s }) => {
      try {
        return secretBox(key).open(s).length > 0
      } catch {
        return false
      }
    }).length
  const keyFile = join(data, 'gitlab-secrets.json')
  const file = readdirSync(data).includes('gitlab-secrets.json')
    ? (JSON.parse(readFileSync(keyFile, 'utf8')) as { db_key_base: string })
    : undefined
  return {
    modes,
    plain,
    openedWithDatabaseKeys: candidates.reduce((n, key) => n + opens(key), 0),
    /** The real key does open them: the check above has something to find. */
    openedWithKeyFile:
      !!file && opens(Buffer.from(file.db_key_base, 'hex')) === sealed.length && sealed.length > 1,
  }
}

interface Expected {
  /** The last acknowledged version of title/description (`v0` = as created). */
  acked: string
  /** A version sent but not acknowledged when the server died: it may have landed. */
  pending?: string
}

describe('durability: SIGKILL at random moments under concurrent writes', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gla-durability-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it(
    `keeps every acknowledged write across ${CYCLES} kill-and-restart cycles`,
    async () => {
      const data = join(dir, 'data')
      const seedFile = join(dir, 'seed.yaml')
      writeFileSync(seedFile, seed)
      const expected = new Map<number, Expected>()
      const owner = new Map<number, number>() // iid -> writer
      let acknowledgedCreates = 0

      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const { child, url } = await startServe(data, seedFile, ['--issues-create-limit', '0'])
        const agent = new Agent({ connections: WRITERS * 2 })
        // A pipeline per cycle: its job's token is sealed in ci_builds.
        const triggered = await request(`${url}/api/v4/projects/acme%2Fwidgets/trigger/pipeline`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `ref=main&token=${TRIGGER}`,
          dispatcher: agent,
        })
        expect(triggered.statusCode).toBe(201)
        await triggered.body.dump()
        let stop = false
        const call = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
          const res = await request(`${url}${path}`, {
            method,
            headers: { 'private-token': ROOT, 'content-type': 'application/json' },
            body: JSON.stringify(body),
            dispatcher: agent,
          })
          const text = await res.body.text()
          return {
            status: res.statusCode,
            json: res.statusCode < 300 ? (JSON.parse(text) as { iid: number }) : null,
          }
        }
        const writer = async (w: number) => {
          for (let n = 0; !stop; n++) {
            const mine = [...owner].filter(([, o]) => o === w).map(([iid]) => iid)
            const iid = mine[n % Math.max(1, mine.length)]
            if (n % 2 === 0 || iid === undefined) {
              const token = `c${cycle}-w${w}-n${n}`
              try {
                const res = await call('POST', PROJECT, {
                  title: token,
                  description: token,
                  labels: 'bug,feature',
                })
                if (res.status !== 201 || !res.json) throw new Error(`create answered ${res.status}`)
                expected.set(res.json.iid, { acked: token })
                owner.set(res.json.iid, w)
                acknowledgedCreates++
              } catch {
                return // the server died with this create in flight: it may or may not exist
              }
            } else {
              const entry = expected.get(iid) as Expected
              const token = `c${cycle}-w${w}-n${n}-edit`
              entry.pending = token
              try {
                const res = await call('PUT', `${PROJECT}/${iid}`, { title: token, description: token })
                if (res.status !== 200) throw new Error(`edit answered ${res.status}`)
                entry.acked = token
                delete entry.pending
              } catch {
                return
              }
            }
          }
        }
        const writers = Array.from({ length: WRITERS }, (_, w) => writer(w))
        await new Promise((r) => setTimeout(r, 150 + Math.random() * 600))
        await killed(child)
        stop = true
        await Promise.all(writers)
        await agent.close()

        // The file the killed server left: whole, with its WAL.
        const db = new DatabaseSync(join(data, 'gitlab.sqlite3'), { readOnly: true })
        try {
          expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
          const seen = exposure(data, db)
          expect(seen).toEqual({
            modes: expect.arrayContaining([
              '. dir 700',
              'gitlab-secrets.json file 600',
              'gitlab.sqlite3 file 600',
            ]),
            plain: [],
            openedWithDatabaseKeys: 0,
            openedWithKeyFile: true,
          })
          expect(seen.modes.filter((m) => !/ (dir 700|file 600)$/.test(m))).toEqual([])
        } finally {
          db.close()
        }
      }

      // Restart once more and read everything back through the API.
      const { child, url } = await startServe(data, seedFile, ['--issues-create-limit', '0'])
      try {
        const seen = new Map<number, { title: string; description: string | null; labels: string[] }>()
        for (let page = 1; ; page++) {
          const res = await request(`${url}${PROJECT}?per_page=100&page=${page}`, {
            headers: { 'private-token': ROOT },
          })
          const items = (await res.body.json()) as {
            iid: number
            title: string
            description: string | null
            labels: string[]
          }[]
          for (const i of items) seen.set(i.iid, i)
          if (items.length < 100) break
        }
        const problems: string[] = []
        for (const [iid, want] of expected) {
          const got = seen.get(iid)
          if (!got) problems.push(`#${iid} acknowledged but missing`)
          else if (got.title !== want.acked && got.title !== want.pending)
            problems.push(`#${iid} title ${got.title}, acknowledged ${want.acked} (pending ${want.pending})`)
        }
        for (const [iid, got] of seen) {
          if (got.title !== got.description)
            problems.push(`#${iid} half-written: ${got.title} / ${got.description}`)
          if ([...got.labels].sort().join(',') !== 'bug,feature')
            problems.push(`#${iid} labels ${got.labels}`)
        }
        expect(problems).toEqual([])
        expect(acknowledgedCreates).toBeGreaterThan(CYCLES)
      } finally {
        await killed(child)
      }
    },
    60_000 + CYCLES * 15_000,
  )
})
