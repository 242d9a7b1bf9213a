// Lists every issue of bench/issues with our typed client (the package's entry, built by `npm run build`); prints `<ms> <count> <maxRSS KiB>`.
import { performance } from 'node:perf_hooks'
import { createClient } from 'gitlab-actions'

const client = createClient({ baseUrl: process.argv[2], token: 'glpat-root-token' })
const started = performance.now()
let count = 0
for await (const issue of client.issues.list('bench/issues')) if (issue.iid > 0) count++
const ms = performance.now() - started
process.stdout.write(`${ms.toFixed(0)} ${count} ${process.resourceUsage().maxRSS}\n`)
process.exit(0)
