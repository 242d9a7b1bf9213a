/*
 * scripts/lazy-builtins.mjs's stand-in for node:assert: find-my-way (and Fastify's plugin checks)
 * bundled with it call a function that loads the real node:assert only to throw, so a router made
 * right never loads it, and one made wrong fails with node:assert's own AssertionError and message.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(__dirname, '../..')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-lazy-builtins-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** find-my-way bundled by esbuild with the plugin, then run in a fresh Node: what `check` prints. */
function bundledRouter(check: string): { text: string; printed: string } {
  const out = join(dir, 'router.cjs')
  const script = `
    import { build } from 'esbuild'
    import { readFileSync } from 'node:fs'
    import { lazyBuiltins } from ${JSON.stringify(join(root, 'scripts/lazy-builtins.mjs'))}
    await build({
      absWorkingDir: ${JSON.stringify(root)},
      entryPoints: [${JSON.stringify(join(root, 'node_modules/find-my-way/index.js'))}],
      bundle: true, platform: 'node', format: 'cjs', outfile: ${JSON.stringify(out)},
      plugins: [lazyBuiltins()], logLevel: 'error',
    })
    process.stdout.write(readFileSync(${JSON.stringify(out)}, 'utf8'))
  `
  const bundled = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(bundled.stderr).toBe('')
  const run = spawnSync(
    process.execPath,
    ['-e', `const Router = require(${JSON.stringify(out)}); ${check}`],
    {
      encoding: 'utf8',
    },
  )
  expect(run.stderr).toBe('')
  return { text: bundled.stdout, printed: run.stdout }
}

describe("lazy-builtins' node:assert stand-in", () => {
  it('routes without loading node:assert', () => {
    const { text, printed } = bundledRouter(`
      const router = Router()
      router.on('GET', '/a/:id', () => {})
      console.log(JSON.stringify(router.find('GET', '/a/7').params))
      console.log(process.moduleLoadList.includes('NativeModule assert'))
    `)
    expect(printed).toBe('{"id":"7"}\nfalse\n')
    // The bundle's only require of it is the stand-in's.
    expect(text.match(/require\("node:assert"\)/g)).toHaveLength(1)
  })

  it("throws node:assert's AssertionError, with the caller's message, when an assertion fails", () => {
    const { printed } = bundledRouter(`
      try {
        Router().on('GET', 42, () => {})
      } catch (err) {
        console.log(err.name, err.code, err.message)
      }
    `)
    expect(printed).toBe('AssertionError ERR_ASSERTION Path should be a string\n')
  })
})
