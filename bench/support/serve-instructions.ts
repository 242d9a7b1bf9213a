/*
 * Instructions `serve`'s main thread runs from process start to its first answer, counted by
 * callgrind: on a shared machine wall and CPU times say little, instructions do.
 *   node --import tsx bench/support/serve-instructions.ts [<checkout>,...] [<runs>] [<seed>]
 * `<seed>`: `issues` (default: bench/cold-start.ts's 1,000-issue seed file and its first list),
 * `none` or `builtin` (bench/start.ts's rows). Each checkout's `bin/gitlab-actions.js serve --port 0`
 * runs under `valgrind --tool=callgrind --separate-threads=yes`, the checkouts alternating round by
 * round; once the answer is read the counters are dumped (`callgrind_control --dump`) and the server
 * stopped. Two plain starts of each first prime its code cache and seeded image, as a user's second
 * start finds them, in a compile cache directory of this run's (another run's cache of the same
 * build counted 5% more). Prints each run's main-thread count, and the same without V8's collector
 * (the inclusive count of `Heap::CollectGarbage`, whose share moves with the collections' timing), in M.
 * `CALLGRIND_KEEP=DIR` keeps the profiles there (for callgrind_annotate).
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { callgrindStart, prime, profileCounts, startKind } from './callgrind-start.js'

const checkouts = (process.argv[2] ?? '.').split(',').map((c) => resolve(c))
const runs = Number(process.argv[3] ?? 3)
const kind = process.argv[4] ?? 'issues'
const keep = process.env.CALLGRIND_KEEP

const dir = mkdtempSync(join(tmpdir(), 'gla-serve-instructions-'))
const run = startKind(kind, dir)

/** One start under callgrind; its main thread's instructions, all and without the collector, in M. */
async function counted(checkout: string, out: string): Promise<[number, number]> {
  await callgrindStart(checkout, run, out)
  const main = readdirSync(out).find((f) => f.endsWith('.1-01'))
  if (!main) throw new Error('no dump of the main thread')
  const { all, gc } = profileCounts(join(out, main))
  return [all, all - gc]
}

try {
  await prime(checkouts, run, dir)
  const counts = new Map<string, string[]>(checkouts.map((c) => [c, []]))
  for (let i = 0; i < runs; i++)
    for (const checkout of checkouts) {
      const out = join(dir, `${basename(checkout)}-${i}`)
      const [all, noGc] = await counted(checkout, out)
      counts.get(checkout)!.push(`${all.toFixed(1)}/${noGc.toFixed(1)}`)
      if (keep) cpSync(out, join(keep, `${basename(checkout)}-${kind}-${i}`), { recursive: true })
    }
  for (const [checkout, c] of counts) console.log(`${checkout} ${kind}: ${c.join(' ')} (M, all/without GC)`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
