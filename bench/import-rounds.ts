/*
 * bench/import-rounds: the import of bench/transfer, measured in alternating rounds on several builds,
 * for a before/after comparison with more than one sample a side (bench/transfer takes one import each).
 *   node --import tsx bench/import-rounds.ts [<built checkout>...]
 * This build comes first, then each checkout given (built, with its own node_modules; read only).
 * Each build seeds one store of BENCH_TRANSFER_ISSUES issues (default 100,000) with its own
 * server-child.ts; every round then, for each build in turn, copies that store, serves the copy with
 * the build's `gitlab-actions serve --data`, and runs bench/transfer's phases through this build's
 * client: export, download, import of the downloaded archive. Per import it prints the time, the
 * server's CPU time (/proc/<pid>/stat) and its peak RSS (VmHWM) after the export and after the import;
 * then the medians and each build's ratios to the second build. BENCH_ROUNDS rounds (default 5).
 * BENCH_SERVER_NODE_ARGS (space-separated) go to every server's Node, e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof` (the profile is written when the server exits). BENCH_RESET_FIRST: each
 * server is reset (`POST /-/emulator/reset`) before the export, so the import runs with the reset's
 * undo log in place, as in a suite that called reset() (builds that have one).
 */
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { printedUrl } from './support/printed-url.js'
import { median } from './support/measure.js'

const ISSUES = Number(process.env.BENCH_TRANSFER_ISSUES ?? 100_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)
const exec = promisify(execFile)
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))
const TICK_MS = 10

/** The server's CPU time so far (ms) and its peak RSS (KiB). */
function usage(pid: number): { cpuMs: number; hwmKib: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return {
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    hwmKib: Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]),
  }
}

async function phase(url: string, ...args: string[]): Promise<{ ms: number; detail: string }> {
  const { stdout } = await exec(
    process.execPath,
    [here('./support/transfer-client.mjs'), ...args.slice(0, 1), url, ...args.slice(1)],
    {
      maxBuffer: 1 << 20,
    },
  )
  const [ms, , detail] = stdout.trim().split('\n').pop()?.split(' ') ?? []
  return { ms: Number(ms), detail: detail ?? '' }
}

interface Sample {
  importMs: number
  importCpuMs: number
  exportHwm: number
  importHwm: number
  failed: string
}

/** One round on one build: serve a copy of its seeded store, export, download, import. */
async function round(dir: string, data: string, work: string): Promise<Sample> {
  const copy = join(work, 'round-data')
  rmSync(copy, { recursive: true, force: true })
  cpSync(data, copy, { recursive: true })
  const server = spawn(
    process.execPath,
    [...NODE_ARGS, join(dir, 'bin/gitlab-actions.js'), 'serve', '--port', '0', '--data', copy],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  try {
    const url = await printedUrl(server)
    const pid = server.pid as number
    const archive = join(work, 'export.tar.gz')
    if (process.env.BENCH_RESET_FIRST) {
      const res = await fetch(`${url}/-/emulator/reset`, {
        method: 'POST',
        headers: { 'private-token': 'glpat-root-token' },
      })
      if (!res.ok) throw new Error(`reset answered ${res.status}`)
    }
    await phase(url, 'export')
    await phase(url, 'download', archive)
    const before = usage(pid)
    const imported = await phase(url, 'import', archive, 'restored')
    const after = usage(pid)
    return {
      importMs: imported.ms,
      importCpuMs: after.cpuMs - before.cpuMs,
      exportHwm: before.hwmKib,
      importHwm: after.hwmKib,
      failed: imported.detail,
    }
  } finally {
    server.kill('SIGTERM')
    if (server.exitCode === null) await once(server, 'exit')
    rmSync(copy, { recursive: true, force: true })
  }
}

const builds = [resolve(here('..')), ...process.argv.slice(2).map((d) => resolve(d))]
const work = mkdtempSync(join(tmpdir(), 'gla-import-rounds-'))
try {
  const seeded = await Promise.all(
    builds.map(async (dir, n) => {
      const data = join(work, `data-${n}`)
      await exec(
        process.execPath,
        ['--import', 'tsx', 'bench/support/server-child.ts', 'seed-data', data, String(ISSUES)],
        {
          cwd: dir,
          maxBuffer: 1 << 20,
        },
      )
      return data
    }),
  )
  const samples: Sample[][] = builds.map(() => [])
  for (let r = 0; r < ROUNDS; r++)
    for (const [n, dir] of builds.entries()) {
      const s = await round(dir, seeded[n] as string, work)
      samples[n]?.push(s)
      console.log(
        `round ${r + 1} ${dir}: import ${s.importMs} ms, server CPU ${s.importCpuMs} ms, peak after export ${(s.exportHwm / 1024).toFixed(0)} MB, after import ${(s.importHwm / 1024).toFixed(0)} MB, ${s.failed} failed relations`,
      )
    }
  const med = (n: number, key: keyof Omit<Sample, 'failed'>) => median((samples[n] ?? []).map((s) => s[key]))
  for (const [n, dir] of builds.entries()) {
    console.log(
      `${dir}: medians of ${ROUNDS}: import ${med(n, 'importMs')} ms, server CPU ${med(n, 'importCpuMs')} ms, peak ${(med(n, 'importHwm') / 1024).toFixed(0)} MB (after export ${(med(n, 'exportHwm') / 1024).toFixed(0)} MB)`,
    )
  }
  for (let n = 1; n < builds.length; n++)
    console.log(
      `this build / ${builds[n]}: import time ${(med(0, 'importMs') / med(n, 'importMs')).toFixed(2)}, server CPU ${(med(0, 'importCpuMs') / med(n, 'importCpuMs')).toFixed(2)}, peak RSS ${(med(0, 'importHwm') / med(n, 'importHwm')).toFixed(2)}`,
    )
} finally {
  rmSync(work, { recursive: true, force: true })
}
