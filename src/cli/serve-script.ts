import type { Script as ScriptType } from 'node:vm'
import type { serve } from './serve.js'

// Start-up time: Node's built-ins taken as CommonJS modules, not imported. An ES import of a
// built-in makes a module facade that reads every export, lazy ones too: these eight imported
// loaded 11 more internal modules (fs streams, worker_threads...) that serve never uses; 6.4-10
// against 2.8-4.0 ms of CPU for the eight alone in a fresh process.
const { subscribe, unsubscribe } = process.getBuiltinModule('node:diagnostics_channel')
const { readFileSync, renameSync, writeFileSync } = process.getBuiltinModule('node:fs')
const { createRequire, getCompileCacheDir } = process.getBuiltinModule('node:module')
const { dirname, join } = process.getBuiltinModule('node:path')
const { fileURLToPath } = process.getBuiltinModule('node:url')
const { parseArgs } = process.getBuiltinModule('node:util')
const { setFlagsFromString } = process.getBuiltinModule('node:v8')
const { constants, Script } = process.getBuiltinModule('node:vm')
const { crc32 } = process.getBuiltinModule('node:zlib')

/*
 * Start-up time: `serve` runs from build/cli-bundle/serve.cjs (scripts/bundle-cli.mjs) as a
 * vm.Script, so that V8's code cache of it can be made after a run. Node's compile cache holds
 * only what V8 compiles before a module runs, and most functions compile lazily, when first
 * called: a sixth of a start's work. This cache sits in Node's compile cache directory (named after
 * Node's version and V8's flags; none with NODE_DISABLE_COMPILE_CACHE=1) under the script's
 * checksum, and is written as the process exits (if the server answered a request, see
 * keepOnExit) when there was none, V8 refused it, or it was made by a run that read no seed file
 * and this one read one. V8's data is followed by one byte saying which (SEEDED or SEEDLESS): a
 * trailer, so that V8's data starts where the file's Buffer does, aligned (V8 copies unaligned data).
 */

const SEEDLESS = 0
const SEEDED = 1

/**
 * `serve` from build/cli-bundle/serve.cjs, compiled with the code cache of an earlier run if any.
 * `argv`: serve's arguments, read only to know whether this run reads a seed file.
 */
export function loadServe(argv: string[]): (args: string[]) => Promise<number> {
  const file = fileURLToPath(new URL('./serve.cjs', import.meta.url))
  const source = readFileSync(file)
  const build = `${crc32(source).toString(16)}-${source.length}`
  const dir = getCompileCacheDir()
  const cacheFile = dir && join(dir, `gitlab-actions-serve-${build}.bin`)
  const kept = cacheFile ? readCache(cacheFile) : undefined
  // The file holds the CommonJS wrapper already (scripts/bundle-cli.mjs): no copy of it is made here.
  const script = new Script(source.toString(), {
    filename: file,
    cachedData: kept?.subarray(0, -1),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const kind = readsSeedFile(argv) ? SEEDED : SEEDLESS
  // V8's data of a run like this one holds what this run compiles: making it again at exit would
  // cost 50-80 ms of CPU to learn that. A run that reads a seed file compiles the seed's parsing too.
  const covered =
    kept !== undefined && !script.cachedDataRejected && (kept.at(-1) === SEEDED || kind === SEEDLESS)
  if (cacheFile && !covered) keepOnExit(cacheFile, script, kind)
  const module = { exports: {} as { serve: typeof serve } }
  const run = script.runInThisContext() as (...args: unknown[]) => void
  run(module.exports, createRequire(file), module, file, dirname(file))
  const started = module.exports.serve
  const startOver = startFlags()
  const listening = () => {
    startOver()
    release(source)
    if (kept) release(kept)
  }
  // The script's checksum names the build, whose stores seeded from a file are kept for the next start.
  return (args) => started(args, { build, listening })
}

/*
 * Memory after start (issue 44: VmRSS half a second after the first answer; V8's memory reducer,
 * which gives back what a start grew, first runs 8-17 s in).
 * - The young generation: V8 doubles a semi-space each time more has survived in it than it holds,
 *   and the server's start keeps some 4 MB of what it makes, which grew it from 1 MB to 4 MB (8 MB
 *   committed, 7 MB resident). From the script's first run to listening it may not grow past what
 *   it reached (2 MB): 3 MB less resident, in the same CPU time (a 1 MB cap from the process start
 *   cost a fifth more: scavenges, and a full collection the promotions brought on). V8 reads the
 *   factor when it grows the space; from the first request on it is V8's default again, so a load
 *   grows it as before. Not from listening: the start leaves the space nearly full, and V8's
 *   scavenge task that runs soon after listening grew it at once. Set after the script compiled:
 *   V8 checks its code cache against the flags' hash.
 * - V8's optimizing compilers (Maglev, Turbofan), off from the script's first run to listening: what
 *   Maglev compiled of the start's code (some 16 functions, the router's route registration the
 *   largest) cost 3.5-4 MB resident, in the malloc arenas of the worker threads that compiled it.
 *   The main thread runs that code unoptimized instead: its CPU time to the first answer is the
 *   same within a loaded machine's noise, callgrind counts some 5% more instructions on it
 *   (BENCHMARKS.md, stop 44). Back on once listening (the flags' hash as before, so the code cache
 *   is kept): a load optimizes as before.
 * - The script's source and its code cache, two Buffers of 1.8 MB, are garbage once compiled but
 *   held until a full collection. Detached (freed) once listening, not before: glibc raises its
 *   mmap threshold to the size of a block it unmaps, and the start's later blocks up to that size
 *   then come from its heap and stay resident when freed (2.5 MB saved freed at once, 4.3 MB freed
 *   once listening).
 */

/**
 * V8's flags for the start: the flag's name, its start value, and V8's own value, put back when
 * listening or at the first request.
 */
const START_FLAGS = [
  ['semi-space-growth-factor', '--semi-space-growth-factor=1', '--semi-space-growth-factor=2', 'request'],
  ['maglev', '--no-maglev', '--maglev', 'listening'],
  ['turbofan', '--no-turbofan', '--turbofan', 'listening'],
] as const

/** Sets START_FLAGS; the function it returns (called when listening) puts them back, each when it says. */
function startFlags(): () => void {
  // Whoever gave V8 one of these (node --no-maglev...) keeps theirs: it is left alone.
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? '']
  const ours = START_FLAGS.filter(([name]) => !given.some((a) => a.includes(name)))
  // V8 checks a code cache against its flags' hash, the one Node's built-ins come with too: a built-in
  // first loaded while ours are set is compiled from its source (twice the instructions of a cluster
  // loaded with its cache). `listen` loads cluster, and with it child_process and dgram (13 modules):
  // loaded here, under V8's own flags (BENCHMARKS.md, stop 50).
  if (ours.length > 0) process.getBuiltinModule('node:cluster')
  for (const [, start] of ours) setFlagsFromString(start)
  return () => {
    for (const [, , own, when] of ours) {
      if (when === 'listening') setFlagsFromString(own)
      else {
        const first = () => {
          unsubscribe('http.server.request.start', first)
          setFlagsFromString(own)
        }
        subscribe('http.server.request.start', first)
      }
    }
  }
}

/** Frees a Buffer's memory now rather than at the next full collection; only one that owns its ArrayBuffer. */
function release(buffer: Buffer) {
  const own = buffer.buffer
  if (own instanceof ArrayBuffer && buffer.byteOffset === 0 && buffer.byteLength === own.byteLength)
    own.transfer(0)
}

/** Whether serve's `argv` reads a seed file: `--seed FILE` (or `--seed=FILE`) other than `none`. */
function readsSeedFile(argv: string[]): boolean {
  // Read as serve reads its options (the others do not matter here, whatever they are).
  const { seed } = parseArgs({ args: argv, options: { seed: { type: 'string' } }, strict: false }).values
  return typeof seed === 'string' && seed !== '' && seed !== 'none'
}

/**
 * Writes the cache (V8's data, then `kind`) as the process exits, if the server answered a request:
 * a run that only printed --help or refused a seed compiled too little to be worth keeping.
 */
function keepOnExit(file: string, script: ScriptType, kind: number) {
  let answered = false
  const onAnswer = () => {
    answered = true
    unsubscribe('http.server.response.finish', onAnswer)
  }
  subscribe('http.server.response.finish', onAnswer)
  process.once('exit', () => {
    if (answered) writeCache(file, Buffer.concat([script.createCachedData(), Buffer.of(kind)]))
  })
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** Written whole or not at all (another server may read it meanwhile); a cache that cannot be written is none. */
function writeCache(file: string, data: Buffer) {
  const part = `${file}.${process.pid}.part`
  try {
    writeFileSync(part, data)
    renameSync(part, file)
  } catch {
    // a read-only directory: the next start compiles as this one did
  }
}
