/*
 * The HTTP load generator of bench/: wrk (C, one process, BENCH_WRK_THREADS threads), not a Node
 * generator: autocannon shares the 2 cores with the server and saturated near 21,000 req/s, below a
 * bare node:http server. Every run loads bench/wrk/report.lua (directly or from a request script),
 * whose done() hook prints one `wrk-json` line with the counts and latency percentiles parsed here.
 */
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const exec = promisify(execFile)
/** wrk's threads (BENCH_WRK_THREADS): each can keep at most one core busy. */
export const THREADS = Number(process.env.BENCH_WRK_THREADS ?? cpus().length)
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100

/** A file under bench/wrk/. */
export const wrkScript = (name: string) => fileURLToPath(new URL(`../wrk/${name}`, import.meta.url))

export interface Load {
  rps: number
  /** Latency percentiles in milliseconds. */
  p50: number
  p99: number
  /** Socket errors and timeouts (wrk's connect, read, write and timeout counts). */
  errors: number
  non2xx: number
  total: number
  /** CPU used over the run, in cores (1 = one core busy all along): wrk's and the server's. */
  wrkCpu: number
  serverCpu: number
}

let checked = false

/** Makes sure `wrk` runs: installs the Debian package when running as root, else says how. */
export function ensureWrk(): void {
  if (checked) return
  const runs = () => {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    } catch (err) {
      // wrk --version prints its usage and exits 1; only a missing binary is an error.
      return (err as NodeJS.ErrnoException).code !== 'ENOENT'
    }
    return true
  }
  if (!runs()) {
    if (process.getuid?.() !== 0)
      throw new Error('the load rows need wrk: install it with `sudo apt-get install -y wrk` and rerun')
    console.error('wrk not found: running apt-get install -y wrk')
    // A fresh image may have no package lists yet: update them only when the install fails.
    execFileSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if (!runs()) throw new Error('apt-get installed wrk, but it still does not run')
  }
  checked = true
}

/** User plus system CPU ticks a process has used so far (fields 14 and 15 of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/**
 * wrk against `url` at `connections` keep-alive connections for `seconds`, with `script` (default
 * report.lua) and its arguments; `serverPid` is the process whose CPU use is reported next to wrk's.
 */
export async function wrk(
  url: string,
  opts: {
    connections: number
    seconds: number
    serverPid: number
    headers?: Record<string, string>
    script?: string
    scriptArgs?: string[]
  },
): Promise<Load> {
  ensureWrk()
  const args = [
    `--threads=${Math.min(THREADS, opts.connections)}`,
    `--connections=${opts.connections}`,
    `--duration=${opts.seconds}s`,
    // As the autocannon runs had it: a slow answer under load is a latency, not an error.
    '--timeout=10s',
    `--script=${opts.script ?? wrkScript('report.lua')}`,
    ...Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['--header', `${k}: ${v}`]),
    url,
    ...(opts.scriptArgs?.length ? ['--', ...opts.scriptArgs] : []),
  ]
  const serverBefore = cpuTicks(opts.serverPid)
  const { stdout } = await exec('wrk', args, { maxBuffer: 1 << 20 })
  const serverTicks = cpuTicks(opts.serverPid) - serverBefore
  const line = stdout.split('\n').find((l) => l.startsWith('wrk-json '))
  if (!line) throw new Error(`wrk printed no wrk-json line:\n${stdout}`)
  const r = JSON.parse(line.slice('wrk-json '.length)) as Record<string, number>
  const at = (key: string) => r[key] as number
  const seconds = at('duration_us') / 1e6
  return {
    rps: at('requests') / seconds,
    p50: at('p50_us') / 1000,
    p99: at('p99_us') / 1000,
    errors: at('connect') + at('read') + at('write') + at('timeout'),
    non2xx: at('non2xx'),
    total: at('requests'),
    wrkCpu: at('cpu_ticks') / TICKS / seconds,
    serverCpu: serverTicks / TICKS / seconds,
  }
}
