/*
 * bench/cold-start: `gitlab-actions serve --port 0 --seed <1,000 issues>` from process start to
 * the first answered API call, against a bare `node:http` server's start to first answer, in the
 * same run. Target (issue 21): under 200 ms. With BENCH_BEFORE_DIR (a built checkout, run by BENCH_BEFORE_NODE),
 * that build's `serve` joins the alternating starts, and a second row gives this build's time over
 * that one's.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { stringify } from 'yaml'
import { assertBuilt, beforeBuild, median } from './support/measure.js'
import { issuesSeed } from './support/seeds.js'

const bin = fileURLToPath(new URL('../bin/gitlab-actions.js', import.meta.url))
const BARE = `require('node:http').createServer((q, s) => s.end('[]')).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port) })`

/** Milliseconds from spawning `node args` to the first 200 on `path`. */
async function timeToFirstAnswer(
  node: string,
  args: string[],
  path: string,
  headers: Record<string, string>,
): Promise<number> {
  const started = performance.now()
  const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'inherit'] })
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
    return performance.now() - started
  } finally {
    // Waited for: a stopping serve may still write its code cache (src/cli/serve-script.ts), CPU
    // the next start, often the other build's, would otherwise share.
    const exited = child.exitCode === null ? once(child, 'exit') : undefined
    child.kill('SIGTERM')
    await exited
  }
}

type Row = { name: string; ratio: number; detail: string }

export async function run(): Promise<Row[]> {
  const other = beforeBuild()
  const otherBin = other && join(other.dir, 'bin/gitlab-actions.js')
  if (other) assertBuilt(other)
  const dir = mkdtempSync(join(tmpdir(), 'gla-cold-'))
  try {
    const seed = join(dir, 'seed.yaml')
    writeFileSync(seed, stringify(issuesSeed(1000)))
    const path = '/api/v4/projects/bench%2Fissues/issues?per_page=20'
    const headers = { 'private-token': 'glpat-root-token' }
    const serve = ['serve', '--port', '0', '--seed', seed]
    const ours: number[] = []
    const bare: number[] = []
    const before: number[] = []
    for (let i = 0; i < 5; i++) {
      if (other && otherBin)
        before.push(await timeToFirstAnswer(other.node, [otherBin, ...serve], path, headers))
      ours.push(await timeToFirstAnswer(process.execPath, [bin, ...serve], path, headers))
      bare.push(await timeToFirstAnswer(process.execPath, ['-e', BARE], '/', {}))
    }
    const rows: Row[] = [
      {
        name: 'cold-start: serve with a 1,000-issue seed / bare node:http, to first answer (target < 200 ms)',
        ratio: median(ours) / median(bare),
        detail:
          `serve ${median(ours).toFixed(0)} ms, bare node:http ${median(bare).toFixed(0)} ms (medians of 5, alternating)` +
          (median(ours) >= 200 ? '; MISSES the 200 ms target' : ''),
      },
    ]
    if (other)
      rows.push({
        name: 'cold-start: this build / the build in BENCH_BEFORE_DIR, to first answer',
        ratio: median(ours) / median(before),
        detail: `this build ${median(ours).toFixed(0)} ms, before (${other.label}) ${median(before).toFixed(0)} ms (medians of 5, alternating)`,
      })
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
