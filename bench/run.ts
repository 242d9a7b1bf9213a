/* `npm run bench`: runs every benchmark in bench/ and prints one table of ratios measured in this run. */
import { cpus, totalmem } from 'node:os'
import { run as issuesList } from './issues-list.js'

const benches = [issuesList]
const rows: { name: string; ratio: number; detail: string }[] = []
for (const bench of benches) rows.push(await bench())

console.log(
  `\nmachine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
)
console.log('| benchmark | ratio | detail |\n| --- | --- | --- |')
for (const r of rows) console.log(`| ${r.name} | ${r.ratio.toFixed(2)} | ${r.detail} |`)
