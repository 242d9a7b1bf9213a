import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

type Collect = (options: { type: 'minor' | 'major'; flavor?: 'regular' | 'last-resort' }) => void

let collect: Collect | undefined

/** Whether Node was started with `--expose-gc` (then the flag is left as it is). */
const startedWithGc = () =>
  [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => /expose[-_]gc/.test(arg))

/**
 * V8's `gc`, exposed to one new context only (as Jest does), not to the server's own code. The
 * flag is turned off again at once: V8 stamps code caches with a hash of its flags, and serve's
 * own cache, written as it exits, would be refused by the next start's V8.
 */
function gc(): Collect {
  if (!collect) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as Collect
    if (!startedWithGc()) setFlagsFromString('--no-expose-gc')
  }
  return collect
}

/**
 * Runs a minor (young-generation) collection now. Streams that turn little JavaScript garbage into
 * much off-heap memory (gunzip hands out a fresh 16 KiB Buffer per 16 KiB of output) let dead
 * Buffers pile up: once a busy server's young generation has grown (32 MB after an export), V8
 * collects it only when it fills, or when off-heap memory has grown by 64 MB, and the allocator
 * keeps the pages it grew for them. A minor collection of a mostly dead young generation takes
 * about a millisecond.
 */
export function collectYoungGarbage(): void {
  gc()({ type: 'minor' })
}

/** Lines of fewer JSON elements than this are ordinary: an issue with its notes holds hundreds. */
const HEAVY_LINE_ELEMENTS = 10_000
/** Elements of heavy lines saved between two collections of `collectAfterHeavyLine`. */
const HEAVY_ELEMENTS_PER_COLLECTION = 250_000

let heavyElements = 0
let heavyCollection: NodeJS.Immediate | undefined

/**
 * An import calls this for each line it has saved (`elements`: JsonShape's count). Parsing a line
 * of a quarter of a million elements builds its objects over several young collections, so they
 * die in the old generation, which V8 lets grow a long while: twelve such lines of `{}` in each of
 * two imports took the server to 477 MB. After each quarter million elements of heavy lines, a
 * full, memory-reducing collection (100-400 ms on a loaded 2-core machine) brings it back (213 MB),
 * run once the caller has let go of the lines. Ordinary archives never run it.
 */
export function collectAfterHeavyLine(elements: number): void {
  if (elements < HEAVY_LINE_ELEMENTS) return
  heavyElements += elements
  if (heavyElements < HEAVY_ELEMENTS_PER_COLLECTION || heavyCollection) return
  heavyElements = 0
  heavyCollection = setImmediate(() => {
    heavyCollection = undefined
    gc()({ type: 'major', flavor: 'last-resort' })
  }).unref()
}

/** Bytes a transfer job moves (archive content written or extracted) that make it a big one. */
export const BIG_JOB_BYTES = 16 * 1024 * 1024

/** How long after a big job's final status its collection runs: the status answer goes out first. */
const AFTER_JOB_DELAY_MS = 100

let scheduled: NodeJS.Timeout | undefined

/**
 * After a big job (an export or import that moved `bytes` of archive content), a full,
 * memory-reducing collection (V8's last-resort one: two mark-compacts, 61-73 ms after the
 * transfer row's export and import of 100,000 issues; the export takes 1.5-3 s), run shortly
 * after the job's final status so that a client polling for it is not kept waiting. Buffers that
 * lived through a few young collections die in the old generation, which an idle server may not
 * collect for a long time (an export of 100,000 issues left 18 MB of them for the import after
 * it), and the young generation the job grew (32 MB, up to 128 MB in an import) stays that size;
 * this frees the first and shrinks the second, so the next job starts from an idle server's
 * memory. Small jobs grow neither and skip it.
 */
export function collectAfterJob(bytes: number): void {
  if (bytes < BIG_JOB_BYTES || scheduled) return
  scheduled = setTimeout(() => {
    scheduled = undefined
    gc()({ type: 'major', flavor: 'last-resort' })
  }, AFTER_JOB_DELAY_MS)
  scheduled.unref()
}
