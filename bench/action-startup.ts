/*
 * bench/action-startup: each action bundle (dist/<name>/index.js, `npm run bundle`) run as a runner
 * runs it (INPUT_*, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), from process start to its first HTTP
 * request, which a tiny node:http server on port 0 in this process records on arrival (and answers
 * 404, so the action stops). Baseline, in the same run: `node -e ''` from start to exit. Also
 * prints each bundle's size. Target (issue 21): under 100 ms to the first request. With
 * BENCH_BEFORE_DIR (a checkout with its bundles built, run by BENCH_BEFORE_NODE), that checkout's
 * dist/<name>/index.js joins the alternating runs, and a second row per action gives this build's
 * time over that one's, with each side's main-thread CPU at the first request.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { mainThreadCpuMs } from './support/first-answer.js'
import { beforeBuild, median } from './support/measure.js'

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7)
const dist = fileURLToPath(new URL('../dist/', import.meta.url))

/** Inputs that make each action's first step an HTTP request to `url`. */
export function inputsFor(name: string, url: string, dir: string): Record<string, string> {
  const common = { 'gitlab-url': url, token: 'glpat-bench-token' }
  switch (name) {
    case 'trigger-pipeline':
      return { ...common, project: 'bench/issues', token: 'glptt-bench-token', wait: 'false' }
    case 'export-project':
      return { ...common, project: 'bench/issues', 'download-dir': join(dir, 'downloads') }
    case 'import-project':
      return { ...common, archive: join(dir, 'archive.tar.gz'), path: 'restored' }
    case 'sync-issues':
      return {
        ...common,
        project: 'bench/issues',
        'github-token': 'ghp_bench',
        repository: 'bench/issues',
        mode: 'full',
      }
    default:
      return { ...common, project: 'bench/issues' }
  }
}

export async function run(): Promise<{ name: string; ratio: number; detail: string }[]> {
  const other = beforeBuild()
  const dir = mkdtempSync(join(tmpdir(), 'gla-startup-'))
  let arrived: (() => void) | undefined
  const server = createServer((req, res) => {
    arrived?.()
    req.resume()
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Project Not Found"}')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    writeFileSync(join(dir, 'archive.tar.gz'), Buffer.alloc(1024))
    writeFileSync(join(dir, 'output'), '')
    writeFileSync(join(dir, 'summary'), '')

    /**
     * Milliseconds from spawn to the first request (or to exit when `toExit`), and the main
     * thread's CPU milliseconds at the first request.
     */
    const once_ = async (
      args: string[],
      env: Record<string, string>,
      toExit: boolean,
      node = process.execPath,
    ) => {
      const started = performance.now()
      const child = spawn(node, args, { env, stdio: 'ignore' })
      const exited = once(child, 'exit')
      try {
        if (toExit) await exited
        else
          await Promise.race([
            new Promise<void>((resolve) => (arrived = resolve)),
            exited.then(() => {
              throw new Error(`${args.join(' ')} exited before making a request`)
            }),
          ])
        return { ms: performance.now() - started, cpuMs: toExit ? NaN : mainThreadCpuMs(child.pid!) }
      } finally {
        arrived = undefined
        if (child.exitCode === null) {
          child.kill('SIGKILL')
          await exited
        }
      }
    }

    const bare: number[] = []
    for (let i = 0; i < RUNS; i++)
      bare.push((await once_(['-e', ''], { PATH: process.env.PATH ?? '' }, true)).ms)
    const nodeMs = median(bare)

    // dist/serve is the one-file server, not an action: its start is what cold-start measures.
    const names = readdirSync(dist)
      .filter((n) => n !== 'serve' && existsSync(join(dist, n, 'index.js')))
      .sort()
    if (names.length === 0) throw new Error('no bundles in dist/: run `npm run bundle` first')
    const rows = []
    for (const name of names) {
      const bundle = join(dist, name, 'index.js')
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        GITHUB_OUTPUT: join(dir, 'output'),
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        GITHUB_API_URL: url, // sync-issues: GitHub's side goes to the same recorder
      }
      for (const [k, v] of Object.entries(inputsFor(name, url, dir))) env[`INPUT_${k.toUpperCase()}`] = v
      const beforeBundle = other && join(other.dir, 'dist', name, 'index.js')
      if (beforeBundle && !existsSync(beforeBundle))
        throw new Error(`BENCH_BEFORE_DIR ${other.dir} has no ${name} bundle: run \`npm run bundle\` there`)
      await once_([bundle], env, false) // warm-up (page cache)
      if (beforeBundle) await once_([beforeBundle], env, false, other.node)
      const runs: { ms: number; cpuMs: number }[] = []
      const before: { ms: number; cpuMs: number }[] = []
      for (let i = 0; i < RUNS; i++) {
        if (beforeBundle) before.push(await once_([beforeBundle], env, false, other.node))
        runs.push(await once_([bundle], env, false))
      }
      const ms = median(runs.map((r) => r.ms))
      const cpu = (side: { cpuMs: number }[]) => `${median(side.map((r) => r.cpuMs)).toFixed(0)} ms of CPU`
      rows.push({
        name: `action-startup: ${name} to first request / node -e '' (target < 100 ms)`,
        ratio: ms / nodeMs,
        detail:
          `${ms.toFixed(0)} ms to first request (${(ms - nodeMs).toFixed(0)} ms over node's own start), ` +
          `node -e '' ${nodeMs.toFixed(0)} ms; bundle ${(statSync(bundle).size / 2 ** 20).toFixed(2)} MB; medians of ${RUNS}` +
          (ms >= 100 ? '; MISSES the 100 ms target' : ''),
      })
      if (other && beforeBundle) {
        const beforeMs = median(before.map((r) => r.ms))
        rows.push({
          name: `action-startup: ${name} this build / the build in BENCH_BEFORE_DIR, to first request`,
          ratio: ms / beforeMs,
          detail:
            `this build ${ms.toFixed(0)} ms (${cpu(runs)}), before (${other.label}) ${beforeMs.toFixed(0)} ms ` +
            `(${cpu(before)}); bundle ${(statSync(beforeBundle).size / 2 ** 20).toFixed(2)} MB; medians of ${RUNS}, alternating`,
        })
      }
    }
    return rows
  } finally {
    server.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
