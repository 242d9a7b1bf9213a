/*
 * bench/transfer: export, download and import of a project with 100,000 issues (BENCH_TRANSFER_ISSUES).
 * The store is seeded into a data directory by one process that then exits, so that the server
 * (`gitlab-actions serve --data`, compiled code, as users run it) starts from a finished store and
 * its peak RSS (/proc/<pid>/status VmHWM) is what serving costs. Each phase runs our typed client
 * (compiled) in its own process, which reports its time and peak RSS. The baseline, in the same run:
 * `tar -czf` over the very tree the export packed (the downloaded archive, extracted to disk); the
 * ratio takes the medians of three exports and three `tar -czf` runs, alternating.
 * Targets: server and client RSS under 200 MB; export time within 2x of `tar -czf`.
 */
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const ISSUES = Number(process.env.BENCH_TRANSFER_ISSUES ?? 100_000)
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))
const exec = promisify(execFile)
const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`

/** A process's peak and current resident set (KiB) from /proc/<pid>/status. */
function memoryOf(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { hwm: kib('VmHWM'), rss: kib('VmRSS') }
}

/** Export and `tar -czf` runs behind the ratio (exports stay under GitLab's 6 a minute). */
const RATIO_ROUNDS = 3
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

async function timed(cmd: string, args: string[]): Promise<number> {
  const started = performance.now()
  await exec(cmd, args, { maxBuffer: 1 << 20 })
  return performance.now() - started
}

interface Phase {
  ms: number
  clientKib: number
  detail: string
  serverHwmKib: number
}

export async function run(): Promise<{ name: string; ratio: number; detail: string }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gla-transfer-'))
  try {
    const data = join(dir, 'data')
    const seedMs = await timed(process.execPath, [
      '--import',
      'tsx',
      here('./support/server-child.ts'),
      'seed-data',
      data,
      String(ISSUES),
    ])
    const server = spawn(
      process.execPath,
      [here('../bin/gitlab-actions.js'), 'serve', '--port', '0', '--data', data],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          const m = /http:\/\/[\d.]+:\d+/.exec(out)
          if (m) resolve(m[0])
        })
        server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)))
      })
      const startHwm = memoryOf(server.pid as number).hwm
      const phase = async (...args: string[]): Promise<Phase> => {
        const { stdout } = await exec(
          process.execPath,
          [here('./support/transfer-client.mjs'), args[0] as string, url, ...args.slice(1)],
          { maxBuffer: 1 << 20 },
        )
        const [ms, kib, detail] = stdout.trim().split('\n').pop()?.split(' ') ?? []
        return {
          ms: Number(ms),
          clientKib: Number(kib),
          detail: detail ?? '',
          serverHwmKib: memoryOf(server.pid as number).hwm,
        }
      }
      const archive = join(dir, 'export.tar.gz')
      const exported = await phase('export')
      const downloaded = await phase('download', archive)
      const imported = await phase('import', archive, 'restored')

      const tree = join(dir, 'tree')
      mkdirSync(tree)
      await exec('tar', ['-xzf', archive, '-C', tree])
      // The ratio compares medians of alternating rounds, so that a busy moment favours neither side.
      const exportRuns = [exported.ms]
      const tarRuns: number[] = []
      for (let round = 0; round < RATIO_ROUNDS; round++) {
        tarRuns.push(await timed('tar', ['-czf', join(dir, 'tar.tar.gz'), '-C', tree, '.']))
        if (round > 0) exportRuns.push((await phase('export')).ms)
      }
      const [exportMs, tarMs] = [median(exportRuns), median(tarRuns)]
      const { stdout: treeSize } = await exec('du', ['-sk', tree])

      const serverPeak = Math.max(exported.serverHwmKib, downloaded.serverHwmKib, imported.serverHwmKib)
      const clientPeak = Math.max(exported.clientKib, downloaded.clientKib, imported.clientKib)
      const phases =
        `export ${exported.ms.toFixed(0)} ms (server peak ${mb(exported.serverHwmKib)}, client ${mb(exported.clientKib)}), ` +
        `download ${downloaded.ms.toFixed(0)} ms (${(Number(downloaded.detail) / 2 ** 20).toFixed(1)} MB archive; server ${mb(downloaded.serverHwmKib)}, client ${mb(downloaded.clientKib)}), ` +
        `import ${imported.ms.toFixed(0)} ms (${imported.detail} failed relations; server ${mb(imported.serverHwmKib)}, client ${mb(imported.clientKib)})`
      return [
        {
          name: 'transfer: export time / tar -czf of the same tree (target <= 2)',
          ratio: exportMs / tarMs,
          detail:
            `${phases}; export ${exportMs.toFixed(0)} ms and tar -czf ${tarMs.toFixed(0)} ms (medians of ${RATIO_ROUNDS}) over ${(Number(treeSize.split('\t')[0]) / 1024).toFixed(0)} MB of ndjson; ` +
            `${ISSUES} issues (seeded in ${(seedMs / 1000).toFixed(0)} s, server idle at ${mb(startHwm)})`,
        },
        {
          name: 'transfer: peak RSS / 200 MB, server and client, worst of the two (target <= 1)',
          ratio: Math.max(serverPeak, clientPeak) / (200 * 1024),
          detail: `server peak ${mb(serverPeak)} (VmHWM over all phases), client peak ${mb(clientPeak)} (worst phase)`,
        },
      ]
    } finally {
      server.kill('SIGTERM')
      if (server.exitCode === null) await once(server, 'exit')
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
