import { Type, type Static } from '@sinclair/typebox'
import { Timestamp } from './common.js'
import { Issue } from './issue.js'

/** The keys `Entities::Issue` adds to `Entities::IssueBasic` (`lib/api/entities/issue.rb`), and EE's on it. */
const ISSUE_ONLY = new Set([
  'epic_iid',
  'epic',
  'iteration',
  'health_status',
  'has_tasks',
  'task_status',
  '_links',
  'references',
  'severity',
  'subscribed',
  'moved_to_id',
  'imported',
  'imported_from',
  'service_desk_reply_to',
])

/** The issue record's properties but `left_out`, in the record's order (`Type.Omit` would not say it keeps it). */
const issueProperties = (leftOut: (key: string) => boolean) =>
  Object.fromEntries(Object.entries(Issue.properties).filter(([key]) => !leftOut(key)))

/**
 * `Entities::IssueBasic` (`lib/api/entities/issue_basic.rb`, with EE's `weight` and `blocking_issues_count`):
 * the issue record without what `Entities::Issue` adds; the issues an issue link names and a milestone's issues.
 */
export const IssueBasic = Type.Object(
  issueProperties((key) => ISSUE_ONLY.has(key)) as Omit<
    typeof Issue.properties,
    | 'epic_iid'
    | 'epic'
    | 'iteration'
    | 'health_status'
    | 'has_tasks'
    | 'task_status'
    | '_links'
    | 'references'
    | 'severity'
    | 'subscribed'
    | 'moved_to_id'
    | 'imported'
    | 'imported_from'
    | 'service_desk_reply_to'
  >,
  { title: 'IssueBasic' },
)
export type IssueBasic = Static<typeof IssueBasic>

/** GitLab's link types; `blocks` and `is_blocked_by` on EE only (`IssuableLink.available_link_types`). */
export const IssueLinkType = Type.Union([
  Type.Literal('relates_to'),
  Type.Literal('blocks'),
  Type.Literal('is_blocked_by'),
])
export type IssueLinkType = Static<typeof IssueLinkType>

/** `Entities::IssueLink` (`lib/api/entities/issue_link.rb`): one link, as stored (`is_blocked_by` is a reversed `blocks`). */
export const IssueLink = Type.Object(
  {
    source_issue: IssueBasic,
    target_issue: IssueBasic,
    link_type: IssueLinkType,
  },
  { title: 'IssueLink' },
)
export type IssueLink = Static<typeof IssueLink>

/**
 * `Entities::RelatedIssue` (`lib/api/entities/related_issue.rb`): a linked issue as the other side
 * sees it, without `subscribed` (`include_subscribed: false`), then the link's id, type and times.
 */
export const RelatedIssue = Type.Object(
  {
    ...(issueProperties((key) => key === 'subscribed') as Omit<typeof Issue.properties, 'subscribed'>),
    issue_link_id: Type.Integer(),
    link_type: IssueLinkType,
    link_created_at: Timestamp,
    link_updated_at: Timestamp,
  },
  { title: 'RelatedIssue' },
)
export type RelatedIssue = Static<typeof RelatedIssue>

/** `POST /projects/:id/issues/:issue_iid/links` (`lib/api/issue_links.rb`): ids or paths, as Grape's `[String, Integer]`. */
export const IssueLinkCreate = Type.Object(
  {
    target_project_id: Type.String({ description: 'ID or URL-encoded path of the target project' }),
    target_issue_iid: Type.String({ description: 'IID of the target issue' }),
    link_type: Type.Optional(IssueLinkType),
  },
  { title: 'IssueLinkCreate' },
)
export type IssueLinkCreate = Static<typeof IssueLinkCreate>
