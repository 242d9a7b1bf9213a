/* Lists every issue of bench/issues with @gitbeaker/rest; prints `<ms> <count> <maxRSS KiB>`. */
import { performance } from 'node:perf_hooks'
import { Gitlab } from '@gitbeaker/rest'

const [host] = process.argv.slice(2)
const api = new Gitlab({ host: host as string, token: 'glpat-root-token' })
const started = performance.now()
const issues = await api.Issues.all({ projectId: 'bench/issues', perPage: 100 })
const ms = performance.now() - started
process.stdout.write(`${ms.toFixed(0)} ${issues.length} ${process.resourceUsage().maxRSS}\n`)
process.exit(0)
