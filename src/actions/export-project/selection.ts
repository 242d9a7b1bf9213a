/*
 * Which projects a run leaves out: `exclude` globs on the full path, and `skip-unchanged-since` on
 * `last_activity_at`. `last-run` reads the start of the last successful run from a small state file
 * the action keeps beside the archives (written only when no export failed).
 */
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join, posix } from 'node:path'

/** The file in `download-dir` that remembers the last successful run. */
export const STATE_FILE = '.export-state.json'

/**
 * GitLab moves `last_activity_at` at most once an hour (`Event::RESET_PROJECT_ACTIVITY_INTERVAL`,
 * `app/models/event.rb`): a change made within an hour of the previous one leaves it where it was.
 * `last-run` therefore reaches back this far before the last run's start, so no change is missed;
 * it also absorbs a runner clock a few minutes off GitLab's.
 */
export const ACTIVITY_GRANULARITY_MS = 3_600_000

export interface LastRun {
  /** When the last successful run started (the runner's clock), ISO 8601. */
  started_at: string
  gitlab_url: string
}

/** What a project is measured by: its full path and `last_activity_at` (when known). */
export interface Candidate {
  path: string
  last_activity_at?: string | undefined
}

export interface Skip {
  /** Why, as one line a person can read: `excluded by 'acme/old-*'`. */
  reason: string
}

/** The state of the last successful run in `dir`, or undefined when there is none (or it is unreadable). */
export async function readLastRun(dir: string): Promise<LastRun | undefined> {
  let text: string
  try {
    text = await readFile(join(dir, STATE_FILE), 'utf8')
  } catch {
    return undefined
  }
  try {
    const state = JSON.parse(text) as Partial<LastRun>
    if (typeof state.started_at === 'string' && !Number.isNaN(Date.parse(state.started_at)))
      return { started_at: state.started_at, gitlab_url: String(state.gitlab_url ?? '') }
  } catch {
    // A damaged state file counts as no state: everything is exported, and the file is rewritten.
  }
  return undefined
}

/** Records a successful run that started at `startedAt` (written whole, then renamed into place). */
export async function writeLastRun(dir: string, startedAt: number, gitlabUrl: string): Promise<void> {
  const state: LastRun = { started_at: new Date(startedAt).toISOString(), gitlab_url: gitlabUrl }
  const file = join(dir, STATE_FILE)
  await writeFile(`${file}.part`, JSON.stringify(state, null, 2) + '\n')
  await rename(`${file}.part`, file)
}

/**
 * The cut-off of `skip-unchanged-since`: the date given, or for `last-run` the last run's start less
 * ACTIVITY_GRANULARITY_MS. Undefined (nothing skipped) without the input, or with `last-run` and no
 * state from a run against the same GitLab. `note` says which, for the log.
 */
export function cutoffOf(
  since: Date | 'last-run' | undefined,
  last: LastRun | undefined,
  gitlabUrl: string,
): { cutoff?: Date; note?: string } {
  if (since === undefined) return {}
  if (since !== 'last-run') return { cutoff: since }
  if (!last) return { note: `no earlier successful run recorded (${STATE_FILE}): exporting everything` }
  if (last.gitlab_url !== gitlabUrl)
    return {
      note: `the last run recorded was against another GitLab (${last.gitlab_url}): exporting everything`,
    }
  const cutoff = new Date(Date.parse(last.started_at) - ACTIVITY_GRANULARITY_MS)
  return {
    cutoff,
    note: `last successful run started ${last.started_at}: skipping what is older than ${cutoff.toISOString()}`,
  }
}

/**
 * Why `project` is left out, or undefined to export it. An exclude glob wins over the date; a
 * project whose `last_activity_at` is unknown is exported (never skipped on a guess).
 */
export function skipReason(
  project: Candidate,
  exclude: string[],
  cutoff: Date | undefined,
): Skip | undefined {
  const glob = exclude.find((g) => posix.matchesGlob(project.path, g))
  if (glob !== undefined) return { reason: `excluded by '${glob}'` }
  if (cutoff === undefined || project.last_activity_at === undefined) return undefined
  const at = Date.parse(project.last_activity_at)
  if (!Number.isNaN(at) && at < cutoff.getTime())
    return { reason: `unchanged since ${cutoff.toISOString()} (last activity ${project.last_activity_at})` }
  return undefined
}
