import { readFileSync } from 'node:fs'
import { describe } from '../../sync/apply.js'
import { githubSide } from '../../sync/github.js'
import { gitlabSide } from '../../sync/gitlab.js'
import type { SyncReport } from '../../sync/model.js'
import { syncIssues } from '../../sync/sync.js'
import { actionClient, projectRef } from '../connection.js'
import type { ActionIO } from '../io.js'
import { Outputs, readInputs, type Settings } from './inputs.js'
import type { GitHubOptions } from './octokit.js'
import { renderSummary } from './summary.js'

/** Test seams: options of the GitHub client over those of the inputs (tests shorten the waits). */
export interface Deps {
  github?: GitHubOptions
}

/** What event mode works on: the GitHub issue of an `issues`/`issue_comment` event, or why none. */
export function eventIssue(io: Pick<ActionIO, 'getEnv'>): { number?: number; why?: string } {
  const name = io.getEnv('GITHUB_EVENT_NAME')
  const path = io.getEnv('GITHUB_EVENT_PATH')
  if (name !== 'issues' && name !== 'issue_comment')
    return { why: `event '${name ?? '(none)'}' is not issues or issue_comment` }
  if (!path) return { why: 'GITHUB_EVENT_PATH is not set' }
  const event = JSON.parse(readFileSync(path, 'utf8')) as {
    issue?: { number?: number; pull_request?: unknown }
  }
  if (!event.issue?.number) return { why: 'the event names no issue' }
  if (event.issue.pull_request) return { why: `#${event.issue.number} is a pull request` }
  return { number: event.issue.number }
}

/** The mode a run takes: `auto` is event mode for issues/issue_comment events, else full. */
export function resolveMode(s: Settings, io: Pick<ActionIO, 'getEnv'>): 'event' | 'full' {
  if (s.mode !== 'auto') return s.mode
  const name = io.getEnv('GITHUB_EVENT_NAME')
  return name === 'issues' || name === 'issue_comment' ? 'event' : 'full'
}

/** Runs sync-issues with the runner's (or the CLI's) IO: outputs, summary, and a failed step when a write failed. */
export async function run(io: ActionIO, _signal?: AbortSignal, deps: Deps = {}): Promise<void> {
  const s = await readInputs(io)
  const mode = resolveMode(s, io)
  let only: number | undefined
  if (mode === 'event') {
    const found = eventIssue(io)
    if (found.number === undefined) throw new Error(`mode is event, but ${found.why}; nothing to sync`)
    only = found.number
  }
  const gitlab = actionClient(s.gitlabUrl, s.token, 'sync-issues')
  // Loaded on demand: Octokit stays out of the bundle's first chunk.
  const { describeWait, octokit } = await import('./octokit.js')
  const github = await octokit(s.githubToken, {
    baseUrl: io.getEnv('GITHUB_API_URL'),
    writeGapMs: s.githubWriteGap,
    onWait: (w) => io.info(describeWait(w)),
    ...deps.github,
  })
  io.info(
    `sync-issues: ${s.repository} ${s.direction} ${s.project} (${mode}${only ? ` #${only}` : ''}${s.dryRun ? ', dry run' : ''})`,
  )
  let report: SyncReport
  try {
    report = await syncIssues(
      githubSide(github, s.repository),
      gitlabSide(gitlab, projectRef(s.project)),
      {
        direction: s.direction,
        comments: s.comments,
        labelMap: s.labels ?? {},
        labelPrefix: s.labelPrefix ?? '',
        userMap: s.userMap ?? {},
        onlyLabels: s.onlyLabels ?? [],
        dryRun: s.dryRun,
        includeConfidential: s.includeConfidential,
        only,
      },
      (line) => io.info(line),
    )
  } finally {
    await gitlab.close()
  }
  if (report.dryRun) {
    for (const op of report.planned) io.info(`plan: ${describe(op)}`)
    io.info(
      `Dry run: ${report.planned.length} write(s) planned, nothing applied (created, updated, ... stay 0)`,
    )
  }
  io.setOutput(Outputs.Planned, String(report.planned.length))
  for (const skip of report.skipped) io.warning(`${skip.key}: ${skip.reason}`)
  if (report.descoped.length > 0)
    io.info(`${report.descoped.length} mirrored issue(s) no longer carry any of only-labels: not synced`)
  for (const f of report.failed) io.warning(`failed: ${describe(f.op)}: ${f.error}`)
  io.setOutput(Outputs.Created, String(report.created.length))
  io.setOutput(Outputs.Updated, String(report.updated.length))
  io.setOutput(Outputs.Closed, String(report.closed.length))
  io.setOutput(Outputs.Reopened, String(report.reopened.length))
  io.setOutput(Outputs.Commented, String(report.commented.length))
  io.setOutput(Outputs.Unchanged, String(report.unchanged))
  io.setOutput(Outputs.Failed, String(report.failed.length))
  const { issues, notes } = report.confidential
  io.setOutput(Outputs.SkippedConfidential, String(issues + notes))
  if (issues + notes > 0)
    io.info(
      `${issues} confidential GitLab issue(s) and ${notes} internal note(s) not mirrored to GitHub ('include-confidential' is off)`,
    )
  await io.summary(renderSummary(s, mode, report))
  if (report.failed.length > 0)
    io.fail(`${report.failed.length} of ${report.planned.length} writes failed; the others were applied`)
}
