/*
 * `only-labels`: which issues the sync mirrors. An issue is in scope when it carries one of the
 * labels, spelled as either side spells it (through the label map and prefix); a pair stays in scope
 * while either of its issues carries one, so the removal of the last such label is itself mirrored,
 * and from the next run the pair is left alone and reported. Our own choice: neither forge has it.
 */
import { labelToGitHub, labelToGitLab } from './mapping.js'
import type { SideIssue, SyncOptions } from './model.js'

/** Whether `issue` carries a label of `only-labels` (always true when the list is empty). */
export function carriesScope(issue: SideIssue, opts: SyncOptions): boolean {
  const only = opts.onlyLabels ?? []
  if (only.length === 0) return true
  const wanted = new Set(only)
  const across = issue.side === 'github' ? labelToGitLab : labelToGitHub
  return issue.labels.some((l) => wanted.has(l) || wanted.has(across(l, opts)))
}

/** Whether a pair is still synced: either of its issues carries a label of `only-labels`. */
export const pairInScope = (pair: { github: SideIssue; gitlab: SideIssue }, opts: SyncOptions) =>
  carriesScope(pair.github, opts) || carriesScope(pair.gitlab, opts)

/** The report line of a pair that left the scope. */
export const descopedReason = (opts: SyncOptions) =>
  `carries none of only-labels (${(opts.onlyLabels ?? []).join(', ')}) on either side: no longer synced`
