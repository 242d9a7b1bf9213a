// Lists every issue of bench/issues with our typed client (the package's entry, built by `npm run build`,
// or the client module named by the second argument: another build's `build/client/index.js`);
// prints `<ms> <count> <maxRSS KiB> <process CPU ms> <main-thread CPU ms> <ms to the first item>
// <involuntary context switches>`: the last counts the times the process was taken off a core during
// the list (another process wanted it), so a round slow by the wall alone shows that it waited.
import { performance } from 'node:perf_hooks'

const { createClient } = await import(process.argv[3] ?? 'gitlab-actions')
const client = createClient({ baseUrl: process.argv[2], token: 'glpat-root-token' })
const started = performance.now()
const cpu = process.cpuUsage()
const thread = process.threadCpuUsage()
const switched = process.resourceUsage().involuntaryContextSwitches
let count = 0
let first = NaN
for await (const issue of client.issues.list('bench/issues'))
  if (issue.iid > 0 && count++ === 0) first = performance.now() - started
const ms = performance.now() - started
const { user, system } = process.cpuUsage(cpu)
const main = process.threadCpuUsage(thread)
const usage = process.resourceUsage()
process.stdout.write(
  `${ms.toFixed(0)} ${count} ${usage.maxRSS} ${((user + system) / 1000).toFixed(0)} ` +
    `${((main.user + main.system) / 1000).toFixed(0)} ${first.toFixed(1)} ` +
    `${usage.involuntaryContextSwitches - switched}\n`,
)
process.exit(0)
