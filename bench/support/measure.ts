/*
 * What the load rows share: starting server children (this build's, or another build's for a
 * before/after comparison), measuring sides alternately with medians, and the generator check.
 * The generator check measures the bare server at N and at 2N connections and fails the row when 2N
 * gets more than 10% more: then N connections did not drive even the bare server to its ceiling, so
 * the ratios at N measure the instrument. (2N getting less only says the ceiling was reached at N and
 * more connections cost more; on a shared machine it is noise, so it is printed, not failed.) Agreement shows N saturates the machine (server, or wrk and
 * server sharing the 2 cores), not that wrk has headroom; so the check also fails when wrk's own CPU
 * reached 90% of what its threads can use (a saturated generator), and prints both processes' CPU.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { THREADS, type Load } from './wrk.js'

const child = fileURLToPath(new URL('./server-child.ts', import.meta.url))

/** Rounds of an alternating measurement (BENCH_ROUNDS); the figures are their medians. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/**
 * `BENCH_REQUEST_LOG=compare`: a second reference server with no request log joins the rounds of
 * issues-list and mixed-load, and a row gives the rate with the log (the default, 1000 requests)
 * over the rate without (issue 42's target: at least 0.9).
 */
export const COMPARE_LOG = process.env.BENCH_REQUEST_LOG === 'compare'

export interface Started {
  url: string
  seedMs: number
  proc: ChildProcess
  stop(): Promise<void>
}

/**
 * Another build of this repository to measure with the same instrument: a checkout in
 * BENCH_BEFORE_DIR (with its own node_modules) run by BENCH_BEFORE_NODE (default: this Node).
 */
export interface OtherBuild {
  dir: string
  node: string
  /** `<short commit> on Node <version>`, for the figures. */
  label: string
}

/** The build named by BENCH_BEFORE_DIR / BENCH_BEFORE_NODE, or undefined when unset. */
export function beforeBuild(): OtherBuild | undefined {
  const dirEnv = process.env.BENCH_BEFORE_DIR
  if (!dirEnv) return undefined
  const dir = resolve(dirEnv)
  const node = process.env.BENCH_BEFORE_NODE ?? process.execPath
  if (!existsSync(join(dir, 'bench/support/server-child.ts')))
    throw new Error(`BENCH_BEFORE_DIR ${dir} has no bench/support/server-child.ts`)
  const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  return { dir, node, label: `${commit} on Node ${version}` }
}

/** Throws unless `build` has its CLI built (the rows that start `bin/gitlab-actions.js` need it). */
export function assertBuilt(build: OtherBuild): void {
  if (!existsSync(join(build.dir, 'build/cli-bundle/main.js')))
    throw new Error(`BENCH_BEFORE_DIR ${build.dir} is not built: run \`npm run build\` there`)
}

/**
 * Starts `server-child.ts` in its own Node process (through tsx) and waits for its READY line;
 * with `build`, that build's server-child.ts, run by its Node from its directory.
 */
export async function startChild(args: string[], build?: OtherBuild): Promise<Started> {
  const proc = build
    ? spawn(build.node, ['--import', 'tsx', 'bench/support/server-child.ts', ...args], {
        cwd: build.dir,
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, ['--import', 'tsx', child, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  const ready = await new Promise<string>((resolve, reject) => {
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => l.startsWith('READY '))
      if (line) resolve(line)
    })
    proc.once('exit', (code) => reject(new Error(`server child exited with ${code}`)))
  })
  const [, url, seedMs] = ready.split(' ')
  return {
    url: url as string,
    seedMs: Number(seedMs),
    proc,
    async stop() {
      proc.kill('SIGTERM')
      if (proc.exitCode === null) await once(proc, 'exit')
    },
  }
}

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

/** Milliseconds `fn` took, awaited. */
export async function timed(fn: () => unknown): Promise<number> {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

/**
 * Measures each side in turn, round after round (A, B, C, A, B, C...), so that a busy moment of the
 * shared machine favours no side; returns each side's medians (errors and counts are summed). Each
 * run is printed on stderr as it ends, so a failed row still shows every side's figures.
 */
export async function alternate<K extends string>(
  row: string,
  sides: Record<K, () => Promise<Load>>,
  rounds = ROUNDS,
): Promise<Record<K, Load>> {
  const runs = Object.fromEntries(Object.keys(sides).map((k) => [k, [] as Load[]])) as Record<K, Load[]>
  for (let round = 0; round < rounds; round++)
    for (const [k, measure] of Object.entries(sides) as [K, () => Promise<Load>][]) {
      const load = await measure()
      console.error(
        `${row} round ${round + 1}/${rounds}, ${k}: ${figures(load)}, wrk ${load.wrkCpu.toFixed(2)} cores, server ${load.serverCpu.toFixed(2)}`,
      )
      runs[k].push(load)
    }
  const out = {} as Record<K, Load>
  for (const [k, loads] of Object.entries(runs) as [K, Load[]][]) {
    const of = (f: (l: Load) => number) => median(loads.map(f))
    const sum = (f: (l: Load) => number) => loads.reduce((n, l) => n + f(l), 0)
    out[k] = {
      rps: of((l) => l.rps),
      p50: of((l) => l.p50),
      p99: of((l) => l.p99),
      errors: sum((l) => l.errors),
      non2xx: sum((l) => l.non2xx),
      total: sum((l) => l.total),
      wrkCpu: of((l) => l.wrkCpu),
      serverCpu: of((l) => l.serverCpu),
    }
  }
  return out
}

/** `1234 req/s (p50 1.2 ms, p99 5.0 ms, errors 0)` */
export const figures = (l: Load) =>
  `${l.rps.toFixed(0)} req/s (p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, errors ${l.errors + l.non2xx})`

/**
 * The generator check of the header: throws (failing the row, with `detail`) when the bare server's
 * rate at 2N connections beats N's by more than 10%, or wrk used 90% of its threads' CPU; else
 * returns its text for the row.
 */
export function generatorCheck(n: number, atN: Load, at2N: Load, detail: string): string {
  const change = at2N.rps / atN.rps - 1
  const text =
    `generator check: bare at ${n} connections ${atN.rps.toFixed(0)} req/s, at ${2 * n} ${at2N.rps.toFixed(0)} req/s ` +
    `(${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)}%, limit +10%); during the bare run wrk used ` +
    `${atN.wrkCpu.toFixed(2)} cores of its ${THREADS} threads' ${THREADS}, the server ${atN.serverCpu.toFixed(2)}`
  if (change > 0.1 || atN.wrkCpu >= 0.9 * THREADS) {
    console.error(
      `\n!!!!! ${text}: FAILED, the load generator's figures are not the server's ceiling !!!!!\n`,
    )
    throw new Error(`${text}: FAILED; ${detail}`)
  }
  return text
}
