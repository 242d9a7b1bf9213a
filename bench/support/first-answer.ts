/*
 * A server process from its spawn to its first answer: the rows that time a start (cold-start,
 * start) share it. Besides the wall time, the CPU time the process's main thread had used by then
 * (Linux's /proc/<pid>/task/<pid>/schedstat, in nanoseconds): on a machine shared with other work
 * the wall time also counts the waits for a core, the CPU time does not. And its resident memory.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { request } from 'undici'

export interface FirstAnswer {
  /** Milliseconds from the spawn to the first answer read whole. */
  ms: number
  /** CPU milliseconds of the main thread by then (NaN where /proc has no schedstat). */
  cpuMs: number
  /** VmRSS in MB right after the first answer, and `settleMs` later (when asked). */
  rssMb: number
  settledRssMb?: number
}

/**
 * How long after a server's first answer its memory counts as settled. V8's memory reducer (full
 * collections that also give back the young generation a start grew) first looks some 8 s after the
 * process starts, and when it finds the start's allocations still recent it waits 8 s more: on a
 * busy machine, where a start takes seconds, that second look is the one that runs, 16-17 s in.
 */
export const SETTLE_MS = 20_000

/**
 * Points the servers this process starts at a compile cache directory of their own under `dir`
 * (Node's NODE_COMPILE_CACHE, where serve keeps its code cache and seeded images): serve keeps
 * the code cache the first seeded start of a build writes and never writes it again, so in the
 * shared default directory a start ran with whatever another run of the same build compiled (a
 * test's server, another benchmark's seed and first request), 5% more instructions than with its
 * own (BENCHMARKS.md, stop 51). The caller primes it with starts of its own; the function returned
 * puts the environment back.
 */
export function ownCompileCache(dir: string): () => void {
  const given = process.env.NODE_COMPILE_CACHE
  process.env.NODE_COMPILE_CACHE = join(dir, 'compile-cache')
  return () => {
    if (given === undefined) delete process.env.NODE_COMPILE_CACHE
    else process.env.NODE_COMPILE_CACHE = given
  }
}

/** CPU milliseconds `pid`'s main thread has used (NaN where /proc has no schedstat). */
export const mainThreadCpuMs = (pid: number) => {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return NaN
  }
}
/** VmRSS of `pid` in MB. */
export const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

/**
 * Spawns `command args` (a server printing its `http://host:port` on stdout), asks `path` once and
 * expects a 200; then, after `settleMs` (default 0), reads its memory again, and stops it.
 */
export async function firstAnswer(
  command: string,
  args: string[],
  path: string,
  headers: Record<string, string>,
  options: { settleMs?: number; cwd?: string } = {},
): Promise<FirstAnswer> {
  const started = performance.now()
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: options.cwd })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /http:\/\/[\d.]+:\d+/.exec(out)
        if (m) resolve(m[0])
      })
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)))
    })
    const res = await request(`${url}${path}`, { headers })
    await res.body.dump()
    if (res.statusCode !== 200) throw new Error(`first answer was ${res.statusCode}`)
    const ms = performance.now() - started
    // npx runs the server as a grandchild: the child's own figures are npm's, so none are read.
    const own = command === process.execPath || command.endsWith('/node')
    const answer: FirstAnswer = {
      ms,
      cpuMs: own ? mainThreadCpuMs(child.pid!) : NaN,
      rssMb: own ? rssMb(child.pid!) : NaN,
    }
    if (options.settleMs) {
      await new Promise((resolve) => setTimeout(resolve, options.settleMs))
      answer.settledRssMb = rssMb(child.pid!)
    }
    return answer
  } finally {
    // Waited for: a stopping serve may still write its code cache (src/cli/serve-script.ts), CPU
    // the next start, often the other build's, would otherwise share.
    const exited = child.exitCode === null ? once(child, 'exit') : undefined
    child.kill('SIGTERM')
    await exited
  }
}
