// Node built-ins that bundled libraries require at load but use only on paths this project never
// takes: undici's HTTP/2 client (our clients never enable it; it reads constants at load) and
// Fastify's HTTPS and HTTP/2 servers (`serve` speaks plain HTTP). Loading node:http2 and node:https
// pulls in tls too: about 6 ms of CPU before an action's first request, and 5% of `serve`'s
// start-up (callgrind). In a bundle (esbuild's, or ncc's for the actions), each such
// require gets a stand-in that loads the real module on first use of anything but the constants
// the requiring code reads at load, copied from this Node at bundle time (RFC 7540's header names
// and error codes). Only the requirers named here get one: their use is known to fit.
// And node:assert (with its diff and error-source modules) for find-my-way and Fastify's plugin
// checks, which only call `assert(value, message)`: the real one loads only to throw (about 1.5 ms
// of an empty `serve` start's CPU).
import { constants as http2Constants } from 'node:http2'
import { readFileSync } from 'node:fs'

/** Requiring files (as bundlers name them) and the built-ins they get a stand-in for. */
const REQUIRERS = [
  { file: /node_modules\/undici\/lib\/dispatcher\/client-h2\.js$/, builtins: ['node:http2'] },
  { file: /node_modules\/fastify\/lib\/server\.js$/, builtins: ['node:http2', 'node:https'] },
  {
    file: /node_modules\/(find-my-way\/(index|lib\/constrainer|lib\/strategies\/accept-(host|version))|fastify\/lib\/plugin-utils)\.js$/,
    builtins: ['node:assert'],
  },
]

/** The http2 constants that `code` names, with this Node's values. */
function http2ConstantsIn(code) {
  const constants = {}
  for (const name of [...new Set(code.match(/\b(HTTP2_HEADER|NGHTTP2)_[A-Z0-9_]+\b/g))].sort()) {
    if (!(name in http2Constants)) throw new Error(`node:http2 has no constant ${name}`)
    constants[name] = http2Constants[name]
  }
  return constants
}

/** A CommonJS module standing in for `builtin` for `code`; `load` is an expression that loads the real one. */
function standIn(builtin, code, load) {
  if (builtin === 'node:assert') {
    if (/\bassert\s*\./.test(code))
      throw new Error('lazy-builtins: a requirer of node:assert reads more than assert()')
    return `module.exports = function assert(value, message) { if (!value) ${load}(value, message) };`
  }
  const eager = builtin === 'node:http2' ? { constants: http2ConstantsIn(code) } : {}
  return (
    `const eager = ${JSON.stringify(eager)};\n` +
    `module.exports = new Proxy(eager, { get: (_, key) => key in eager ? eager[key] : ${load}[key] });`
  )
}

/**
 * For ncc's output (`text` of `file`): the external module of each stand-in built-in replaced by its
 * stand-in. ncc shares one external module among its requirers, so it must have exactly one, and
 * that one must be undici's HTTP/2 client (the only requirer in the action bundles).
 */
export function lazyBuiltinsInNcc(text, file) {
  const external = (builtin) =>
    new RegExp(
      `/\\*\\*\\*/ (\\d+):\\n/\\*\\*\\*/ \\(\\(module\\) => \\{\\n\\nmodule\\.exports = (__WEBPACK_EXTERNAL_createRequire\\(import\\.meta\\.url\\)\\("${builtin}"\\));`,
    )
  const builtin = 'node:http2'
  if (!text.includes(`"${builtin}"`)) return text
  const found = external(builtin).exec(text)
  if (!found)
    throw new Error(`${file}: ${builtin} is not required as lazy-builtins expects (did ncc change?)`)
  const [whole, id, load] = found
  const requirers = text.split(`__nccwpck_require__(${id})`).length - 1
  if (requirers !== 1 || !/const \{\s*constants: \{\s*HTTP2_HEADER_AUTHORITY/.test(text))
    throw new Error(
      `${file}: ${builtin} is required by ${requirers} modules; only undici's client-h2 is known`,
    )
  return text.replace(whole, whole.replace(`module.exports = ${load};`, standIn(builtin, text, load)))
}

/** The same for esbuild: the requires of REQUIRERS get stand-ins; everything else, the real built-in. */
export function lazyBuiltins() {
  return {
    name: 'lazy-builtins',
    setup(build) {
      build.onResolve({ filter: /^(node:)?(http2|https|assert)$/ }, (args) => {
        const builtin = args.path.startsWith('node:') ? args.path : `node:${args.path}`
        const importer = args.importer.replaceAll('\\', '/')
        const at = REQUIRERS.findIndex((r) => r.file.test(importer) && r.builtins.includes(builtin))
        if (args.namespace === 'lazy-builtin' || args.kind !== 'require-call' || at < 0) return undefined
        // One stand-in per built-in and requirer; the requirer's code says which constants it reads.
        return { path: `${builtin}#${at}`, namespace: 'lazy-builtin', pluginData: args.importer }
      })
      build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
        const builtin = args.path.slice(0, args.path.indexOf('#'))
        const code = readFileSync(args.pluginData, 'utf8')
        return { contents: standIn(builtin, code, `require(${JSON.stringify(builtin)})`), loader: 'js' }
      })
    },
  }
}
