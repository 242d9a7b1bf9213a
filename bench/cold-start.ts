/*
 * bench/cold-start: `gitlab-actions serve --port 0 --seed <1,000 issues>` from process start to
 * the first answered API call, against a bare `node:http` server's start to first answer, in the
 * same run. Target (issue 44): under 120 ms (issue 21's was 200). With BENCH_BEFORE_DIR (a built checkout, run by BENCH_BEFORE_NODE),
 * that build's `serve` joins the alternating starts, and a second row gives this build's time over
 * that one's. Each build's starts use a compile cache of this run's (`ownCompileCache`), made by two
 * starts of its own first, not counted: the second start a user who starts it so finds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stringify } from 'yaml'
import { firstAnswer, ownCompileCache, type FirstAnswer } from './support/first-answer.js'
import { assertBuilt, beforeBuild, median } from './support/measure.js'
import { issuesSeed } from './support/seeds.js'

const bin = fileURLToPath(new URL('../bin/gitlab-actions.js', import.meta.url))
const BARE = `require('node:http').createServer((q, s) => s.end('[]')).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port) })`

type Row = { name: string; ratio: number; detail: string }

export async function run(): Promise<Row[]> {
  const other = beforeBuild()
  const otherBin = other && join(other.dir, 'bin/gitlab-actions.js')
  if (other) assertBuilt(other)
  const dir = mkdtempSync(join(tmpdir(), 'gla-cold-'))
  const restoreCache = ownCompileCache(dir)
  try {
    const seed = join(dir, 'seed.yaml')
    writeFileSync(seed, stringify(issuesSeed(1000)))
    const path = '/api/v4/projects/bench%2Fissues/issues?per_page=20'
    const headers = { 'private-token': 'glpat-root-token' }
    const serve = ['serve', '--port', '0', '--seed', seed]
    const ours: FirstAnswer[] = []
    const bare: number[] = []
    const before: FirstAnswer[] = []
    for (let i = 0; i < 2; i++) {
      if (other && otherBin) await firstAnswer(other.node, [otherBin, ...serve], path, headers)
      await firstAnswer(process.execPath, [bin, ...serve], path, headers)
    }
    for (let i = 0; i < 5; i++) {
      if (other && otherBin) before.push(await firstAnswer(other.node, [otherBin, ...serve], path, headers))
      ours.push(await firstAnswer(process.execPath, [bin, ...serve], path, headers))
      bare.push((await firstAnswer(process.execPath, ['-e', BARE], '/', {})).ms)
    }
    // The wall times, and the CPU time of each server's main thread (which waits for a core do not add to).
    const t = ours.map((a) => a.ms)
    const cpu = (answers: FirstAnswer[]) =>
      `main thread CPU ${median(answers.map((a) => a.cpuMs)).toFixed(0)} ms`
    const rows: Row[] = [
      {
        name: 'cold-start: serve with a 1,000-issue seed / bare node:http, to first answer (target < 120 ms)',
        ratio: median(t) / median(bare),
        detail:
          `serve ${median(t).toFixed(0)} ms (${cpu(ours)}), bare node:http ${median(bare).toFixed(0)} ms (medians of 5, alternating)` +
          (median(t) >= 120 ? '; MISSES the 120 ms target' : ''),
      },
    ]
    if (other)
      rows.push({
        name: 'cold-start: this build / the build in BENCH_BEFORE_DIR, to first answer',
        ratio: median(t) / median(before.map((a) => a.ms)),
        detail: `this build ${median(t).toFixed(0)} ms (${cpu(ours)}), before (${other.label}) ${median(before.map((a) => a.ms)).toFixed(0)} ms (${cpu(before)}) (medians of 5, alternating)`,
      })
    return rows
  } finally {
    restoreCache()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
