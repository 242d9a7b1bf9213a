import { spawn } from 'node:child_process'
import { once } from 'node:events'
import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import { apiBaseIn, lineFrom } from '../support/spawned.js'

/*
 * `serve --seed FILE` through the real bin keeps the store it seeded as an image in Node's compile
 * cache directory (here one of the test's own), and the next start with the same file loads it
 * (src/server/services/seed-image.ts, src/server/store/seeded-image.ts). An image must never serve
 * another world than the file gives: each start below is compared with a start from a cache
 * directory of its own, which reads the seed.
 */
const root = resolve(__dirname, '../..')
const bin = resolve(root, 'bin/gitlab-actions.js')
const example = readFileSync(resolve(root, 'examples/seed.yaml'), 'utf8')
const TOKEN = 'glpat-root-token'
// The image is made at one time and loaded at another: what it stamped with the first must show the second.
const MADE_AT = '2030-03-01T08:00:00.000Z'
const LOADED_AT = '2030-06-15T12:00:00.000Z'

/** Answers compared between two starts: every record the seed writes, as the API shows it. */
const PATHS = [
  '/users?per_page=100',
  '/groups?per_page=100&all_available=true',
  '/projects?per_page=100',
  '/projects/acme%2Fwidgets/issues?per_page=100',
  '/projects/alice%2Fsandbox/issues',
  '/projects/acme%2Fwidgets/labels?per_page=100',
  '/projects/acme%2Fwidgets/milestones',
  '/projects/acme%2Fwidgets/members/all',
  '/groups/acme/members',
  '/projects/acme%2Fwidgets/triggers',
  '/projects/acme%2Fwidgets/repository/branches',
  '/projects/acme%2Fwidgets/protected_branches',
  '/projects/acme%2Fwidgets/issues/1/closed_by',
  '/personal_access_tokens?per_page=100',
  '/project_aliases',
]

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-seed-image-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A seed file in the test's directory. */
function seedFile(text: string, name = 'seed.yaml'): string {
  const file = join(dir, name)
  writeFileSync(file, text)
  return file
}

/**
 * One `serve` with compile cache `cache` (a folder under the test's directory) and the clock frozen
 * at `at`: the answers to `PATHS` (status and body, the server's own address written as BASE), after
 * which `then` gets the API's base URL; and its lines on stdout.
 */
async function serve(
  seed: string,
  { cache = 'cache', at = LOADED_AT, args = [] as string[], then = async (_api: string) => {} } = {},
): Promise<{ answers: Record<string, { status: number; body: unknown }>; out: string }> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--seed', seed, '--clock', `frozen:${at}`, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_COMPILE_CACHE: join(dir, cache) } },
  )
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  try {
    const base = apiBaseIn(await lineFrom(child, /listening on/))
    const answers: Record<string, { status: number; body: unknown }> = {}
    for (const path of PATHS) {
      const res = await request(`${base}/api/v4${path}`, { headers: { 'private-token': TOKEN } })
      const text = await res.body.text()
      answers[path] = { status: res.statusCode, body: JSON.parse(text.replaceAll(base, 'BASE')) as unknown }
    }
    await then(`${base}/api/v4`)
    return { answers, out }
  } finally {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
}

/** `serve` with the built-in seed and compile cache `cache`, the clock frozen at `at`; `then` gets the API's base URL. */
async function serveBuiltIn(cache: string, at: string, then: (api: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--clock', `frozen:${at}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_COMPILE_CACHE: join(dir, cache) },
  })
  try {
    await then(`${apiBaseIn(await lineFrom(child, /listening on/))}/api/v4`)
  } finally {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
}

/** The seeded images in compile cache `cache`, with their inode and mtime (a rewrite changes both). */
function images(cache = 'cache'): { file: string; id: string }[] {
  return readdirSync(join(dir, cache), { recursive: true, encoding: 'utf8' })
    .filter((name) => /gitlab-actions-seeded-[0-9a-f]+\.sqlite3$/.test(name))
    .map((name) => {
      const file = join(dir, cache, name)
      const stat = statSync(file)
      return { file, id: `${stat.ino}:${stat.mtimeMs}` }
    })
}

/** What a start that reads the seed file (a compile cache of its own, empty) answers. */
const fresh = async (seed: string, args: string[] = []) =>
  (await serve(seed, { cache: `fresh-${Math.random()}`, args })).answers

describe('serve --seed FILE, a second time', () => {
  it('loads the image the first start kept: the same world, stamped with its own time', async () => {
    const seed = seedFile(example)
    await serve(seed, { at: MADE_AT })
    const [kept] = images()
    expect(kept).toBeDefined()
    expect(statSync(kept!.file).mode & 0o777).toBe(0o600) // it holds the seed's tokens

    const second = await serve(seed)
    expect(images()).toEqual([kept]) // read, not written again
    expect(Object.values(second.answers).map((a) => a.status)).toEqual(PATHS.map(() => 200))
    expect(second.answers).toEqual(await fresh(seed))
    // What the seed stamped with its time carries this start's, not the time the image was made.
    const projects = second.answers['/projects?per_page=100']!.body as { created_at: string }[]
    expect(projects.map((p) => p.created_at)).toEqual(projects.map(() => LOADED_AT))
    const sandbox = second.answers['/projects/alice%2Fsandbox/issues']!.body as { created_at: string }[]
    expect(sandbox.map((i) => i.created_at)).toEqual([LOADED_AT])
    const widgets = second.answers['/projects/acme%2Fwidgets/issues?per_page=100']!.body as {
      created_at: string
    }[]
    expect(widgets.map((i) => i.created_at)).toContain('2026-11-02T10:00:00.000Z') // as the seed gives it
  })

  it('resets to the seed, and takes more seed, as a start that read the file', async () => {
    const seed = seedFile(example)
    await serve(seed, { at: MADE_AT })
    const afterReset = async (api: string) => {
      const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
      const made = await request(`${api}/projects/acme%2Fwidgets/issues`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Made through the API' }),
      })
      expect(made.statusCode).toBe(201)
      await made.body.dump()
      const reset = await request(`${api.replace('/api/v4', '')}/-/emulator/reset`, {
        method: 'POST',
        headers,
      })
      expect(reset.statusCode).toBe(200)
      await reset.body.dump()
      const list = await request(`${api}/projects/acme%2Fwidgets/issues?per_page=100`, { headers })
      const issues = (await list.body.json()) as { iid: number; title: string }[]
      return issues.map((i) => `${i.iid} ${i.title}`)
    }
    let fromImage: string[] = []
    let fromFile: string[] = []
    await serve(seed, { then: async (api) => void (fromImage = await afterReset(api)) })
    await serve(seed, { cache: 'other', then: async (api) => void (fromFile = await afterReset(api)) })
    expect(fromImage).toEqual(fromFile)
    expect(fromImage).toHaveLength(8)
    expect(fromImage).not.toContain('9 Made through the API')
  })

  it("signs each start's page sessions with a key of its own: one start refuses another's cookie", async () => {
    const seed = seedFile(example)
    await serve(seed, { at: MADE_AT })
    const [kept] = images()
    /** The private project's page with `cookie`: its status, and whether it names the project. */
    const page = async (api: string, cookie: string) => {
      const res = await request(`${api.replace('/api/v4', '')}/acme/widgets`, { headers: { cookie } })
      return { status: res.statusCode, named: (await res.body.text()).includes('Widgets') }
    }
    let cookie = ''
    await serve(seed, {
      then: async (api) => {
        const signIn = await request(`${api.replace('/api/v4', '')}/users/sign_in`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `token=${TOKEN}&redirect_to=%2F`,
        })
        expect(signIn.statusCode).toBe(303)
        await signIn.body.dump()
        cookie = /_gitlab_session=[^;]+/.exec(String(signIn.headers['set-cookie']))?.[0] ?? ''
        expect(cookie).not.toBe('')
        expect(await page(api, cookie)).toEqual({ status: 200, named: true }) // its own start takes it
      },
    })
    let elsewhere: { status: number; named: boolean } | undefined
    await serve(seed, { then: async (api) => void (elsewhere = await page(api, cookie)) })
    expect(images()).toEqual([kept]) // both later starts loaded the one image
    expect(elsewhere).toEqual({ status: 404, named: false })
  })

  it('reads a changed file again, even of the same size and mtime', async () => {
    const seed = seedFile(example)
    await serve(seed, { at: MADE_AT })
    const { mtime } = statSync(seed)
    writeFileSync(seed, example.replace('title: Crash on start', 'title: Crash at start'))
    utimesSync(seed, mtime, mtime)
    expect(statSync(seed).size).toBe(Buffer.byteLength(example))

    const second = await serve(seed)
    const issues = second.answers['/projects/acme%2Fwidgets/issues?per_page=100']!.body as { title: string }[]
    const titles = issues.map((i) => i.title)
    expect(titles).toContain('Crash at start')
    expect(titles).not.toContain('Crash on start')
    expect(second.answers).toEqual(await fresh(seed))
    expect(images()).toHaveLength(2) // one per content
  })

  it('keeps an image per release and edition', async () => {
    const seed = seedFile(example)
    await serve(seed, { at: MADE_AT })
    const ce = ['--edition', 'ce', '--gitlab-version', '17.11.0']
    await serve(seed, { at: MADE_AT, args: ce })
    expect(images()).toHaveLength(2)
    const ids = images().map((i) => i.id)
    const second = await serve(seed, { args: ce })
    expect(images().map((i) => i.id)).toEqual(ids)
    expect(second.answers).toEqual(await fresh(seed, ce))
  })

  it('reads the seed again over an image that is broken, foreign or open to others, and replaces it', async () => {
    const seed = seedFile(example)
    const other = seedFile(example.replace('name: Widgets', 'name: Gadgets'), 'other.yaml')
    await serve(seed, { at: MADE_AT })
    const [kept] = images()
    const expected = await fresh(seed)
    await serve(other, { at: MADE_AT })
    const foreign = images().find((i) => i.file !== kept!.file)!

    const broken = (bytes: Buffer) => bytes.subarray(0, bytes.length - 1000)
    const spoilers: [string, () => void][] = [
      ['not an image', () => writeFileSync(kept!.file, 'not an image')],
      ['truncated', () => writeFileSync(kept!.file, broken(readFileSync(kept!.file)))],
      ['another seed', () => copyFileSync(foreign.file, kept!.file)],
      [
        'a changed byte',
        () => {
          const bytes = readFileSync(kept!.file)
          const at = bytes.length - 5000
          bytes[at] = bytes[at]! ^ 1
          writeFileSync(kept!.file, bytes)
        },
      ],
      ['writable by others', () => chmodSync(kept!.file, 0o666)],
    ]
    for (const [what, spoil] of spoilers) {
      spoil()
      const before = statSync(kept!.file)
      const { answers } = await serve(seed)
      expect([what, answers]).toEqual([what, expected])
      const after = statSync(kept!.file)
      expect([what, after.ino === before.ino, after.mode & 0o777]).toEqual([what, false, 0o600])
    }
  })

  it('keeps no image of a seed that names a date near its time, which the time could be mistaken for', async () => {
    const seed = seedFile(example)
    // Frozen on the day of an issue's created_at: its stamp could be that issue's own time.
    const at = '2026-11-02T10:00:00.000Z'
    const { answers } = await serve(seed, { at })
    expect(images()).toEqual([])
    const issues = answers['/projects/acme%2Fwidgets/issues?per_page=100']!.body as {
      iid: number
      created_at: string
    }[]
    expect(issues.find((i) => i.iid === 1)?.created_at).toBe(at)
  })

  it('keeps the built-in seed on loopback, and not off it, where its tokens are random', async () => {
    const builtIn = async (cache: string, at: string) => {
      let out = ''
      const issues = async (api: string) => {
        const res = await request(`${api}/projects/demo%2Fapp/issues`, {
          headers: { 'private-token': 'glpat-emulator-alice-token' },
        })
        out = `${res.statusCode} ${(await res.body.text()).replaceAll(api.replace('/api/v4', ''), 'BASE')}`
      }
      await serveBuiltIn(cache, at, issues)
      return out
    }
    const first = await builtIn('cache', MADE_AT)
    const [kept] = images()
    expect(kept).toBeDefined()
    const second = await builtIn('cache', LOADED_AT)
    expect(images()).toEqual([kept])
    expect(second).toBe(await builtIn('fresh', LOADED_AT))
    expect(second).toMatch(/^200 \[/)
    expect(second).toContain(`"created_at":"${LOADED_AT}"`) // the issues the seed stamps
    expect(first).toContain(`"created_at":"${MADE_AT}"`)

    const offLoopback = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '0.0.0.0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'off') },
    })
    await lineFrom(offLoopback, /listening on/)
    offLoopback.kill('SIGTERM')
    await once(offLoopback, 'exit')
    expect(images('off')).toEqual([])
  })

  it('keeps the newest four images, each as large as its store, and removes older ones', async () => {
    const seeds = [0, 1, 2, 3, 4].map((n) =>
      seedFile(example.replace('name: Widgets', `name: Widgets ${n}`), `seed-${n}.yaml`),
    )
    const made: string[][] = []
    for (const seed of seeds) {
      await serve(seed, { at: MADE_AT })
      made.push(images().map((i) => i.file))
    }
    expect(made.map((files) => files.length)).toEqual([1, 2, 3, 4, 4])
    const first = made[0]![0]!
    expect(made[4]).not.toContain(first)
    expect(made[4]).toEqual(expect.arrayContaining(made[3]!.filter((f) => f !== first)))
  })

  it('keeps none without the compile cache', async () => {
    const seed = seedFile(example)
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--seed', seed], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache'), NODE_DISABLE_COMPILE_CACHE: '1' },
    })
    await lineFrom(child, /listening on/)
    child.kill('SIGTERM')
    await once(child, 'exit')
    expect(() => images()).toThrow(/ENOENT/)
  })
})
