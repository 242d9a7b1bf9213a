/*
 * bench/client-list: list all 10,000 issues of a project from the reference server with our typed
 * client, with @gitbeaker/rest, and with python-gitlab (Debian's python3-gitlab, installed here
 * when missing), each in its own process, in the same run. Prints each one's time and peak RSS and
 * the ratios (targets: ours at least 2.5x faster than gitbeaker in every round, issue 44's, and 3x
 * faster than python-gitlab; memory flat in the number of issues).
 * Our client runs as users import it: the package's main entry (build/client/, `npm run build`).
 * Besides the wall time, each list prints its process's CPU time and its main thread's, and the
 * row the server's CPU time during each list (all its threads, /proc/<pid>/task/<tid>/schedstat):
 * on a machine shared with other work the wall time also counts waits for a core, which our list
 * counts too (its involuntary context switches).
 * With BENCH_BEFORE_DIR (see measure.ts), that build's client (its build/client/index.js, run by
 * BENCH_BEFORE_NODE) lists in the same rounds, and a row gives its time over ours.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeBuild, startChild } from './support/measure.js'

const ISSUES = Number(process.env.BENCH_ISSUES ?? 10_000)
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))
const PYTHON = '/usr/bin/python3'
/** Rounds of each client (BENCH_CLIENT_ROUNDS), after one warm-up list each. */
const ROUNDS = Number(process.env.BENCH_CLIENT_ROUNDS ?? 5)

function ensurePythonGitlab(): boolean {
  const probe = spawnSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' })
  if (probe.status === 0) return true
  try {
    execFileSync('apt-get', ['install', '-y', 'python3-gitlab'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  } catch {
    return false
  }
  return spawnSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' }).status === 0
}

/** One list: wall and CPU milliseconds of the client, its peak RSS, and the server's CPU meanwhile. */
interface List {
  ms: number
  count: number
  rssMb: number
  cpuMs: number
  mainMs: number
  /** Milliseconds to the first item (our client's script only; NaN for the others). */
  firstMs: number
  /** Times the client's threads were taken off a core during the list (ours only; NaN for the others). */
  preempted: number
  serverMs: number
}

/** CPU milliseconds `pid` has used, all its threads (NaN where /proc has no schedstat). */
function processCpuMs(pid: number): number {
  try {
    let ns = 0
    for (const tid of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    return ns / 1e6
  } catch {
    return NaN
  }
}

function run(cmd: string, args: string[], serverPid: number): List {
  const serverBefore = processCpuMs(serverPid)
  const out = execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 20 })
    .trim()
    .split('\n')
    .pop() as string
  const serverMs = processCpuMs(serverPid) - serverBefore
  const [ms, count, rss, cpuMs, mainMs, firstMs = NaN, preempted = NaN] = out.split(' ').map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number?,
    number?,
  ]
  return { ms, count, rssMb: rss / 1024, cpuMs, mainMs, firstMs, preempted, serverMs }
}

/** The middle value (the upper one of an even count). */
const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const median = (runs: List[], of: (r: List) => number) => mid(runs.map(of))

/**
 * `163 ms (CPU 230 ms, main thread 140 ms), peak RSS 92 MB`: medians of a client's rounds, and for
 * our client the time to its first item (the first page's latency, before reading ahead begins).
 */
const figures = (runs: List[]) => {
  const first = median(runs, (r) => r.firstMs)
  return (
    `${median(runs, (r) => r.ms).toFixed(0)} ms (CPU ${median(runs, (r) => r.cpuMs).toFixed(0)} ms, ` +
    `main thread ${median(runs, (r) => r.mainMs).toFixed(0)} ms` +
    (Number.isNaN(first) ? '' : `, first item at ${first.toFixed(0)} ms`) +
    `), peak RSS ${median(runs, (r) => r.rssMb).toFixed(0)} MB`
  )
}

export async function run_(): Promise<{ name: string; ratio: number; detail: string }[]> {
  const before = beforeBuild()
  const beforeClient = before && join(before.dir, 'build/client/index.js')
  if (beforeClient && !existsSync(beforeClient))
    throw new Error(`BENCH_BEFORE_DIR ${before.dir} is not built: run \`npm run build\` there`)
  const server = await startChild(['reference', String(ISSUES)])
  const pid = server.proc.pid as number
  try {
    const node = (script: string) => () => run(process.execPath, [here(script), server.url], pid)
    const measures: Record<string, () => List> = {
      ours: node('./support/list-ours.mjs'),
      gitbeaker: node('./support/list-gitbeaker.mjs'),
    }
    if (existsSync(PYTHON) && ensurePythonGitlab())
      measures['python-gitlab'] = () =>
        run(PYTHON, [here('./support/list_python_gitlab.py'), server.url], pid)
    if (before && beforeClient)
      measures.before = () =>
        run(before.node, [here('./support/list-ours.mjs'), server.url, beforeClient], pid)
    // Rounds alternate between the clients, so the server warming up (JIT, caches) favours none.
    for (const measure of Object.values(measures)) measure()
    const runs: Record<string, List[]> = {}
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, measure] of Object.entries(measures)) (runs[name] ??= []).push(measure())
    for (const [name, list] of Object.entries(runs))
      for (const r of list)
        if (r.count !== ISSUES) throw new Error(`${name} listed ${r.count} of ${ISSUES} issues`)
    const ours = runs.ours as List[]
    const pages = Math.ceil(ISSUES / 100)
    const serverMs = median(ours, (r) => r.serverMs)
    const floor =
      `the server's CPU during our list ${serverMs.toFixed(0)} ms (${((serverMs * 1000) / pages).toFixed(0)} µs ` +
      `a page, all its threads)`
    const rows = Object.entries(runs)
      .filter(([name]) => name !== 'ours' && name !== 'before')
      .map(([name, list]) => {
        const ratios = list.map((r, i) => r.ms / (ours[i] as List).ms)
        const target = name === 'python-gitlab' ? 3 : 2.5
        // Each round's two times, so that a ratio printed as 2.00 can be told from one just below 2.
        const rounds = list.map((r, i) => `${ratios[i]!.toFixed(2)} (${r.ms}/${(ours[i] as List).ms} ms)`)
        // The CPU behind each of our rounds: a round slow by its wall time alone waited (for a core),
        // one slow in CPU too did more work (ours, or the server's).
        const ourWork = ours.map((r) => `${r.mainMs}/${r.cpuMs}/${r.serverMs.toFixed(0)}`).join(', ')
        // Involuntary context switches: how often a round waited for a core another process held.
        const ourWaits = ours.map((r) => r.preempted).join(', ')
        return {
          name: `client-list: ${name} time / ours, lowest of ${ROUNDS} rounds (target >= ${target})`,
          ratio: Math.min(...ratios),
          detail:
            `rounds ${rounds.join(', ')}; CPU in our rounds (main thread/process/server) ${ourWork} ms; ` +
            `our rounds taken off a core (involuntary context switches) ${ourWaits}; ` +
            `medians: ours ${figures(ours)}; ${name} ${figures(list)}; ` +
            `${floor}; ${ISSUES} issues, 100 per page` +
            (Math.min(...ratios) < target ? `; MISSES the ${target}x target` : ''),
        }
      })
    if (before && runs.before) {
      const then = runs.before
      const cpu = median(then, (r) => r.mainMs) / median(ours, (r) => r.mainMs)
      rows.push({
        name: `client-list: before / this build, time (medians of ${ROUNDS} alternating rounds)`,
        ratio: median(then, (r) => r.ms) / median(ours, (r) => r.ms),
        detail:
          `this build ${figures(ours)}; before (${before.label}) ${figures(then)}; main-thread CPU ` +
          `before / this build ${cpu.toFixed(2)}; ${ISSUES} issues, 100 per page`,
      })
    }
    return rows
  } finally {
    await server.stop()
  }
}
export { run_ as run }

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run_()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
