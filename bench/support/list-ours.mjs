// Lists every issue of bench/issues with our typed client (the package's entry, built by `npm run build`,
// or the client module named by the second argument: another build's `build/client/index.js`);
// prints `<ms> <count> <maxRSS KiB> <process CPU ms> <main-thread CPU ms> <ms to the first item>`.
import { performance } from 'node:perf_hooks'

const { createClient } = await import(process.argv[3] ?? 'gitlab-actions')
const client = createClient({ baseUrl: process.argv[2], token: 'glpat-root-token' })
const started = performance.now()
const cpu = process.cpuUsage()
const thread = process.threadCpuUsage()
let count = 0
let first = NaN
for await (const issue of client.issues.list('bench/issues'))
  if (issue.iid > 0 && count++ === 0) first = performance.now() - started
const ms = performance.now() - started
const { user, system } = process.cpuUsage(cpu)
const main = process.threadCpuUsage(thread)
process.stdout.write(
  `${ms.toFixed(0)} ${count} ${process.resourceUsage().maxRSS} ${((user + system) / 1000).toFixed(0)} ` +
    `${((main.user + main.system) / 1000).toFixed(0)} ${first.toFixed(1)}\n`,
)
process.exit(0)
