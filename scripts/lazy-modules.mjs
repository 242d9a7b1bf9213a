// Parts of undici that ncc puts in an action's index.js although nothing before the action's first
// request evaluates them: undici requires them inside functions, on paths the client rarely takes
// (fetch's body mixins and WebIDL for FormData or Blob bodies; the llhttp build without SIMD, for
// CPUs without it). V8 still has to parse them at every start: about 140 KB of the 520 KB index.js.
// They move to lazy-modules.cjs beside it, which the bundle's module table loads synchronously on
// first use of any of them, so behaviour is unchanged on every path.
import { readFileSync } from 'node:fs'

/** The modules (as ncc's stats name them) that move out of index.js. */
const LAZY =
  /^\.\/node_modules\/undici\/lib\/(web\/.*|encoding\/index|llhttp\/llhttp-wasm|util\/(runtime-features|promise))\.js$/

/** The file beside index.js that holds them. */
export const LAZY_FILE = 'lazy-modules.cjs'

const MARKER = /^\/\*\*\*\/ (\d+):$/gm
const TABLE_END = '\n/******/ });\n'

/**
 * Splits ncc's output `text` (of `file`, with the stats ncc wrote to `statsFile`): returns index.js
 * without the LAZY modules and with a module table that loads them from LAZY_FILE, and that file's
 * CommonJS text (undefined when the bundle has none of them).
 */
export function lazyModulesInNcc(text, statsFile, file) {
  const stats = JSON.parse(readFileSync(statsFile, 'utf8'))
  const main = stats.chunks.find((c) => c.initial)
  const ids = new Set(
    stats.modules.filter((m) => m.chunks.includes(main.id) && LAZY.test(m.name)).map((m) => String(m.id)),
  )
  if (ids.size === 0) return { main: text, lazy: undefined }
  const end = text.indexOf(TABLE_END)
  const marks = [...text.slice(0, end).matchAll(MARKER)]
  const found = marks.filter((m) => ids.has(m[1]))
  if (end < 0 || found.length !== ids.size || !text.includes('__WEBPACK_EXTERNAL_createRequire'))
    throw new Error(`${file}: ncc's module table is not as lazy-modules expects (did ncc change?)`)
  const kept = []
  const moved = []
  marks.forEach((m, i) => {
    const body = text.slice(m.index, i + 1 < marks.length ? marks[i + 1].index : end)
    ;(ids.has(m[1]) ? moved : kept).push(body)
  })
  const table = [...ids].map(Number)
  const loader =
    `\n/******/ });\n` +
    `// ${table.length} modules in ./${LAZY_FILE}, loaded on first use (scripts/lazy-modules.mjs).\n` +
    `let __lazy_modules__;\n` +
    `for (const id of ${JSON.stringify(table)}) Object.defineProperty(__webpack_modules__, id, {\n` +
    `  configurable: true, enumerable: true,\n` +
    `  get: () => (__lazy_modules__ ??= __WEBPACK_EXTERNAL_createRequire(import.meta.url)("./${LAZY_FILE}"))[id],\n` +
    `});\n`
  return {
    main: text.slice(0, marks[0].index) + kept.join('') + loader + text.slice(end + TABLE_END.length),
    lazy: `module.exports = {\n${moved.join('')}\n};\n`,
  }
}
