import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire, getCompileCacheDir } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants, Script } from 'node:vm'
import { crc32 } from 'node:zlib'
import type { serve } from './serve.js'

/*
 * Start-up time: `serve` runs from build/cli-bundle/serve.cjs (scripts/bundle-cli.mjs) as a
 * vm.Script, so that V8's code cache of it can be made after a run. Node's compile cache holds
 * only what V8 compiles before a module runs, and most functions compile lazily, when first
 * called: a sixth of a start's work. This cache sits in Node's compile cache directory (named after
 * Node's version and V8's flags; none with NODE_DISABLE_COMPILE_CACHE=1) under the script's
 * checksum, and is written as the process exits (if the server answered a request, see
 * keepOnExit) when there was none, V8 refused it, or this run compiled more than it holds.
 */

/** `serve` from build/cli-bundle/serve.cjs, compiled with the code cache of an earlier run if any. */
export function loadServe(): typeof serve {
  const file = fileURLToPath(new URL('./serve.cjs', import.meta.url))
  const source = readFileSync(file)
  const dir = getCompileCacheDir()
  const cacheFile =
    dir && join(dir, `gitlab-actions-serve-${crc32(source).toString(16)}-${source.length}.bin`)
  const cachedData = cacheFile ? readCache(cacheFile) : undefined
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source.toString()}\n})`,
    { filename: file, cachedData, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER },
  )
  if (cacheFile) keepOnExit(cacheFile, script, script.cachedDataRejected ? undefined : cachedData)
  const module = { exports: {} as { serve: typeof serve } }
  const run = script.runInThisContext() as (...args: unknown[]) => void
  run(module.exports, createRequire(file), module, file, dirname(file))
  return module.exports.serve
}

/**
 * Writes the cache as the process exits, if the server answered a request (a run that only printed
 * --help or refused a seed compiled too little to be worth keeping), unless the cache it started
 * with, `kept`, holds as much: a first run that read no seed (`--data`, `--seed none`) leaves out the
 * seed's parsing (a tenth of the cache), which a later run with a seed adds. A run's cache holds
 * every function of the one it started with, so it only grows; growth under 1% (a few functions
 * compiled at another moment of a like run) is not worth a rewrite.
 */
function keepOnExit(file: string, script: Script, kept: Buffer | undefined) {
  let answered = false
  const onAnswer = () => {
    answered = true
    unsubscribe('http.server.response.finish', onAnswer)
  }
  subscribe('http.server.response.finish', onAnswer)
  process.once('exit', () => {
    if (!answered) return
    const data = script.createCachedData()
    if (kept === undefined || data.length > kept.length * 1.01) writeCache(file, data)
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
