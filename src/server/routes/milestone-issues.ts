import type { Issue, IssueBasic, PageQuery } from '../../schema/index.js'
import type { Static } from '@sinclair/typebox'
import type { PageOut } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { IssueService } from '../services/issues/issues.js'
import type { IssueListScope } from '../services/issues/list.js'

/**
 * `milestone_issuables_for(parent, :issue)` (`lib/api/milestone_responses.rb`): the issues of the
 * project's or group's (subgroups included) lists with the milestone's title, every state, ordered
 * by label priority, each shown as `IssueBasic`. The records are the issue lists' own (kept per view).
 */
export function milestoneIssues(
  issues: IssueService,
  actor: Actor,
  scope: IssueListScope,
  title: string,
  paging: Static<typeof PageQuery>,
  toJson: (issue: Issue) => string,
): PageOut<IssueBasic> {
  const page = issues.list(
    actor,
    scope,
    { ...paging, milestone: title, scope: 'all', state: 'all', order_by: 'label_priority', sort: 'asc' },
    toJson,
  )
  const { issues: records, page: at, total, hasMore } = page
  return { items: records.map((json) => JSON.parse(json) as IssueBasic), page: at, total, hasMore }
}
