/*
 * scripts/load-time-checks.mjs: Fastify's plugin version checks and find-my-way's regex checks,
 * bundled with the plugin, answer a start's plain cases without loading semver or safe-regex2, and
 * everything else exactly as the real ones do (loaded then).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(__dirname, '../..')
const semver = createRequire(join(root, 'node_modules/fastify/lib/plugin-utils.js'))('semver')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-load-time-checks-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * `check` (CommonJS, with `fastify`, `fp` and `loaded` in scope) bundled by esbuild with the plugin,
 * run in a fresh Node: what it prints. `loaded` lists the checkers evaluated so far (the test marks
 * semver's and safe-regex2's entry modules).
 */
function bundled(check: string): string {
  const entry = join(dir, 'entry.cjs')
  const out = join(dir, 'out.cjs')
  writeFileSync(
    entry,
    `const loaded = (globalThis.loaded = []);
     const fastify = require('fastify');
     const fp = require('fastify-plugin');
     module.exports = (async () => { ${check} })().catch((err) => console.log('threw', err.code, err.message));`,
  )
  const script = `
    import { build } from 'esbuild'
    import { readFileSync } from 'node:fs'
    import { loadTimeChecks } from ${JSON.stringify(join(root, 'scripts/load-time-checks.mjs'))}
    const marked = {
      name: 'mark', setup(b) {
        b.onLoad({ filter: /node_modules\\/(semver|safe-regex2)\\/index\\.js$/ }, (args) => ({
          contents: 'globalThis.loaded.push(' + JSON.stringify(args.path.includes('semver') ? 'semver' : 'safe-regex2') + ');\\n' + readFileSync(args.path, 'utf8'),
          loader: 'js',
        }))
      },
    }
    await build({
      absWorkingDir: ${JSON.stringify(root)}, nodePaths: [${JSON.stringify(join(root, 'node_modules'))}],
      entryPoints: [${JSON.stringify(entry)}], bundle: true, platform: 'node', format: 'cjs',
      outfile: ${JSON.stringify(out)}, plugins: [loadTimeChecks(), marked], logLevel: 'error',
    })
  `
  const built = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: root,
  })
  expect(built.stderr).toBe('')
  const run = spawnSync(process.execPath, [out], { encoding: 'utf8' })
  expect(run.stderr).toBe('')
  return run.stdout
}

describe('load-time-checks', () => {
  it('starts Fastify with a `5.x` plugin and routes without loading semver or safe-regex2', () => {
    const printed = bundled(`
      const app = fastify()
      await app.register(fp(async () => {}, { fastify: '5.x', name: 'five' }))
      app.get('/a/:id', async (req) => req.params)
      console.log((await app.inject('/a/7')).body, JSON.stringify(loaded))
    `)
    expect(printed).toBe('{"id":"7"} []\n')
  })

  it("refuses a plugin for another major, as Fastify's check does", () => {
    const printed = bundled(`
      const app = fastify()
      await app.register(fp(async () => {}, { fastify: '4.x', name: 'four' }))
      await app.ready()
    `)
    expect(printed).toMatch(/^threw FST_ERR_PLUGIN_VERSION_MISMATCH .*four - expected '4.x'.*\n$/)
  })

  it('asks the real semver about any other range', () => {
    const printed = bundled(`
      const app = fastify()
      await app.register(fp(async () => {}, { fastify: '>=5.0.0 <7', name: 'range' }))
      await app.ready()
      console.log(JSON.stringify(loaded))
      const other = fastify()
      await other.register(fp(async () => {}, { fastify: '^4.2.0', name: 'old' }))
      await other.ready()
    `)
    expect(printed).toMatch(
      /^\["semver"\]\nthrew FST_ERR_PLUGIN_VERSION_MISMATCH .*old - expected '\^4.2.0'.*\n$/,
    )
  })

  it('asks the real safe-regex2 about a route regex', () => {
    const printed = bundled(`
      const app = fastify()
      app.get('/b/:id(^(a+)+$)', async () => 'no')
    `)
    expect(printed).toBe("threw ERR_ASSERTION The regex '(^(a+)+$)' is not safe!\n")
  })

  it("gives semver's answer for every version and `N.x` range", () => {
    const versions = [
      '5.12.8',
      '5.0.0',
      '6.0.0',
      '4.99.1',
      '0.1.0',
      '5.0.0-rc.1',
      'v5.1.0',
      '05.1.0',
      ' 5.1.0',
    ]
    const ranges = ['5.x', '4.x', '6.x', '0.x', '5.X', '05.x', '^5.0.0', '5', '*']
    const cases = versions.flatMap((v) => ranges.flatMap((r) => [false, true].map((p) => [v, r, p] as const)))
    // The stand-in's source run as its module, with the real semver as its `require("semver")`.
    const script = `
      import { createRequire } from 'node:module'
      import { SEMVER_STAND_IN } from ${JSON.stringify(join(root, 'scripts/load-time-checks.mjs'))}
      const semver = createRequire(${JSON.stringify(join(root, 'node_modules/fastify/lib/plugin-utils.js'))})('semver')
      const module = { exports: {} }
      new Function('require', 'module', SEMVER_STAND_IN)(() => semver, module)
      const cases = ${JSON.stringify(cases)}
      console.log(JSON.stringify(cases.map(([v, r, p]) => module.exports.satisfies(v, r, { includePrerelease: p }))))
    `
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    const answers = JSON.parse(run.stdout) as boolean[]
    expect(cases.map(([v, r, p], i) => [v, r, p, answers[i]])).toEqual(
      cases.map(([v, r, p]) => [v, r, p, semver.satisfies(v, r, { includePrerelease: p })]),
    )
    // Both answers among the cases the stand-in answers itself.
    expect(answers.slice(0, 8)).toEqual([true, true, false, false, false, false, false, false])
  })
})
