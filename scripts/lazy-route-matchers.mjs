// An esbuild plugin for scripts/bundle-cli.mjs. find-my-way (Fastify's router) compiles a matcher
// with `new Function` for every static node of its trees as routes are added: several hundred at
// each start of `serve`, code that V8's code cache cannot hold, while a short run tries a few of
// them. In the bundle, a node's matcher is compiled the first time the router tries that node (the
// same function, so lookups after the first run as before). The build fails if find-my-way's
// source no longer has the shape expected here.

/** The two places lib/node.js sets a static node's matcher, and what each becomes. */
const EDITS = [
  [
    'this.matchPrefix = kind === NODE_TYPES.STATIC ? compilePrefixMatch(prefix) : null',
    'this.matchPrefix = kind === NODE_TYPES.STATIC ? matchPrefixOnFirstUse : null',
  ],
  ['this.matchPrefix = compilePrefixMatch(childPrefix)', 'this.matchPrefix = matchPrefixOnFirstUse'],
]

// Called as `node.matchPrefix(path, i)` (the router's only call): `this` is the node, and its
// prefix is the one the matcher must test (a split sets both again).
const ON_FIRST_USE = `
function matchPrefixOnFirstUse (path, i) {
  this.matchPrefix = compilePrefixMatch(this.prefix)
  return this.matchPrefix(path, i)
}
`

/** find-my-way's lib/node.js (`code`) with its static nodes' matchers compiled on first use. */
export function lazyMatchersIn(code, file = 'find-my-way/lib/node.js') {
  let out = code
  for (const [from, to] of EDITS) {
    if (out.split(from).length !== 2)
      throw new Error(`${file}: expected one \`${from}\` (did find-my-way change?)`)
    out = out.replace(from, to)
  }
  const calls = out.match(/\.matchPrefix\(/g)?.length ?? 0
  if (calls !== 1 || !out.includes('staticChild.matchPrefix(path, pathIndex)'))
    throw new Error(
      `${file}: matchPrefix is called ${calls} times; only staticChild.matchPrefix(path, pathIndex) is known`,
    )
  return `${out}\n${ON_FIRST_USE}`
}

export function lazyRouteMatchers() {
  return {
    name: 'lazy-route-matchers',
    setup(build) {
      build.onLoad({ filter: /[\\/]find-my-way[\\/]lib[\\/]node\.js$/ }, async ({ path }) => {
        const { readFile } = await import('node:fs/promises')
        return { contents: lazyMatchersIn(await readFile(path, 'utf8'), path), loader: 'js' }
      })
    },
  }
}
