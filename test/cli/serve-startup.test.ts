import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import { apiBaseIn, lineFrom } from '../support/spawned.js'

/*
 * What `serve` does to start quickly (issue 21), through the real bin: the Node modules it loads
 * before its first answer (`process.moduleLoadList` as the process exits), and the V8 code cache
 * it keeps of itself (src/cli/serve-script.ts), here in a compile cache directory of the test's own.
 */
const root = resolve(__dirname, '../..')
const bin = resolve(root, 'bin/gitlab-actions.js')
const seedFile = resolve(root, 'examples/seed.yaml')

let dir: string
let made: string
let generated: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-startup-'))
  made = join(dir, 'made.txt')
  generated = join(dir, 'generated.json')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/**
 * One `serve` (with examples/seed.yaml, or `seed` as given): started, asked for a project's issues
 * (200, or 401 on the empty store of `--seed none`, where no token is known), stopped by SIGTERM;
 * Node's modules it loaded. The code it generated with `new Function` is in `generatedCode()`.
 */
async function firstAnswer(env: Record<string, string> = {}, seed = seedFile): Promise<string[]> {
  const list = join(dir, 'modules.txt')
  const preload = join(dir, 'record.mjs')
  rmSync(made, { force: true })
  writeFileSync(
    preload,
    [
      // Built-ins taken, not imported: an import would load what a test below checks serve does not.
      `const { appendFileSync, writeFileSync } = process.getBuiltinModule('node:fs')`,
      `const { Script } = process.getBuiltinModule('node:vm')`,
      `process.on('exit', () => writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')))`,
      // Each code cache the run makes (50-80 ms of CPU), written down as it is made.
      `const make = Script.prototype.createCachedData`,
      `Script.prototype.createCachedData = function () { appendFileSync(${JSON.stringify(made)}, 'made\\n'); return make.call(this) }`,
      // Each function body compiled with `new Function`, which no code cache holds, and when.
      `const { subscribe } = process.getBuiltinModule('node:diagnostics_channel')`,
      `let requested = false`,
      `subscribe('http.server.request.start', () => { requested = true })`,
      `const generated = []`,
      `globalThis.Function = new Proxy(Function, { construct: (target, args, newTarget) => { generated.push({ body: String(args.at(-1)), requested }); return Reflect.construct(target, args, newTarget) } })`,
      `process.on('exit', () => writeFileSync(${JSON.stringify(generated)}, JSON.stringify(generated)))`,
    ].join('\n'),
  )
  const child = spawn(process.execPath, ['--import', preload, bin, 'serve', '--port', '0', '--seed', seed], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache'), ...env },
  })
  const api = apiBaseIn(await lineFrom(child, /listening on/))
  const res = await request(`${api}/api/v4/projects/acme%2Fwidgets/issues`, {
    headers: { 'private-token': 'glpat-root-token' },
  })
  await res.body.dump()
  expect(res.statusCode).toBe(seed === 'none' ? 401 : 200)
  child.kill('SIGTERM')
  const [code] = await once(child, 'exit')
  expect(code).toBe(0)
  return readFileSync(list, 'utf8').split('\n')
}

/**
 * `serve --seed <seed>` started by node with `nodeArgs` (a preload that records something), and the
 * compile cache of the runs before it: one `GET /version` once listening, then SIGTERM (exit 0).
 */
async function versionOnce(nodeArgs: string[], seed: string): Promise<void> {
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve', '--port', '0', '--seed', seed], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache') },
  })
  const api = apiBaseIn(await lineFrom(child, /listening on/))
  await (await request(`${api}/api/v4/version`)).body.dump()
  child.kill('SIGTERM')
  expect((await once(child, 'exit'))[0]).toBe(0)
}

/** The function bodies the last `firstAnswer` run compiled with `new Function`: before its first request or after. */
const generatedCode = () =>
  JSON.parse(readFileSync(generated, 'utf8')) as { body: string; requested: boolean }[]

/** How many code caches the last `firstAnswer` run made. */
const cachesMade = () => (existsSync(made) ? readFileSync(made, 'utf8').split('\n').length - 1 : 0)

/** The code cache files of serve in the test's compile cache directory (under Node's versioned folder). */
function serveCaches(): string[] {
  const base = join(dir, 'cache')
  const versions = (() => {
    try {
      return readdirSync(base)
    } catch {
      return []
    }
  })()
  return versions.flatMap((version) =>
    readdirSync(join(base, version))
      .filter((name) => name.startsWith('gitlab-actions-serve-'))
      .map((name) => join(base, version, name)),
  )
}

describe('gitlab-actions serve start-up', () => {
  it('answers without loading TLS or HTTP/2 (Fastify requires them for options serve never sets)', async () => {
    const modules = await firstAnswer()
    expect(modules).toContain('NativeModule http')
    for (const unused of ['https', 'http2', 'tls'])
      expect([unused, modules.includes(`NativeModule ${unused}`)]).toEqual([unused, false])
  })

  it('answers without node:assert (its requirers in the bundle call a stand-in that loads it only to throw)', async () => {
    const modules = await firstAnswer()
    expect(modules.filter((m) => /^NativeModule (assert|internal\/assert\/)/.test(m))).toEqual([])
  })

  it('answers without the modules that ES imports of node:fs and node:util would load', async () => {
    // An ES import of a built-in makes a module facade that reads every export, lazy ones too.
    const modules = await firstAnswer()
    expect(modules).toContain('NativeModule fs')
    for (const unused of ['internal/fs/streams', 'worker_threads'])
      expect([unused, modules.includes(`NativeModule ${unused}`)]).toEqual([unused, false])
  })

  it("compiles none of the router's code before its first request (each piece when first used)", async () => {
    await firstAnswer()
    // find-my-way's matcher of a static node (a charCodeAt test per character), and its builder
    // of a route's params object.
    const routerCode = generatedCode().filter(
      ({ body }) =>
        body.includes('path.charCodeAt(i + 1) ===') || body.includes('function _createParamsObject'),
    )
    expect(routerCode.filter(({ requested }) => !requested)).toEqual([])
    expect(routerCode.length).toBeGreaterThan(1) // those of the route the request took
  })

  it("checks the seed with TypeBox's check compiled at build time, generating none at start", async () => {
    await firstAnswer()
    expect(generatedCode().filter(({ body }) => body.includes('return function check(value)'))).toEqual([])
  })

  it('keeps a code cache after its first run, which the next run uses without writing it again', async () => {
    await firstAnswer()
    expect(cachesMade()).toBe(1)
    const caches = serveCaches()
    expect(caches).toHaveLength(1)
    const written = statSync(caches[0]!)
    expect(written.size).toBeGreaterThan(100_000) // more than the functions compiled before running
    await firstAnswer()
    expect(cachesMade()).toBe(0) // not even made to be compared
    expect(serveCaches()).toEqual(caches)
    const after = statSync(caches[0]!)
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs])
  })

  it('grows the cache of a first run that read no seed with the next run that does', async () => {
    await firstAnswer({}, 'none')
    const [cache] = serveCaches()
    const seedless = statSync(cache!).size
    await firstAnswer({}, 'none')
    expect(cachesMade()).toBe(0)
    await firstAnswer()
    expect(cachesMade()).toBe(1)
    expect(serveCaches()).toEqual([cache])
    const grown = statSync(cache!)
    expect(grown.size).toBeGreaterThan(seedless)
    for (const seed of [seedFile, 'none']) {
      await firstAnswer({}, seed)
      expect([seed, cachesMade()]).toEqual([seed, 0])
    }
    expect([statSync(cache!).mtimeMs, statSync(cache!).size]).toEqual([grown.mtimeMs, grown.size])
  })

  it('replaces a cache V8 refuses, and keeps none when the compile cache is off', async () => {
    await firstAnswer()
    const [cache] = serveCaches()
    writeFileSync(cache!, 'not a code cache')
    await firstAnswer()
    expect(readFileSync(cache!).length).toBeGreaterThan(100_000)

    rmSync(join(dir, 'cache'), { recursive: true, force: true })
    await firstAnswer({ NODE_DISABLE_COMPILE_CACHE: '1' })
    expect(serveCaches()).toEqual([])
  })

  it("lets go once listening of what only its start needed: the script's Buffers, a young generation grown by the start", async () => {
    // At the first request: the bytes held in ArrayBuffers, and the young generation's size (both
    // semi-spaces). Before: 3.6 MB (serve.cjs's source and its code cache, 1.8 MB each) and 8 MB.
    const preload = join(dir, 'memory.mjs')
    const out = join(dir, 'memory.json')
    writeFileSync(
      preload,
      [
        `const { writeFileSync } = process.getBuiltinModule('node:fs')`,
        `const { subscribe, unsubscribe } = process.getBuiltinModule('node:diagnostics_channel')`,
        `const first = () => {`,
        `  unsubscribe('http.server.request.start', first)`,
        `  const young = process.getBuiltinModule('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')`,
        `  writeFileSync(${JSON.stringify(out)}, JSON.stringify({ arrayBuffers: process.memoryUsage().arrayBuffers, young: young.space_size }))`,
        `}`,
        `subscribe('http.server.request.start', first)`,
      ].join('\n'),
    )
    await firstAnswer({}, 'none') // the code cache the next start reads
    await versionOnce(['--import', preload], 'none')
    const { arrayBuffers, young } = JSON.parse(readFileSync(out, 'utf8')) as Record<string, number>
    expect(arrayBuffers).toBeLessThan(1024 * 1024)
    expect(young).toBeLessThan(8 * 1024 * 1024)
  })

  it("loads no built-in while its start flags change V8's code cache hash (listen's cluster is loaded before)", async () => {
    // From `listen`'s start (the start's V8 flags set) to the first request (V8's own again): the flags'
    // hash, which V8 checks every code cache against, Node's built-ins' own too, and the built-ins
    // loaded meanwhile, each of which would then be compiled from its source.
    const preload = join(dir, 'window.mjs')
    const out = join(dir, 'window.json')
    writeFileSync(
      preload,
      [
        `const { subscribe, unsubscribe } = process.getBuiltinModule('node:diagnostics_channel')`,
        `const { writeFileSync } = process.getBuiltinModule('node:fs')`,
        `const { cachedDataVersionTag } = process.getBuiltinModule('node:v8')`,
        `const own = cachedDataVersionTag()`,
        `let from = 0`,
        `let flagged = false`,
        `const starting = () => {`,
        `  unsubscribe('tracing:net.server.listen:asyncStart', starting)`,
        `  from = process.moduleLoadList.length`,
        `  flagged = cachedDataVersionTag() !== own`,
        `}`,
        `const first = () => {`,
        `  unsubscribe('http.server.request.start', first)`,
        `  const loaded = process.moduleLoadList.slice(from).filter((m) => m.startsWith('NativeModule '))`,
        `  writeFileSync(${JSON.stringify(out)}, JSON.stringify({ flagged, loaded }))`,
        `}`,
        `subscribe('tracing:net.server.listen:asyncStart', starting)`,
        `subscribe('http.server.request.start', first)`,
      ].join('\n'),
    )
    await firstAnswer() // the code cache the next start reads
    await versionOnce(['--import', preload], seedFile)
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ flagged: true, loaded: [] })
  })

  it("compiles nothing with V8's optimizing compilers while starting, and does once listening", async () => {
    // A fresh function run hot for up to 300 ms as the server starts listening, and at the first
    // request: whether V8 optimized it (Maglev or Turbofan) by then.
    const preload = join(dir, 'tiers.mjs')
    const out = join(dir, 'tiers.json')
    writeFileSync(
      preload,
      [
        `const { subscribe, unsubscribe } = process.getBuiltinModule('node:diagnostics_channel')`,
        `const { writeFileSync } = process.getBuiltinModule('node:fs')`,
        `const seen = {}`,
        `const optimized = () => {`,
        `  const f = new Function('a', 'return (a * 31 + 7) % 1000003')`,
        `  const end = Date.now() + 300`,
        `  let x = 0`,
        `  while (Date.now() < end) {`,
        `    for (let i = 0; i < 10000; i++) x = f(x + i)`,
        `    if (%ActiveTierIsMaglev(f) || %ActiveTierIsTurbofan(f)) return true`,
        `  }`,
        `  return false`,
        `}`,
        `const starting = () => {`,
        `  unsubscribe('tracing:net.server.listen:asyncStart', starting)`,
        `  seen.starting = optimized()`,
        `}`,
        `const first = () => {`,
        `  unsubscribe('http.server.request.start', first)`,
        `  seen.listening = optimized()`,
        `  writeFileSync(${JSON.stringify(out)}, JSON.stringify(seen))`,
        `}`,
        `subscribe('tracing:net.server.listen:asyncStart', starting)`,
        `subscribe('http.server.request.start', first)`,
      ].join('\n'),
    )
    await versionOnce(['--allow-natives-syntax', '--import', preload], 'none')
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ starting: false, listening: true })
  })

  it('keeps no cache of a run that answered nothing (--help), which would stand for every later start', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--help'], {
      stdio: 'ignore',
      env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache') },
    })
    expect((await once(child, 'exit'))[0]).toBe(0)
    expect(serveCaches()).toEqual([])
    await firstAnswer()
    expect(serveCaches()).toHaveLength(1)
  })
})
