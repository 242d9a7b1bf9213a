import type { Issue } from '../../schema/index.js'
import type { Actor } from '../services/access.js'
import type { IssueService } from '../services/issues/issues.js'
import type { IssueListScope } from '../services/issues/list.js'

/**
 * `Label#open_issues_count` and `closed_issues_count` (`with_counts`): IssuesFinder for the caller,
 * every scope, one state, in the project's or group's lists. The records are the issue lists' own
 * (kept per view), so `toJson` writes them as the lists write them.
 */
export function labelIssueCounts(
  issues: IssueService,
  actor: Actor,
  scope: IssueListScope,
  title: string,
  toJson: (issue: Issue) => string,
): { open_issues_count: number; closed_issues_count: number } {
  const count = (state: 'opened' | 'closed') =>
    issues.list(actor, scope, { labels: [title], state, scope: 'all', page: 1, per_page: 1 }, toJson).total ??
    0
  return { open_issues_count: count('opened'), closed_issues_count: count('closed') }
}
