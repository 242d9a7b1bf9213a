/*
 * bench/start: how long the server takes to start and what it holds once started (issue 44 items
 * 2 and 3), each against a baseline measured in the same run:
 * - `serve --seed none` and `serve` (the built-in seed) through the bin (`node bin/gitlab-actions.js`,
 *   what `npx` runs), spawn to first answer, alternating with a bare `node:http` server's start.
 *   Target: under 150 ms. With BENCH_BEFORE_DIR, that build's bin joins the rounds (a row each).
 * - `startServer()` in a process that has already loaded the package (and started once), to its
 *   first answer: medians of BENCH_STARTUP_RUNS starts, against the 100 ms target.
 * - What `npx gitlab-actions serve` adds to the bin: a scratch project whose node_modules links this
 *   checkout, alternating with the bin.
 * - Resident memory after start: 10 starts (`serve`, the built-in seed), right after the first
 *   answer and SETTLE_MS (20 s) later, when V8's memory reducer has run (bench/support/first-answer.ts).
 *   Min, median, max of each.
 * The CPU time of the server's main thread up to its first answer is given beside each wall time:
 * on a shared machine the wall time counts the waits for a core too. The servers use a compile cache
 * of this run's (first-answer.ts `ownCompileCache`); each build's bin rows begin with two starts of
 * its own, not counted.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { firstAnswer, ownCompileCache, SETTLE_MS, type FirstAnswer } from './support/first-answer.js'
import { assertBuilt, beforeBuild, median } from './support/measure.js'

type Row = { name: string; ratio: number; detail: string }

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7)
const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const bin = join(root, 'bin/gitlab-actions.js')
const BARE = `require('node:http').createServer((q, s) => s.end('[]')).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port) })`
const ROOT = { 'private-token': 'glpat-emulator-root-token' }
const PATH = '/api/v4/projects?per_page=20'

const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`
const cpu = (answers: FirstAnswer[]) =>
  Number.isNaN(median(answers.map((a) => a.cpuMs)))
    ? ''
    : ` (main thread CPU ${median(answers.map((a) => a.cpuMs)).toFixed(0)} ms)`
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return `${s[0]!.toFixed(1)} / ${median(s).toFixed(1)} / ${s.at(-1)!.toFixed(1)} MB`
}

/** `serve` with `args` through this build's bin and the bare server, alternating; BENCH_BEFORE_DIR's too. */
async function binRows(label: string, args: string[]): Promise<Row[]> {
  const other = beforeBuild()
  if (other) assertBuilt(other)
  const ours: FirstAnswer[] = []
  const bare: FirstAnswer[] = []
  const before: FirstAnswer[] = []
  const serve = ['serve', '--port', '0', ...args]
  for (let i = 0; i < 2; i++) {
    if (other) await firstAnswer(other.node, [join(other.dir, 'bin/gitlab-actions.js'), ...serve], PATH, ROOT)
    await firstAnswer(process.execPath, [bin, ...serve], PATH, ROOT)
  }
  for (let i = 0; i < RUNS; i++) {
    if (other)
      before.push(
        await firstAnswer(other.node, [join(other.dir, 'bin/gitlab-actions.js'), ...serve], PATH, ROOT),
      )
    ours.push(await firstAnswer(process.execPath, [bin, ...serve], PATH, ROOT))
    bare.push(await firstAnswer(process.execPath, ['-e', BARE], '/', {}))
  }
  const t = ours.map((a) => a.ms)
  const rows: Row[] = [
    {
      name: `start: ${label} through the bin / bare node:http, to first answer (target < 150 ms)`,
      ratio: median(t) / median(bare.map((a) => a.ms)),
      detail:
        `serve ${ms(t)}${cpu(ours)}, bare node:http ${ms(bare.map((a) => a.ms))}${cpu(bare)}; medians of ${RUNS}, alternating` +
        (median(t) >= 150 ? '; MISSES the 150 ms target' : ''),
    },
  ]
  if (other)
    rows.push({
      name: `start: ${label}, this build / the build in BENCH_BEFORE_DIR, to first answer`,
      ratio: median(t) / median(before.map((a) => a.ms)),
      detail: `this build ${ms(t)}${cpu(ours)}, before (${other.label}) ${ms(before.map((a) => a.ms))}${cpu(before)}; medians of ${RUNS}, alternating`,
    })
  return rows
}

/** A child that loads the package, starts and closes once, then times RUNS starts to a first answer. */
const IN_PROCESS = `
const { startServer } = await import(process.argv[1])
const times = []
for (let i = 0; i <= ${RUNS}; i++) {
  const started = performance.now()
  const cpu = process.threadCpuUsage()
  const server = await startServer({ seed: 'none' })
  const res = await fetch(server.url + '${PATH}', { headers: ${JSON.stringify(ROOT)} })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error('first answer was ' + res.status)
  const used = process.threadCpuUsage(cpu)
  if (i > 0) times.push([performance.now() - started, (used.user + used.system) / 1000])
  await server.close()
}
console.log(JSON.stringify(times))
`

/** The times of one IN_PROCESS child. */
async function inProcessTimes(): Promise<[number, number][]> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', IN_PROCESS, join(root, 'build/server/start/start-server.js')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  const code = await new Promise((done) => child.once('exit', done))
  if (code !== 0) throw new Error(`the startServer() child exited with ${code}`)
  return JSON.parse(out) as [number, number][]
}

async function inProcessRow(): Promise<Row> {
  // A first child, not counted, fills this run's compile cache (ownCompileCache): with an empty
  // one Node writes it as the modules load, and the starts after it read slower (32-40 ms against
  // 24-32 with the cache filled, stop 51).
  await inProcessTimes()
  const times = await inProcessTimes()
  const wall = median(times.map((t) => t[0]))
  return {
    name: 'start: startServer({ seed: none }) to first answer, package loaded / 100 ms (target <= 1)',
    ratio: wall / 100,
    detail: `${wall.toFixed(1)} ms (main thread CPU ${median(times.map((t) => t[1])).toFixed(1)} ms); medians of ${RUNS} starts after one`,
  }
}

/** `npx gitlab-actions serve` from a scratch project that has this checkout in node_modules, against the bin. */
async function npxRow(): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'gla-npx-'))
  try {
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true })
    symlinkSync(root, join(dir, 'node_modules/gitlab-actions'))
    symlinkSync('../gitlab-actions/bin/gitlab-actions.js', join(dir, 'node_modules/.bin/gitlab-actions'))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true }))
    const viaNpx: number[] = []
    const viaBin: number[] = []
    const serve = ['serve', '--port', '0', '--seed', 'none']
    for (let i = 0; i < RUNS; i++) {
      viaNpx.push(
        (await firstAnswer('npx', ['--no-install', 'gitlab-actions', ...serve], PATH, ROOT, { cwd: dir })).ms,
      )
      viaBin.push((await firstAnswer(process.execPath, [bin, ...serve], PATH, ROOT)).ms)
    }
    return {
      name: 'start: npx gitlab-actions serve --seed none / the bin, to first answer',
      ratio: median(viaNpx) / median(viaBin),
      detail: `npx ${ms(viaNpx)}, bin ${ms(viaBin)}: npx adds ${(median(viaNpx) - median(viaBin)).toFixed(0)} ms (npm's own start); medians of ${RUNS}, alternating`,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Ten starts of `serve` (the built-in seed), two at a time: RSS at the first answer and settled. */
async function memoryRow(): Promise<Row> {
  const answers: FirstAnswer[] = []
  for (let i = 0; i < 10; i += 2)
    answers.push(
      ...(await Promise.all(
        [0, 1].map(() =>
          firstAnswer(process.execPath, [bin, 'serve', '--port', '0'], PATH, ROOT, { settleMs: SETTLE_MS }),
        ),
      )),
    )
  const settled = answers.map((a) => a.settledRssMb!)
  const sorted = [...settled].sort((a, b) => a - b)
  return {
    name: `memory: RSS of serve ${SETTLE_MS / 1000} s after its first answer, max / min of 10 starts (target <= 1.05)`,
    ratio: sorted.at(-1)! / sorted[0]!,
    detail: `settled ${spread(settled)} (min / median / max); at the first answer ${spread(answers.map((a) => a.rssMb))}`,
  }
}

export async function run(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gla-start-'))
  const restoreCache = ownCompileCache(dir)
  try {
    return [
      ...(await binRows('serve --seed none', ['--seed', 'none'])),
      ...(await binRows('serve (built-in seed)', [])),
      await inProcessRow(),
      await npxRow(),
      await memoryRow(),
    ]
  } finally {
    restoreCache()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
