// An esbuild plugin for scripts/bundle-cli.mjs and the one-file server. Memory after start: Fastify
// keeps each route's response serializers in an object keyed by status code, built by assigning
// the codes ('200', '404') to `{}` one by one. V8 stores an integer key as an array element, and
// element 200 of an empty object gets a fast backing store of 317 slots: 2.5 KB for each route
// with a response schema, 0.85 MB for serve's 300-odd routes (VmRSS after an empty start, BENCHMARKS.md,
// stop 48). In the bundle the object starts from JSON.parse of its keys, which V8 stores as
// a dictionary of elements (about 200 bytes); the same keys, values, order and prototype. The
// build fails if Fastify's source no longer has the shape expected here.

const FILE = /[\\/]fastify[\\/]lib[\\/]validation\.js$/

/** The accumulator Fastify's `compileSchemasForSerialization` starts from, and what replaces it. */
const EDIT = ['    }, {})\n', '    }, responseSerializersOf(context.schema.response))\n']

const APPENDED = `
// Keys first, from JSON: integer keys then held as a dictionary, not a 317-slot array (scripts/compact-response-schemas.mjs).
function responseSerializersOf (response) {
  const codes = Object.keys(response).map((code) => JSON.stringify(code.toLowerCase()) + ':0')
  return JSON.parse('{' + codes.join(',') + '}')
}
`

/** `code` of `path` (Fastify's lib/validation.js) with its response serializers' object made compact. */
export function compactResponseSchemasIn(code, path) {
  if (!FILE.test(path)) return code
  const [from, to] = EDIT
  if (code.split(from).length !== 2)
    throw new Error(`${path}: expected one \`${from.trim()}\` (did Fastify change?)`)
  if (!code.includes('function compileSchemasForSerialization (context, compile) {'))
    throw new Error(`${path}: compileSchemasForSerialization not found (did Fastify change?)`)
  return `${code.replace(from, to)}${APPENDED}`
}

export function compactResponseSchemas() {
  return {
    name: 'compact-response-schemas',
    setup(build) {
      build.onLoad({ filter: FILE }, async ({ path }) => {
        const { readFile } = await import('node:fs/promises')
        return { contents: compactResponseSchemasIn(await readFile(path, 'utf8'), path), loader: 'js' }
      })
    },
  }
}
