import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import { apiBaseIn, lineFrom } from '../support/spawned.js'

/*
 * `serve` through the real bin: the packages a start never runs live in files of their own beside
 * build/cli-bundle/serve.cjs (scripts/lazy-packages.mjs), read the first time they are used. Which
 * files a process loaded is read from Node's own account of its module loads (NODE_DEBUG=module).
 */
const root = resolve(__dirname, '../..')
const bin = resolve(root, 'bin/gitlab-actions.js')
const bundle = resolve(root, 'build/cli-bundle')
const ROOT_TOKEN = { 'private-token': 'glpat-emulator-root-token' }

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-serve-chunks-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** One `serve` with `args` and a compile cache of its own: `then` gets the API's base URL; the chunks it loaded. */
async function serveLoading(args: string[], then: (api: string) => Promise<void>): Promise<string[]> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_DEBUG: 'module', NODE_COMPILE_CACHE: join(dir, 'cache') },
  })
  let err = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  try {
    await then(`${apiBaseIn(await lineFrom(child, /listening on/))}/api/v4`)
  } finally {
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  const loaded = [...err.matchAll(/load "[^"]*\/(serve-[a-z0-9-]+)-[0-9a-f]{8}\.cjs"/g)].map((m) => m[1]!)
  return [...new Set(loaded)].sort()
}

async function getJson(url: string, headers = ROOT_TOKEN): Promise<{ status: number; body: unknown }> {
  const res = await request(url, { headers })
  return { status: res.statusCode, body: await res.body.json() }
}

describe("serve's chunks", () => {
  it('are files beside serve.cjs, which holds none of their packages', () => {
    const chunks = readdirSync(bundle).filter((f) => /^serve-[a-z0-9-]+-[0-9a-f]{8}\.cjs$/.test(f))
    expect(chunks.map((f) => f.replace(/-[0-9a-f]{8}\.cjs$/, '')).sort()).toEqual(
      [
        'aws4',
        'cron-parser',
        'fast-json-stringify',
        'fastify-ajv-compiler',
        'fastify-busboy',
        'js-yaml',
        'light-my-request',
        'pino',
        'qs',
        'tar-stream',
        'undici',
        'yaml',
      ].map((p) => `serve-${p}`),
    )
    const { outputs } = JSON.parse(readFileSync(`${bundle}.meta.json`, 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>
    }
    const inServe = Object.keys(outputs['build/cli-bundle/serve.cjs']!.inputs)
    expect(
      inServe.filter((i) => /node_modules\/(undici|yaml|js-yaml|qs|pino|cron-parser|luxon)\//.test(i)),
    ).toEqual([])
    // ajv is in no copy, and fast-json-stringify only its runtime part, which the prebuilt serializers need.
    expect(inServe.filter((i) => /\/ajv\/|fast-json-stringify\/index\.js/.test(i))).toEqual([])
    expect(inServe).toContain('node_modules/fast-json-stringify/lib/serializer.js')
    expect(inServe.some((i) => i.includes('node_modules/fastify/'))).toBe(true) // the account is read
    // serve.cjs names each by its content: a changed chunk changes serve.cjs's checksum.
    const serve = readFileSync(join(bundle, 'serve.cjs'), 'utf8')
    for (const chunk of chunks) expect(serve).toContain(`"./${chunk}"`)
  })

  it('a start with no seed, its first answer without a query and its first flat project list, read none of them', async () => {
    let user: { status: number; body: unknown } | undefined
    let list: { status: number; body: unknown } | undefined
    const loaded = await serveLoading(['--seed', 'none'], async (api) => {
      user = await getJson(`${api}/user`)
      list = await getJson(`${api}/projects?per_page=20`)
    })
    expect(user).toMatchObject({ status: 200, body: { username: 'root' } })
    expect(list).toEqual({ status: 200, body: [] })
    expect(loaded).toEqual([])
  })

  it('a first flat list whose serializer was not written at build time reads fast-json-stringify alone', async () => {
    let list: { status: number; body: unknown } | undefined
    const loaded = await serveLoading(['--seed', 'none'], async (api) => {
      list = await getJson(`${api}/groups?per_page=20`)
    })
    expect(list).toEqual({ status: 200, body: [] })
    expect(loaded).toEqual(['serve-fast-json-stringify'])
  })

  it('a seed file reads the YAML parser, a nested query qs, and both answer as they did', async () => {
    const seed = join(dir, 'seed.yaml')
    writeFileSync(
      seed,
      [
        'users:',
        '  - { username: root, admin: true, token: glpat-chunk-root }',
        'projects:',
        '  - path: root/app',
        '    labels: [{ name: bug }, { name: ui }]',
        '    issues:',
        '      - { title: Crash, labels: [bug] }',
        '      - { title: Colours, labels: [ui] }',
        '',
      ].join('\n'),
    )
    const token = { 'private-token': 'glpat-chunk-root' }
    let titles: unknown
    const loaded = await serveLoading(['--seed', seed], async (api) => {
      const found = await getJson(`${api}/projects/root%2Fapp/issues?labels[]=bug`, token)
      expect(found.status).toBe(200)
      titles = (found.body as { title: string }[]).map((i) => i.title)
    })
    expect(titles).toEqual(['Crash'])
    expect(loaded).toEqual(['serve-js-yaml', 'serve-qs']) // the other YAML parser only for seed errors
  })
})
