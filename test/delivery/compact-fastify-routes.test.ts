/*
 * scripts/compact-fastify-routes.mjs: Fastify bundled with the plugin keeps less for each route.
 * A route's map of response serializers holds the same keys and values as Fastify's own, in about a
 * tenth of the memory; the routes of an instance share its hooks' bound copies, which run as before.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(__dirname, '../..')
const validation = join(root, 'node_modules/fastify/lib/validation.js')
const plugin = join(root, 'scripts/compact-fastify-routes.mjs')
const FASTIFY = join(root, 'node_modules/fastify/fastify.js')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-compact-fastify-routes-'))
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
 * The opening of a `run` script: `entry` bundled with the plugin into `out` (CommonJS), and a
 * `require` to load it with.
 */
const bundledWithPlugin = (entry: string, out: string) => `
  import { build } from 'esbuild'
  import { createRequire } from 'node:module'
  import { compactFastifyRoutes } from ${JSON.stringify(plugin)}
  await build({
    absWorkingDir: ${JSON.stringify(root)},
    entryPoints: [${JSON.stringify(entry)}],
    bundle: true, platform: 'node', format: 'cjs', outfile: ${JSON.stringify(out)},
    plugins: [compactFastifyRoutes()], logLevel: 'error',
  })
  const require = createRequire(import.meta.url)
`

/**
 * Fastify's lib/validation.js bundled with the plugin, then both it and Fastify's own build the
 * serializers of `routes` routes with `response` (status code to schema): per module, the keys and
 * values of the first route's map and the heap bytes a route's map takes.
 */
function maps(response: Record<string, unknown>, routes = 2000) {
  const out = join(dir, 'validation.cjs')
  const printed = run(`${bundledWithPlugin(validation, out)}
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

describe('compact-fastify-routes', () => {
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
      import { compactFastifyRoutesIn } from ${JSON.stringify(plugin)}
      try {
        compactFastifyRoutesIn('function compileSchemasForSerialization (context, compile) {}', ${JSON.stringify(validation)})
        process.stdout.write('built')
      } catch (err) {
        process.stdout.write(err.message)
      }
    `)
    expect(printed).toMatch(/did Fastify change\?/)
  })

  it("gives an instance's routes one bound copy of each of its hooks, run with the same `this`", () => {
    const out = join(dir, 'fastify.cjs')
    const printed = run(`${bundledWithPlugin(FASTIFY, out)}
      const seen = []
      const context = (request) =>
        request[Object.getOwnPropertySymbols(request).find((s) => s.description === 'fastify.context')]
      const serve = async (fastify) => {
        const app = fastify()
        app.addHook('onRequest', function (request, reply, done) {
          seen.push({ instance: this === app ? 'app' : 'child', hook: context(request).onRequest[0] })
          done()
        })
        app.get('/a', async () => 'a')
        app.get('/b', async () => 'b')
        app.register(async (child) => {
          child.addHook('onRequest', function (request, reply, done) {
            seen.push({ instance: this === child ? 'child' : 'app', hook: context(request).onRequest[1] })
            done()
          })
          child.get('/c', async () => 'c')
          child.get('/d', async () => 'd')
        })
        const bodies = []
        for (const url of ['/a', '/b', '/c', '/d']) bodies.push((await app.inject({ url })).body)
        await app.close()
        const hooks = seen.splice(0).map((s) => s)
        return {
          bodies,
          instances: hooks.map((h) => h.instance),
          // Route /a's and /b's hook, and /c's and /d's own: one copy each, or two.
          shared: [hooks[0].hook === hooks[1].hook, hooks[3].hook === hooks[5].hook],
        }
      }
      process.stdout.write(JSON.stringify({
        compact: await serve(require(${JSON.stringify(out)})),
        fastify: await serve(require('fastify')),
      }))
    `)
    const { compact, fastify } = JSON.parse(printed) as Record<
      'compact' | 'fastify',
      { bodies: string[]; instances: string[]; shared: boolean[] }
    >
    expect(compact.bodies).toEqual(['a', 'b', 'c', 'd'])
    // Fastify binds a hook to the route's instance: the app's hook runs as the child for the child's routes.
    expect(compact.instances).toEqual(['app', 'app', 'child', 'child', 'child', 'child'])
    expect(compact.instances).toEqual(fastify.instances)
    expect(compact.shared).toEqual([true, true])
    expect(fastify.shared).toEqual([false, false])
  })
})

describe('compact-fastify-routes, the routes at ready', () => {
  it("runs every route's preReady work through one listener, in order, where Fastify adds one per route", () => {
    const out = join(dir, 'fastify-ready.cjs')
    const printed = run(`${bundledWithPlugin(FASTIFY, out)}
      import { EventEmitter } from 'node:events'
      // Every 'preReady' listener avvio is given, counted.
      let listeners = 0
      const once = EventEmitter.prototype.once
      EventEmitter.prototype.once = function (event, fn) {
        if (event === 'preReady') listeners++
        return once.call(this, event, fn)
      }
      const serve = async (fastify) => {
        listeners = 0
        const app = fastify()
        const order = []
        app.addHook('onRequest', async (request) => { order.push('app ' + request.url) })
        for (let i = 0; i < 50; i++)
          app.get('/r' + i, { schema: { response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, async () => ({ n: i, dropped: true }))
        app.get('/own', { onRequest: async () => { order.push('own') } }, async () => 'own')
        app.register(async (child) => {
          child.addHook('onSend', async (request, reply, payload) => payload + ' (child)')
          child.get('/c', async () => 'c')
        })
        app.setNotFoundHandler(async (request, reply) => reply.code(404).send('none'))
        await app.ready()
        const bodies = []
        for (const url of ['/r0', '/r49', '/own', '/c', '/missing']) {
          const res = await app.inject({ url })
          bodies.push(res.statusCode + ' ' + res.body)
        }
        await app.close()
        return { bodies, order, listeners }
      }
      const compact = await serve(require(${JSON.stringify(out)}))
      EventEmitter.prototype.once = once
      process.stdout.write(JSON.stringify({ compact, fastify: await (async () => {
        EventEmitter.prototype.once = function (event, fn) {
          if (event === 'preReady') listeners++
          return once.call(this, event, fn)
        }
        return serve(require('fastify'))
      })() }))
    `)
    const { compact, fastify } = JSON.parse(printed) as Record<
      'compact' | 'fastify',
      { bodies: string[]; order: string[]; listeners: number }
    >
    expect(compact.bodies).toEqual(['200 {"n":0}', '200 {"n":49}', '200 own', '200 c (child)', '404 none'])
    expect(compact.bodies).toEqual(fastify.bodies)
    expect(compact.order).toEqual(['app /r0', 'app /r49', 'app /own', 'own', 'app /c', 'app /missing'])
    expect(compact.order).toEqual(fastify.order)
    // Fastify's own: one for each of the 52 routes, besides its instance's and its 404 handlers'.
    expect(fastify.listeners).toBeGreaterThan(52)
    expect(compact.listeners).toBeLessThan(8)
  })
})
