/*
 * scripts/compact-response-schemas.mjs: Fastify's map of a route's response serializers, bundled with
 * the plugin, holds the same keys and values as Fastify's own, in about a tenth of the memory.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(__dirname, '../..')
const validation = join(root, 'node_modules/fastify/lib/validation.js')
const plugin = join(root, 'scripts/compact-response-schemas.mjs')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-compact-response-schemas-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs `script` (an ES module) in a fresh Node with `--expose-gc`; what it prints. */
function run(script: string): string {
  const out = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  })
  expect(out.stderr).toBe('')
  return out.stdout
}

/**
 * Fastify's lib/validation.js bundled with the plugin, then both it and Fastify's own build the
 * serializers of `routes` routes with `response` (status code to schema): per module, the keys and
 * values of the first route's map and the heap bytes a route's map takes.
 */
function maps(response: Record<string, unknown>, routes = 2000) {
  const out = join(dir, 'validation.cjs')
  const printed = run(`
    import { build } from 'esbuild'
    import { createRequire } from 'node:module'
    import { compactResponseSchemas } from ${JSON.stringify(plugin)}
    await build({
      absWorkingDir: ${JSON.stringify(root)},
      entryPoints: [${JSON.stringify(validation)}],
      bundle: true, platform: 'node', format: 'cjs', outfile: ${JSON.stringify(out)},
      plugins: [compactResponseSchemas()], logLevel: 'error',
    })
    const require = createRequire(import.meta.url)
    const measure = (file) => {
      const { compileSchemasForSerialization } = require(file)
      const compile = ({ schema, httpStatus, contentType }) => ({ schema, httpStatus, contentType })
      const response = ${JSON.stringify(response)}
      const made = []
      globalThis.gc()
      const before = process.memoryUsage().heapUsed
      for (let i = 0; i < ${routes}; i++) {
        const context = { schema: { response }, config: { method: 'GET', url: '/x' } }
        compileSchemasForSerialization(context, compile)
        // The map is the one symbol-keyed property (each copy of Fastify has its own symbols).
        made.push(context[Object.getOwnPropertySymbols(context)[0]])
      }
      globalThis.gc()
      const bytes = (process.memoryUsage().heapUsed - before) / ${routes}
      const first = made[0]
      return { keys: Object.keys(first), values: Object.values(first), proto: Object.getPrototypeOf(first) === Object.prototype, bytes }
    }
    const compact = measure(${JSON.stringify(out)})
    const fastify = measure(${JSON.stringify(validation)})
    process.stdout.write(JSON.stringify({ compact, fastify }))
  `)
  return JSON.parse(printed) as Record<
    'compact' | 'fastify',
    { keys: string[]; values: unknown[]; proto: boolean; bytes: number }
  >
}

describe('compact-response-schemas', () => {
  it("holds the same serializers as Fastify's own map, in a tenth of the memory", () => {
    const response = {
      404: { type: 'object' },
      200: { type: 'array' },
      '2XX': { type: 'string' },
      default: { type: 'null' },
      201: { content: { 'application/json': { schema: { type: 'object' } } } },
    }
    const { compact, fastify } = maps(response)
    expect(compact.keys).toEqual(['200', '201', '404', '2xx', 'default'])
    expect(compact.keys).toEqual(fastify.keys)
    expect(compact.values).toEqual(fastify.values)
    expect(compact.proto).toBe(true)
    // Fastify's own: a 600-slot backing store for element 404 (some 5 KB).
    expect(fastify.bytes).toBeGreaterThan(2000)
    expect(compact.bytes).toBeLessThan(fastify.bytes / 5)
  })

  it('makes the one-code map of most routes small too', () => {
    const { compact, fastify } = maps({ 200: { type: 'object' } })
    expect(compact.keys).toEqual(['200'])
    expect(compact.values).toEqual(fastify.values)
    expect(fastify.bytes).toBeGreaterThan(2000)
    expect(compact.bytes).toBeLessThan(500)
  })

  it("fails the build when Fastify's source no longer has the expected shape", () => {
    const printed = run(`
      import { compactResponseSchemasIn } from ${JSON.stringify(plugin)}
      try {
        compactResponseSchemasIn('function compileSchemasForSerialization (context, compile) {}', ${JSON.stringify(validation)})
        process.stdout.write('built')
      } catch (err) {
        process.stdout.write(err.message)
      }
    `)
    expect(printed).toMatch(/did Fastify change\?/)
  })
})
