// An esbuild plugin for scripts/bundle-cli.mjs and the one-file server. Memory after start: what
// Fastify keeps for each of serve's 360-odd routes (VmRSS after an empty start, BENCHMARKS.md, stop
// 48); and start-up time: the work it queues for each of them. The build fails if Fastify's source no
// longer has the shape expected here.
// - lib/validation.js: a route's response serializers are kept in an object keyed by status code,
//   built by assigning the codes ('200', '404') to `{}` one by one. V8 stores an integer key as an
//   array element, and element 200 of an empty object gets a fast backing store of 317 slots: 2.5 KB
//   a route, 0.8 MB in all. Here the object starts from JSON.parse of its keys, which V8 stores as a
//   dictionary of elements (about 200 bytes); the same keys, values, order and prototype.
// - lib/route.js: each route gets its own bound copy (`hook.bind(instance)`) of every hook of its
//   instance: nine of ours a route, 0.16 MB. Here a route takes the copy its instance already made
//   for an earlier route (the same function bound to the same instance, so it runs as before).
// - lib/route.js: each route adds a `preReady` listener of its own (`avvio.once`), and Node's
//   EventEmitter removes a fired `once` listener by scanning its list from the end: quadratic in the
//   routes (600 listeners, 16-19 ms of emit with V8's optimizers off, as they are in serve's start;
//   BENCHMARKS.md, stop 50). Here a run of routes shares one listener that calls theirs in order;
//   a listener another part adds in between starts a new run, so every one runs in the same order.

import { replaceEachOnce } from './source-edits.mjs'

const FILES = [
  {
    file: /[\\/]fastify[\\/]lib[\\/]validation\.js$/,
    // The accumulator `compileSchemasForSerialization` starts from.
    edits: [['    }, {})\n', '    }, responseSerializersOf(context.schema.response))\n']],
    appended: `
// Keys first, from JSON: integer keys then held as a dictionary, not a 317-slot array (scripts/compact-fastify-routes.mjs).
function responseSerializersOf (response) {
  const codes = Object.keys(response).map((code) => JSON.stringify(code.toLowerCase()) + ':0')
  return JSON.parse('{' + codes.join(',') + '}')
}
`,
  },
  {
    file: /[\\/]fastify[\\/]lib[\\/]route\.js$/,
    edits: [
      ['.map(h => h.bind(this))', '.map(h => boundHook(this, h))'],
      ["avvio.once('preReady', () => {", 'preReadyInTurn(avvio, () => {'],
    ],
    appended: `
// One bound copy of a hook per instance, shared by its routes (scripts/compact-fastify-routes.mjs).
const boundHooks = new WeakMap()
function boundHook (instance, hook) {
  let bound = boundHooks.get(instance)
  if (bound === undefined) boundHooks.set(instance, (bound = new Map()))
  let fn = bound.get(hook)
  if (fn === undefined) bound.set(hook, (fn = hook.bind(instance)))
  return fn
}

// One 'preReady' listener for a run of routes, each route's work called in turn (scripts/compact-fastify-routes.mjs).
const preReadyRuns = new WeakMap()
function preReadyInTurn (avvio, fn) {
  const run = preReadyRuns.get(avvio)
  if (run !== undefined && avvio.listeners('preReady').at(-1) === run.listener) return void run.calls.push(fn)
  const calls = [fn]
  const listener = () => {
    preReadyRuns.delete(avvio)
    for (const call of calls) call()
  }
  preReadyRuns.set(avvio, { listener, calls })
  avvio.once('preReady', listener)
}
`,
  },
]

/** `code` of `path` (one of Fastify's files above) with its per-route memory made smaller. */
export function compactFastifyRoutesIn(code, path) {
  const spec = FILES.find(({ file }) => file.test(path))
  if (!spec) return code
  return `${replaceEachOnce(code, path, spec.edits, 'Fastify')}\n${spec.appended}`
}

export function compactFastifyRoutes() {
  return {
    name: 'compact-fastify-routes',
    setup(build) {
      const filter = /[\\/]fastify[\\/]lib[\\/](validation|route)\.js$/
      build.onLoad({ filter }, async ({ path }) => {
        const { readFile } = await import('node:fs/promises')
        return { contents: compactFastifyRoutesIn(await readFile(path, 'utf8'), path), loader: 'js' }
      })
    },
  }
}
