/*
 * The package as npm users get it: `npm pack`, installed from the tarball into an empty project
 * (with TypeScript and Node's types, as a TypeScript project on Node has), then used the three
 * ways the README shows: the two imports, type-checked and compiled by tsc and also from plain
 * JavaScript, and the `gitlab-actions` bin. Slow (a real install), so one file that does it once.
 * Packs without scripts: build/ must be current (`npm test` builds first, as pretest).
 */
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { docBlocks } from '../support/doc-commands.js'
import { apiBaseIn, lineFrom } from '../support/spawned.js'

const root = resolve(__dirname, '../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version

// A time limit of its own: a synchronous child blocks the event loop, so jest's hook timeout cannot
// fire while it runs (an npm that cannot reach its registry retries for many minutes).
function sh(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const run = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: '', ...env },
    timeout: 240_000,
  })
  if (run.status !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')} failed (${run.error?.message ?? `exit ${run.status}`}):\n${run.stdout}\n${run.stderr}`,
    )
  return run.stdout
}

// What both consumers do: start the emulator, reach it with the client, reset, close.
const consumerBody = `
const gitlab = await startServer()
const client = createClient({ baseUrl: gitlab.url, token: gitlab.token })
const titles = (await collect(client.issues.list('demo/app'))).map((issue) => issue.title)
let missing = 0
try {
  await client.issues.get('demo/app', 999)
} catch (err) {
  if (err instanceof GitLabApiError) missing = err.status
}
await client.issues.create('demo/app', { title: 'made by the consumer' })
await gitlab.reset()
const afterReset = (await collect(client.issues.list('demo/app'))).length
const controls = await client.emulator.clock.state() // the controls beside /api/v4
await client.close()
await gitlab.close()
console.log(JSON.stringify({ titles, missing, afterReset, frozen: controls.frozen, schema: SCHEMA_ID }))
`

// npm settings given as environment, so that the documented commands run as written.
const QUIET_NPM = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' }

let dir: string
let project: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-package-'))
  project = join(dir, 'consumer')
  const tarball = sh('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], root).trim()
  sh('mkdir', ['-p', project], dir)
  writeFileSync(join(project, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n')
  // README's install command as written, its placeholder path pointing at the tarball.
  const [install] = docBlocks(root).filter((b) => b.code.startsWith('npm install /path/to/'))
  expect(install?.code.trim()).toBe(`npm install /path/to/${tarball}`)
  sh('bash', ['-c', install!.code.replace('/path/to/', `${dir}/`)], project, QUIET_NPM)
  sh(
    'npm',
    ['install', `typescript@${versionOf('typescript')}`, `@types/node@${versionOf('@types/node')}`],
    project,
    QUIET_NPM,
  )
}, 300_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the packed tarball, installed into an empty project', () => {
  it('holds no tests, sources, benchmarks or CI files, and installs no development tools', () => {
    const installed = join(project, 'node_modules/gitlab-actions')
    for (const absent of ['src', 'test', 'bench', '.ci', '.github', 'dist', 'jest.config.js', 'build/cli'])
      expect([absent, existsSync(join(installed, absent))]).toEqual([absent, false])
    expect(readdirSync(join(installed, 'build')).sort()).toEqual([
      'api',
      'cli-bundle',
      'client',
      'schema',
      'server',
    ])
    // build/api holds the client's types only: its code ships once, bundled in build/client.
    const api = readdirSync(join(installed, 'build/api'))
    expect(api).toContain('index.d.ts')
    expect(api.filter((file) => !file.endsWith('.d.ts'))).toEqual([])
    const modules = readdirSync(join(project, 'node_modules'))
    for (const dev of ['jest', '@gitbeaker', '@actions', 'esbuild', '@vercel', 'eslint'])
      expect([dev, modules.includes(dev)]).toEqual([dev, false])
  })

  it('TypeScript (module nodenext): both imports type-check, with real types, and the compiled consumer runs', () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          strict: true,
          outDir: 'out',
          types: ['node'],
          resolveJsonModule: true,
        },
        files: ['consumer.ts'],
      }),
    )
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { collect, createClient, GitLabApiError, type ClientIssue, type Project } from 'gitlab-actions'
import { startServer, type RunningServer } from 'gitlab-actions/server'
import schema from 'gitlab-actions/seed.schema.json' with { type: 'json' }
const SCHEMA_ID: string = schema.title
const typed = (issue: ClientIssue, project: Project, server: RunningServer) => [
  issue.iid,
  project.path_with_namespace,
  server.apiUrl,
  // @ts-expect-error baseUrl is required: the types are real, not any
  createClient({ token: 'x' }),
]
void typed
${consumerBody}`,
    )
    sh(join(project, 'node_modules/.bin/tsc'), ['-p', '.'], project)
    const out = JSON.parse(sh(process.execPath, ['out/consumer.js'], project)) as Record<string, unknown>
    expect(out).toMatchObject({ missing: 404, afterReset: 3, frozen: false, schema: 'Seed' })
    expect(out.titles).toHaveLength(3)
  }, 180_000)

  it('plain JavaScript (ESM): README\'s "Use the client" example runs as it is', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const example = /## Use the client\n[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(example).toContain("from 'gitlab-actions/server'")
    writeFileSync(join(project, 'readme.mjs'), example ?? '')
    const lines = sh(process.execPath, ['readme.mjs'], project).trim().split('\n')
    expect(lines).toHaveLength(4)
    expect(lines.slice(0, 3)).toEqual([
      expect.stringMatching(/^3 /),
      expect.stringMatching(/^2 /),
      expect.stringMatching(/^1 /),
    ])
    expect(lines[3]).toMatch(/^404 404 .*Not found/i)
  }, 60_000)

  it('the main entry is bundled: importing it loads neither build/api nor TypeBox, nor the checker until validate', () => {
    // module.registerHooks sees every module an import resolves, the package's own files included.
    writeFileSync(
      join(project, 'loaded.mjs'),
      `import { registerHooks } from 'node:module'
const loaded = []
registerHooks({ resolve: (specifier, context, next) => { const r = next(specifier, context); loaded.push(r.url); return r } })
const { collect, createClient } = await import('gitlab-actions')
const atImport = [...loaded]
const { startServer } = await import('gitlab-actions/server')
const gitlab = await startServer()
const client = createClient({ baseUrl: gitlab.url, token: gitlab.token, validate: true })
const listed = (await collect(client.issues.list('demo/app'))).length
await client.close()
await gitlab.close()
console.log(JSON.stringify({ atImport, afterValidate: loaded, listed }))`,
    )
    const out = JSON.parse(sh(process.execPath, ['loaded.mjs'], project)) as {
      atImport: string[]
      afterValidate: string[]
      listed: number
    }
    const own = (urls: string[]) =>
      urls
        .filter((url) => url.includes('/node_modules/gitlab-actions/build/') || url.includes('@sinclair'))
        .map((url) => url.slice(url.indexOf('/node_modules/') + '/node_modules/'.length))
    const atImport = own(out.atImport)
    expect(atImport).toContain('gitlab-actions/build/client/index.js')
    for (const file of atImport)
      expect(file).toMatch(/^gitlab-actions\/build\/client\/(index|chunk-\w+)\.js$/)
    expect(out.listed).toBe(3)
    expect(own(out.afterValidate)).toContainEqual(
      expect.stringMatching(/^gitlab-actions\/build\/client\/value-\w+\.js$/),
    )
  }, 60_000)

  it('the bin: --version, an action command --help, and serve --port 0 until SIGTERM, exit 0', async () => {
    const bin = join(project, 'node_modules/.bin/gitlab-actions')
    expect(sh(bin, ['--version'], project).trim()).toBe(pkg.version)
    for (const command of ['trigger-pipeline', 'export-project', 'import-project', 'sync-issues'])
      expect(sh(bin, [command, '--help'], project)).toContain(`gitlab-actions ${command}`)
    const child = spawn(bin, ['serve', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] })
    const line = await lineFrom(child, /listening on/)
    const res = await fetch(`${apiBaseIn(line)}/api/v4/version`, {
      headers: { 'private-token': 'glpat-emulator-root-token' },
    })
    expect(res.status).toBe(200)
    child.kill('SIGTERM')
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(0)
  }, 60_000)

  // The install block ran in beforeAll; every other one runs here, each in a folder of its own in
  // the project (npx finds the package above it), under bash with `set -eo pipefail`.
  it.each(
    docBlocks(root)
      .filter((b) => b.runner === 'project' && !b.code.startsWith('npm install /path/to/'))
      .map((b) => [`${b.file}:${b.line}`, b.code] as const),
  )(
    'the documented commands run as written: %s',
    (at, code) => {
      const cwd = join(project, `block-${at.replace(/\W/g, '-')}`)
      sh('mkdir', ['-p', cwd], project)
      // A block that fails half-way must not leave its server behind (Jest would wait for it).
      const script = `set -eo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${code}`
      const run = spawnSync('bash', ['-c', script], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: '', ...QUIET_NPM },
        timeout: 60_000,
      })
      expect([run.status, run.stderr]).toEqual([0, expect.any(String)])
      expect(run.stdout).not.toBe('')
    },
    90_000,
  )
})
