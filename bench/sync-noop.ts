/*
 * bench/sync-noop: a `sync-issues` run (the engine of src/sync, direction both, comments on) over
 * 2,000 issues (BENCH_SYNC_ISSUES) that are already in step, against the reference server and the
 * fake GitHub of the tests, both in this process. A first run mirrors the GitHub issues to GitLab
 * (not measured); the second is the no-op, and the requests each side received are counted. Any
 * write in the no-op run makes the row throw. The ratio is requests made / the least a full read
 * needs (the list pages of both sides, 100 per page).
 */
import { createClient } from '../src/api/client.js'
import { buildServer } from '../src/server/start/build-server.js'
import type { Seed } from '../src/schema/seed.js'
import { githubSide } from '../src/sync/github.js'
import { gitlabSide } from '../src/sync/gitlab.js'
import { syncIssues, type SyncSettings } from '../src/sync/sync.js'
import { octokitFor, startFakeGitHub } from '../test/support/fake-github.js'

const ISSUES = Number(process.env.BENCH_SYNC_ISSUES ?? 2000)
const GL_TOKEN = 'glpat-syncbot-token'

/** The GitLab side of the sync rows: a project the sync bot maintains. */
export const seed = {
  users: [
    { username: 'root', admin: true, token: 'glpat-root-token' },
    { username: 'syncbot', token: GL_TOKEN },
  ],
  groups: [{ path: 'bench' }],
  projects: [{ path: 'bench/issues', members: { syncbot: 'maintainer' }, labels: [{ name: 'gh:bug' }] }],
} as Seed

/** Direction both, comments on: what the sync rows run. */
export const settings: SyncSettings = {
  direction: 'both',
  comments: true,
  labelMap: {},
  labelPrefix: 'gh:',
  userMap: {},
  dryRun: false,
  includeConfidential: false,
}

export const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
export const show = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([m, n]) => `${n} ${m}`)
    .join(', ') || '0'

/** The reference server with `seed`, in this process, counting the requests it receives by method. */
export async function countedServer() {
  const server = await buildServer({ seed, issuesCreateLimit: 0 })
  const baseUrl = await server.listen({ host: '127.0.0.1', port: 0 })
  const counts: Record<string, number> = {}
  server.app.server.on('request', (req: { method?: string }) => {
    const m = req.method ?? 'GET'
    counts[m] = (counts[m] ?? 0) + 1
  })
  return { server, baseUrl, counts }
}

export async function run(): Promise<{ name: string; ratio: number; detail: string }> {
  const { server, baseUrl, counts: glCounts } = await countedServer()
  const gh = await startFakeGitHub('bench', 'issues', 'sync-bot')
  const gitlab = createClient({ baseUrl, token: GL_TOKEN })
  try {
    for (let n = 1; n <= ISSUES; n++) {
      const issue = gh.addIssue({
        title: `GitHub issue ${n}`,
        body: `Body of issue ${n}`,
        labels: n % 3 === 0 ? ['bug'] : [],
        state: n % 5 === 4 ? 'closed' : 'open',
      })
      if (n % 10 === 0) gh.comment(issue.number, `A comment on issue ${n}`)
    }
    const once = async () =>
      syncIssues(
        githubSide(await octokitFor(gh.url, 'ghp_bench-token'), 'bench/issues'),
        gitlabSide(gitlab, 'bench/issues'),
        settings,
      )
    const first = await once()
    if (first.failed.length > 0)
      throw new Error(`sync-noop: the first (mirroring) run had ${first.failed.length} failed writes`)
    for (const k of Object.keys(glCounts)) delete glCounts[k]
    gh.resetCounts()

    const second = await once()
    const glWrites = total(glCounts) - (glCounts.GET ?? 0)
    const ghWrites = total(gh.counts) - (gh.counts.GET ?? 0)
    if (glWrites + ghWrites > 0 || second.unchanged !== ISSUES)
      throw new Error(
        `sync-noop: the no-op run wrote (GitLab ${show(glCounts)}; GitHub ${show(gh.counts)}) ` +
          `or left pairs out of step (${second.unchanged} of ${ISSUES} unchanged)`,
      )
    const pages = 2 * Math.ceil(ISSUES / 100)
    return {
      name: `sync-noop: requests of a no-op sync-issues run / list pages of both sides (${ISSUES} issues)`,
      ratio: (total(glCounts) + total(gh.counts)) / pages,
      detail:
        `GitLab ${total(glCounts)} requests (${show(glCounts)}), GitHub ${total(gh.counts)} requests (${show(gh.counts)}); ` +
        `${second.unchanged} pairs unchanged, 0 writes; direction both, comments on (one issue in 10 has one); ` +
        `the mirroring run before it: ${first.created.length} created, ${first.updated.length} updated`,
    }
  } finally {
    await gitlab.close()
    await gh.close()
    await server.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run()
  console.log(`${r.name}: ${r.ratio.toFixed(2)}\n  ${r.detail}`)
}
