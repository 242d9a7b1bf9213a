/*
 * Why an issue was closed, carried as far as each side can hold it. GitHub keeps `state_reason`
 * (`completed`, `not_planned`, `duplicate`; REST `PATCH /repos/{owner}/{repo}/issues/{n}`); GitLab has
 * no such field, only the canonical issue of a duplicate (`closed_as_duplicate_of`,
 * an API address in `_links`, `lib/api/entities/issue.rb`, set by `/duplicate`). So: a GitHub mirror of a GitLab duplicate is
 * closed with `state_reason: duplicate`; a mirror on either side names a reason its own side cannot
 * hold in its link-back line (`closed as not planned`, `closed as a duplicate of <url>`). GitLab's
 * "closed by a merge request" is not in its issue record (it needs a call per issue) and is not carried.
 */
import type { SideIssue, SyncOptions } from './model.js'

/** GitHub's `state_reason` values the sync reads and writes. */
export type CloseReason = 'completed' | 'not_planned' | 'duplicate'

/** The canonical issue's web address when it is in the synced project, else its API address. */
function canonicalUrl(api: string, opts: SyncOptions): string {
  const m = /\/api\/v4\/projects\/(\d+)\/issues\/(\d+)$/.exec(api)
  return m && opts.web && Number(m[1]) === opts.places.gitlab.id ? `${opts.web.gitlab}/-/issues/${m[2]}` : api
}

/** The suffix of a mirror's link-back line naming why its origin was closed ('' when plain or open). */
export function closeNote(origin: SideIssue, opts: SyncOptions): string {
  if (origin.state !== 'closed') return ''
  if (origin.duplicate_of) return ` · closed as a duplicate of ${canonicalUrl(origin.duplicate_of, opts)}`
  if (origin.close_reason === 'not_planned') return ' · closed as not planned'
  if (origin.close_reason === 'duplicate') return ' · closed as a duplicate'
  return ''
}

/** The `state_reason` a GitHub issue closed after its GitLab twin gets (undefined: GitHub's default). */
export const githubStateReason = (gitlab: SideIssue): 'duplicate' | undefined =>
  gitlab.duplicate_of ? 'duplicate' : undefined
