/*
 * `npm run bench`: runs every benchmark in bench/ and prints one table of ratios measured in this
 * run. A benchmark that throws (e.g. mixed-load seeing any error) becomes a FAILED row and the run
 * exits 1 after the table.
 */
import { cpus, totalmem } from 'node:os'
import { run as issuesList } from './issues-list.js'
import { run as mixedLoad } from './mixed-load.js'
import { run as clientList } from './client-list.js'
import { run as transfer } from './transfer.js'
import { run as coldStart } from './cold-start.js'
import { run as actionStartup } from './action-startup.js'
import { run as syncNoop } from './sync-noop.js'
import { run as reset } from './reset.js'
import { run as apiWorld } from './api-world.js'
import { run as peer } from './peer.js'
import { run as start } from './start.js'
import { run as syncComments } from './sync-comments.js'
import { run as triggerFollow } from './trigger-follow.js'
import { run as blame } from './blame.js'

type Row = { name: string; ratio: number; detail: string }
const benches: [string, () => Promise<Row | Row[]>][] = [
  ['issues-list', issuesList],
  ['mixed-load', mixedLoad],
  ['client-list', clientList],
  ['transfer', transfer],
  ['cold-start', coldStart],
  ['action-startup', actionStartup],
  ['sync-noop', syncNoop],
  ['reset', reset],
  ['api-world', apiWorld],
  ['peer', peer],
  ['start', start],
  ['sync-comments', syncComments],
  ['trigger-follow', triggerFollow],
  ['blame', blame],
]
const only = process.argv.slice(2)
const rows: Row[] = []
let failed = 0
for (const [name, bench] of benches) {
  if (only.length > 0 && !only.includes(name)) continue
  const started = Date.now()
  try {
    rows.push(...[await bench()].flat())
  } catch (err) {
    failed++
    const message = err instanceof Error ? err.message : String(err)
    console.error(`\n${name} FAILED: ${message}`)
    rows.push({ name: `${name}: FAILED`, ratio: NaN, detail: message.replace(/\|/g, '\\|') })
  }
  console.error(`${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

console.log(
  `\nmachine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
)
console.log('| benchmark | ratio | detail |\n| --- | --- | --- |')
for (const r of rows)
  console.log(`| ${r.name} | ${Number.isNaN(r.ratio) ? 'FAILED' : r.ratio.toFixed(2)} | ${r.detail} |`)
if (failed > 0) {
  console.error(`\n${failed} benchmark(s) FAILED`)
  process.exitCode = 1
}
