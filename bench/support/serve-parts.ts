/*
 * Where `serve`'s main thread spends its instructions up to the first answer, part by part (the
 * table of BENCHMARKS.md's cold-start sections), counted by callgrind:
 *   node --import tsx bench/support/serve-parts.ts [<checkout>,...] [<runs>] [<seed>]
 * arguments as bench/support/serve-instructions.ts's. Each checkout's bin and build/cli-bundle are
 * copied to a temporary directory (not kept) and serve.cjs there gets a mark at each boundary of
 * MARKS: a call of `process.getActiveResourcesInfo()`, a native function nothing else in a start
 * calls, and callgrind dumps its counters as it is entered (`--dump-before`), so each dump holds
 * the instructions since the last mark. Prints each part's median over the runs without V8's
 * collector (whose collections fall in one part or another by their timing), in M, with the range,
 * then the whole start's with and without it. A mark costs some thousand instructions, far below the parts it separates.
 * `CALLGRIND_KEEP=DIR` keeps the profiles there (callgrind.PID.N-01: the main thread's Nth part).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { callgrindStart, prime, profileCounts, startKind } from './callgrind-start.js'

const MARK = 'process.getActiveResourcesInfo();'

/** A boundary in serve.cjs: a text met exactly once, the mark put before or after it, and the part it ends. */
interface Mark {
  text: string
  at: 'before' | 'after' | 'end'
  ends: string
}

const MARKS: Mark[] = [
  {
    text: '(function (exports, require, module, __filename, __dirname) {',
    at: 'after',
    ends: 'Node, the bin, main.js, serve.cjs read and its code cache',
  },
  { text: '', at: 'end', ends: 'the bundle evaluated' },
  {
    text: 'await startSeed(options2,host);',
    at: 'after',
    ends: "serve's options, the start flags, the seed file read and digested",
  },
  {
    text: 'const state=openState(options2);',
    at: 'after',
    ends: 'the store from its image, the services (openState)',
  },
  {
    text: 'await installEdge(state,{...options2,instruments});',
    at: 'after',
    ends: 'Fastify and the edge (installEdge)',
  },
  {
    text: 'mountRoutes(app,{...state,instruments});',
    at: 'after',
    ends: "the routes' registration (mountRoutes)",
  },
  { text: 'mountPages(app,{...state,instruments});', at: 'after', ends: 'the pages' },
  {
    text: 'this.emit("preReady");',
    at: 'before',
    ends: "listen to avvio's preReady (the routes' after steps)",
  },
  { text: 'this.emit("preReady");', at: 'after', ends: "avvio's preReady (each route's hooks, schemas)" },
  { text: 'await app.listen({host,port});', at: 'after', ends: 'preReady to listening' },
]
const LAST_PART = 'listening to the first answer'

const checkouts = (process.argv[2] ?? '.').split(',').map((c) => resolve(c))
const runs = Number(process.argv[3] ?? 3)
const kind = process.argv[4] ?? 'issues'
const keep = process.env.CALLGRIND_KEEP

const dir = mkdtempSync(join(tmpdir(), 'gla-serve-parts-'))
const run = startKind(kind, dir)

/** A copy of `checkout`'s bin and CLI bundle with the marks in serve.cjs; its directory. */
function marked(checkout: string, name: string): string {
  const copy = join(dir, name)
  for (const part of ['package.json', 'bin', 'build/cli-bundle'])
    cpSync(join(checkout, part), join(copy, part), { recursive: true })
  const file = join(copy, 'build/cli-bundle/serve.cjs')
  let source = readFileSync(file, 'utf8')
  for (const { text, at } of MARKS) {
    if (at === 'end') {
      const footer = source.lastIndexOf('})')
      source = source.slice(0, footer) + MARK + source.slice(footer)
      continue
    }
    const first = source.indexOf(text)
    if (first < 0 || source.indexOf(text, first + 1) >= 0)
      throw new Error(`${name}: "${text}" is not met once`)
    const cut = at === 'before' ? first : first + text.length
    source = source.slice(0, cut) + MARK + source.slice(cut)
  }
  writeFileSync(file, source)
  return copy
}

/** One start under callgrind; the main thread's instructions of each part, all and the collector's, in M. */
async function counted(checkout: string, out: string): Promise<{ all: number; gc: number }[]> {
  await callgrindStart(checkout, run, out, ['--dump-before=node::GetActiveResourcesInfo*'])
  // callgrind.PID.N-01: the main thread's Nth dump.
  const dumps = readdirSync(out)
    .map((f) => /^callgrind\.\d+\.(\d+)-01$/.exec(f))
    .filter((m) => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => profileCounts(join(out, m.input)))
  if (dumps.length !== MARKS.length + 1) throw new Error(`${dumps.length} dumps, not ${MARKS.length + 1}`)
  return dumps
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

try {
  const copies = checkouts.map((c, i) => marked(c, `${i}-${basename(c)}`))
  await prime(copies, run, dir)
  const counts = copies.map(() => [] as { all: number; gc: number }[][])
  for (let i = 0; i < runs; i++)
    for (const [c, copy] of copies.entries()) {
      const out = join(dir, `out-${c}-${i}`)
      counts[c]!.push(await counted(copy, out))
      if (keep) cpSync(out, join(keep, `${basename(checkouts[c]!)}-${kind}-${i}`), { recursive: true })
    }
  // Each part without the collector (its collections land in one part or the next by their timing),
  // then the whole start with and without it.
  const parts = [...MARKS.map((m) => m.ends), LAST_PART, 'all, without the collector', 'all']
  const of = (dumps: { all: number; gc: number }[], p: number) => {
    if (p < dumps.length) return dumps[p]!.all - dumps[p]!.gc
    const all = dumps.reduce((sum, d) => sum + d.all, 0)
    return p === dumps.length ? all - dumps.reduce((sum, d) => sum + d.gc, 0) : all
  }
  const cells = counts.map((runsOf) =>
    parts.map((_, p) => {
      const xs = runsOf.map((dumps) => of(dumps, p))
      return `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`
    }),
  )
  console.log(`| part (${kind}, M, medians of ${runs}) | ${checkouts.map((c) => basename(c)).join(' | ')} |`)
  console.log(`| --- |${checkouts.map(() => ' --- |').join('')}`)
  for (const [p, part] of parts.entries()) console.log(`| ${part} | ${cells.map((c) => c[p]).join(' | ')} |`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
