// Lists every issue of bench/issues with @gitbeaker/rest;
// prints `<ms> <count> <maxRSS KiB> <process CPU ms> <main-thread CPU ms>`.
import { performance } from 'node:perf_hooks'
import { Gitlab } from '@gitbeaker/rest'

const api = new Gitlab({ host: process.argv[2], token: 'glpat-root-token' })
const started = performance.now()
const cpu = process.cpuUsage()
const thread = process.threadCpuUsage()
const issues = await api.Issues.all({ projectId: 'bench/issues', perPage: 100 })
const ms = performance.now() - started
const { user, system } = process.cpuUsage(cpu)
const main = process.threadCpuUsage(thread)
process.stdout.write(
  `${ms.toFixed(0)} ${issues.length} ${process.resourceUsage().maxRSS} ${((user + system) / 1000).toFixed(0)} ` +
    `${((main.user + main.system) / 1000).toFixed(0)}\n`,
)
process.exit(0)
