/* `npm run bench`: runs every benchmark in bench/ and prints one table of ratios measured in this run. */
import { cpus, totalmem } from 'node:os'
import { run as issuesList } from './issues-list.js'
import { run as clientList } from './client-list.js'
import { run as coldStart } from './cold-start.js'

type Row = { name: string; ratio: number; detail: string }
const benches: (() => Promise<Row | Row[]>)[] = [issuesList, clientList, coldStart]
const rows: Row[] = []
for (const bench of benches) rows.push(...[await bench()].flat())

console.log(
  `\nmachine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
)
console.log('| benchmark | ratio | detail |\n| --- | --- | --- |')
for (const r of rows) console.log(`| ${r.name} | ${r.ratio.toFixed(2)} | ${r.detail} |`)
