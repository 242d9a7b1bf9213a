/*
 * bench/sync-comments: `sync-issues` turning `comments` on over 1,000 issues (BENCH_SYNC_COMMENT_ISSUES)
 * that are already mirrored, one in 4 with a GitHub comment: the engine of src/sync, direction both,
 * against the reference server and the tests' fake GitHub, both in this process. A first run with
 * comments off mirrors the issues (not measured); the measured run turns comments on: it mirrors each
 * comment and rewrites the marker (its comment counts) of those pairs only, never of the pairs
 * without comments (the row throws if it writes more); a no-op run follows. Its baseline is that
 * no-op run over the same 1,000 pairs, timed in the same process right after: the least any run
 * costs (both sides listed, nothing written), so the ratio is what mirroring the comments adds.
 * The row also throws when the no-op run writes anything or a comment was not mirrored.
 */
import { createClient } from '../src/api/client.js'
import { githubSide } from '../src/sync/github.js'
import { gitlabSide } from '../src/sync/gitlab.js'
import { syncIssues } from '../src/sync/sync.js'
import { octokitFor, startFakeGitHub } from '../test/support/fake-github.js'
import { countedServer, settings, show, total } from './sync-noop.js'

const ISSUES = Number(process.env.BENCH_SYNC_COMMENT_ISSUES ?? 1000)
const GL_TOKEN = 'glpat-syncbot-token'

const writes = (counts: Record<string, number>) => total(counts) - (counts.GET ?? 0)

export async function run(): Promise<{ name: string; ratio: number; detail: string }> {
  const { server, baseUrl, counts: glCounts } = await countedServer()
  const gh = await startFakeGitHub('bench', 'issues', 'sync-bot')
  const gitlab = createClient({ baseUrl, token: GL_TOKEN })
  try {
    for (let n = 1; n <= ISSUES; n++) {
      const issue = gh.addIssue({
        title: `GitHub issue ${n}`,
        body: `Body of issue ${n}`,
        labels: [],
        state: 'open',
      })
      if (n % 4 === 0) gh.comment(issue.number, `A comment on issue ${n}`)
    }
    const commented = Math.floor(ISSUES / 4)
    const once = async (comments: boolean) =>
      syncIssues(
        githubSide(await octokitFor(gh.url, 'ghp_bench-token'), 'bench/issues'),
        gitlabSide(gitlab, 'bench/issues'),
        { ...settings, comments },
      )
    const measured = async (comments: boolean) => {
      for (const k of Object.keys(glCounts)) delete glCounts[k]
      gh.resetCounts()
      const started = process.hrtime.bigint()
      const report = await once(comments)
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      return { report, ms, gl: { ...glCounts }, gh: { ...gh.counts } }
    }
    const mirror = await once(false)
    if (mirror.failed.length > 0 || mirror.created.length !== ISSUES)
      throw new Error(`sync-comments: the mirroring run created ${mirror.created.length} of ${ISSUES}`)

    const withComments = await measured(true)
    const noop = await measured(true)
    if (withComments.report.failed.length > 0)
      throw new Error(`sync-comments: ${withComments.report.failed.length} failed writes turning comments on`)
    // A comment and its pair's marker per commented issue; nothing for the others, nothing on GitHub.
    if (writes(withComments.gl) > 2 * commented || writes(withComments.gh) > 0)
      throw new Error(
        `sync-comments: turning comments on wrote more than the ${commented} commented pairs need ` +
          `(GitLab ${show(withComments.gl)}; GitHub ${show(withComments.gh)})`,
      )
    if (writes(noop.gl) + writes(noop.gh) > 0 || noop.report.unchanged !== ISSUES)
      throw new Error(
        `sync-comments: the no-op run after it wrote (GitLab ${show(noop.gl)}; GitHub ${show(noop.gh)}) ` +
          `or left pairs out of step (${noop.report.unchanged} of ${ISSUES} unchanged)`,
      )
    let notes = 0
    for await (const i of gitlab.issues.list('bench/issues')) notes += i.user_notes_count
    if (notes !== commented)
      throw new Error(`sync-comments: ${notes} of ${commented} comments reached GitLab`)
    const side = (label: string, c: Record<string, number>) =>
      `${label} ${total(c)} requests (${show(c)}), ${writes(c)} writes`
    return {
      name: `sync-comments: time turning comments on over ${ISSUES} mirrored issues / a no-op run over them`,
      ratio: withComments.ms / noop.ms,
      detail:
        `comments on: ${withComments.ms.toFixed(0)} ms, ${side('GitLab', withComments.gl)}, ` +
        `${side('GitHub', withComments.gh)}, ${withComments.report.updated.length} pairs updated; ` +
        `no-op after it: ${noop.ms.toFixed(0)} ms, ${side('GitLab', noop.gl)}, ${side('GitHub', noop.gh)}; ` +
        `${notes} comments on GitLab; one issue in 4 has a GitHub comment (the other ` +
        `${ISSUES - commented} pairs get no write); direction both; one round`,
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
