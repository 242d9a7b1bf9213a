// An esbuild plugin for scripts/bundle-cli.mjs and the one-file server. Fastify finishes each route's
// setup (its error handler, body limit and the hooks bound at `preReady`) in an `after` step of its
// plugin loader, avvio: a plugin object with a queue of its own and several turns of the event loop,
// some 240 at every start of `serve`. That made avvio's queue, Node's event emitters and its tick
// queue hot enough for V8's optimizing compilers during the start (3 MB resident, 12 ms of the main
// thread's CPU). In the bundle the step runs at once, when the route is added: what it reads from
// the instance (the error handler, reply serializer and schema error formatter) is set by the edge
// before any route (src/server/http/edge.ts), and what needs every hook still waits for `preReady`.
// The build fails if Fastify's source no longer has the shape expected here.

/** Fastify's text replaced (each found exactly once) and what replaces it. */
const EDITS = [
  [
    '      this.after((notHandledErr, done) => {\n        // Send context async\n',
    '      ;((notHandledErr, done) => {\n',
  ],
  [
    '        done(notHandledErr)\n      })\n\n      // register head route in sync\n',
    '        done(notHandledErr)\n      })(null, () => {})\n\n      // register head route in sync\n',
  ],
]

/** `code` of fastify/lib/route.js with each route's setup step run when the route is added. */
export function routeSetupNowIn(code, path) {
  let out = code
  for (const [from, to] of EDITS) {
    if (out.split(from).length !== 2)
      throw new Error(`${path}: expected one \`${from}\` (did Fastify change?)`)
    out = out.replace(from, to)
  }
  const left = out.match(/\bthis\.after\(/g)?.length ?? 0
  if (left !== 0) throw new Error(`${path}: ${left} more \`this.after(\` (did Fastify change?)`)
  return out
}

export function routeSetupNow() {
  return {
    name: 'route-setup-now',
    setup(build) {
      build.onLoad({ filter: /[\\/]fastify[\\/]lib[\\/]route\.js$/ }, async ({ path }) => {
        const { readFile } = await import('node:fs/promises')
        return { contents: routeSetupNowIn(await readFile(path, 'utf8'), path), loader: 'js' }
      })
    },
  }
}
