// Lists every issue of bench/issues with @gitbeaker/rest; prints `<ms> <count> <maxRSS KiB>`.
import { performance } from 'node:perf_hooks'
import { Gitlab } from '@gitbeaker/rest'

const api = new Gitlab({ host: process.argv[2], token: 'glpat-root-token' })
const started = performance.now()
const issues = await api.Issues.all({ projectId: 'bench/issues', perPage: 100 })
const ms = performance.now() - started
process.stdout.write(`${ms.toFixed(0)} ${issues.length} ${process.resourceUsage().maxRSS}\n`)
process.exit(0)
