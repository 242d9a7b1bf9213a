/*
 * bench/transfer: export, download and import of a project with 100,000 issues (BENCH_TRANSFER_ISSUES).
 * The store is seeded into a data directory by one process that then exits, so that the server
 * (`gitlab-actions serve --data`, compiled code, as users run it) starts from a finished store and
 * its peak RSS (/proc/<pid>/status VmHWM) is what serving costs. Each phase runs our typed client
 * (compiled) in its own process, which reports its time and peak RSS. The baseline, in the same run:
 * `tar -czf` over the very tree the export packed (the downloaded archive, extracted to disk); the
 * ratio takes the medians of three exports and three `tar -czf` runs, alternating.
 * Targets: server and client RSS under 200 MB; export time within 2x of `tar -czf`.
 * With BENCH_BEFORE_DIR (a built checkout, run by BENCH_BEFORE_NODE), that build seeds and serves its
 * own store too, goes through the same phases with our client, its exports and imports alternate with
 * ours (three each, medians; every import a new project; the peaks are the first round's), and three
 * rows give this build's export time, import time and server peak RSS over that one's.
 */
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { printedUrl } from './support/printed-url.js'
import { assertBuilt, beforeBuild, median, type OtherBuild } from './support/measure.js'

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

interface Serving {
  url: string
  pid: number
  /** Milliseconds the seeding process took. */
  seedMs: number
  /** The server's peak RSS once it answers (KiB). */
  startHwm: number
  stop(): Promise<void>
}

/**
 * Seeds `data` with ISSUES issues in a process that then exits, and serves it with `gitlab-actions
 * serve --data`: this build's, or with `build`, that checkout's server-child and CLI run by its Node.
 */
async function serveSeeded(data: string, build?: OtherBuild): Promise<Serving> {
  const node = build?.node ?? process.execPath
  const seedStarted = performance.now()
  await exec(
    node,
    [
      '--import',
      'tsx',
      build ? 'bench/support/server-child.ts' : here('./support/server-child.ts'),
      'seed-data',
      data,
      String(ISSUES),
    ],
    { maxBuffer: 1 << 20, cwd: build?.dir },
  )
  const seedMs = performance.now() - seedStarted
  const bin = build ? join(build.dir, 'bin/gitlab-actions.js') : here('../bin/gitlab-actions.js')
  const server = spawn(node, [bin, 'serve', '--port', '0', '--data', data], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const stop = async () => {
    server.kill('SIGTERM')
    if (server.exitCode === null) await once(server, 'exit')
  }
  try {
    const url = await printedUrl(server)
    const pid = server.pid as number
    return { url, pid, seedMs, startHwm: memoryOf(pid).hwm, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

/** One phase of bench/support/transfer-client.mjs (this build's client) against `server`. */
async function phase(server: Serving, name: string, ...args: string[]): Promise<Phase> {
  const { stdout } = await exec(
    process.execPath,
    [here('./support/transfer-client.mjs'), name, server.url, ...args],
    {
      maxBuffer: 1 << 20,
    },
  )
  const [ms, kib, detail] = stdout.trim().split('\n').pop()?.split(' ') ?? []
  return {
    ms: Number(ms),
    clientKib: Number(kib),
    detail: detail ?? '',
    serverHwmKib: memoryOf(server.pid).hwm,
  }
}

/** Export, download (to `archive`) and import of that archive as a new project. */
async function roundTrip(server: Serving, archive: string) {
  const exported = await phase(server, 'export')
  const downloaded = await phase(server, 'download', archive)
  const imported = await phase(server, 'import', archive, 'restored')
  return { exported, downloaded, imported }
}

type Row = { name: string; ratio: number; detail: string }

export async function run(): Promise<Row[]> {
  const other = beforeBuild()
  if (other) assertBuilt(other)
  const dir = mkdtempSync(join(tmpdir(), 'gla-transfer-'))
  const servers: Serving[] = []
  try {
    const ours = await serveSeeded(join(dir, 'data'))
    servers.push(ours)
    const before = other ? await serveSeeded(join(dir, 'before-data'), other) : undefined
    if (before) servers.push(before)
    const archive = join(dir, 'export.tar.gz')
    const { exported, downloaded, imported } = await roundTrip(ours, archive)
    const beforeTrip = before && (await roundTrip(before, join(dir, 'before-export.tar.gz')))

    const tree = join(dir, 'tree')
    mkdirSync(tree)
    await exec('tar', ['-xzf', archive, '-C', tree])
    // The ratio compares medians of alternating rounds, so that a busy moment favours neither side.
    const exportRuns = [exported.ms]
    const beforeRuns = beforeTrip ? [beforeTrip.exported.ms] : []
    // With a build to compare, imports alternate too (each side's archive again, as a new project; the
    // peaks stay those of the first round's phases, before the store holds several copies).
    const importRuns = [imported]
    const beforeImports = beforeTrip ? [beforeTrip.imported] : []
    const tarRuns: number[] = []
    for (let round = 0; round < RATIO_ROUNDS; round++) {
      tarRuns.push(await timed('tar', ['-czf', join(dir, 'tar.tar.gz'), '-C', tree, '.']))
      if (round === 0) continue
      exportRuns.push((await phase(ours, 'export')).ms)
      if (before) beforeRuns.push((await phase(before, 'export')).ms)
      if (!before) continue
      importRuns.push(await phase(ours, 'import', archive, `restored-${round + 1}`))
      beforeImports.push(
        await phase(before, 'import', join(dir, 'before-export.tar.gz'), `restored-${round + 1}`),
      )
    }
    const [exportMs, tarMs] = [median(exportRuns), median(tarRuns)]
    const { stdout: treeSize } = await exec('du', ['-sk', tree])

    const serverPeak = Math.max(exported.serverHwmKib, downloaded.serverHwmKib, imported.serverHwmKib)
    const clientPeak = Math.max(exported.clientKib, downloaded.clientKib, imported.clientKib)
    const phases =
      `export ${exported.ms.toFixed(0)} ms (server peak ${mb(exported.serverHwmKib)}, client ${mb(exported.clientKib)}), ` +
      `download ${downloaded.ms.toFixed(0)} ms (${(Number(downloaded.detail) / 2 ** 20).toFixed(1)} MB archive; server ${mb(downloaded.serverHwmKib)}, client ${mb(downloaded.clientKib)}), ` +
      `import ${imported.ms.toFixed(0)} ms (${imported.detail} failed relations; server ${mb(imported.serverHwmKib)}, client ${mb(imported.clientKib)})`
    const rows: Row[] = [
      {
        name: 'transfer: export time / tar -czf of the same tree (target <= 2)',
        ratio: exportMs / tarMs,
        detail:
          `${phases}; export ${exportMs.toFixed(0)} ms and tar -czf ${tarMs.toFixed(0)} ms (medians of ${RATIO_ROUNDS}) over ${(Number(treeSize.split('\t')[0]) / 1024).toFixed(0)} MB of ndjson; ` +
          `${ISSUES} issues (seeded in ${(ours.seedMs / 1000).toFixed(0)} s, server idle at ${mb(ours.startHwm)})`,
      },
      {
        name: 'transfer: peak RSS / 200 MB, server and client, worst of the two (target <= 1)',
        ratio: Math.max(serverPeak, clientPeak) / (200 * 1024),
        detail: `server peak ${mb(serverPeak)} (VmHWM over all phases), client peak ${mb(clientPeak)} (worst phase)`,
      },
    ]
    if (before && beforeTrip && other) {
      const b = beforeTrip
      const beforePeak = Math.max(b.exported.serverHwmKib, b.downloaded.serverHwmKib, b.imported.serverHwmKib)
      const importMs = median(importRuns.map((i) => i.ms))
      const beforeImportMs = median(beforeImports.map((i) => i.ms))
      rows.push(
        {
          name: 'transfer: this build / the build in BENCH_BEFORE_DIR, export time',
          ratio: exportMs / median(beforeRuns),
          detail:
            `this build ${exportMs.toFixed(0)} ms, before (${other.label}) ${median(beforeRuns).toFixed(0)} ms ` +
            `(medians of ${RATIO_ROUNDS}, alternating; both through this build's client)`,
        },
        {
          name: 'transfer: this build / the build in BENCH_BEFORE_DIR, import time',
          ratio: importMs / beforeImportMs,
          detail:
            `this build ${importMs.toFixed(0)} ms (rounds ${importRuns.map((i) => i.ms.toFixed(0)).join(', ')}; ` +
            `server peak ${mb(serverPeak)}), before ${beforeImportMs.toFixed(0)} ms (rounds ${beforeImports.map((i) => i.ms.toFixed(0)).join(', ')}; ` +
            `${b.imported.detail} failed relations; server peak ${mb(beforePeak)}; peaks of the first round), medians of ${RATIO_ROUNDS} alternating imports of each side's archive as new projects; ` +
            `seeding: this build ${(ours.seedMs / 1000).toFixed(1)} s, before ${(before.seedMs / 1000).toFixed(1)} s`,
        },
        {
          name: 'transfer: this build / the build in BENCH_BEFORE_DIR, server peak RSS',
          ratio: serverPeak / beforePeak,
          detail:
            `this build ${mb(serverPeak)} (export ${mb(exported.serverHwmKib)}, import ${mb(imported.serverHwmKib)}, idle ${mb(ours.startHwm)}), ` +
            `before ${mb(beforePeak)} (export ${mb(b.exported.serverHwmKib)}, import ${mb(b.imported.serverHwmKib)}, idle ${mb(before.startHwm)}); VmHWM over all phases`,
        },
      )
    }
    return rows
  } finally {
    for (const server of servers) await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
