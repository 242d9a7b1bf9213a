import { CloneType, Type, type Static } from '@sinclair/typebox'
import { DateString, Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { Milestone } from './milestone.js'
import { LabelDetail } from './label.js'
import {
  boolParam,
  csvParam,
  dateTimeParam,
  integerNoneAny,
  intArrayParam,
  wrappedListParam,
} from './params.js'

/** GitLab's doc/api/issues.md: issue states. */
export const IssueState = Type.Union([Type.Literal('opened'), Type.Literal('closed')])
export type IssueState = Static<typeof IssueState>

/** GitLab's doc/api/issues.md: issue kinds; `type` on the record is the upper-cased form. */
export const IssueType = Type.Union([
  Type.Literal('issue'),
  Type.Literal('incident'),
  Type.Literal('test_case'),
  Type.Literal('task'),
])
export type IssueType = Static<typeof IssueType>

/**
 * `Entities::IssuableTimeStats` (`lib/api/entities/issuable_time_stats.rb`): seconds, and GitLab's short
 * human form, null at zero.
 */
export const TimeStats = Type.Object(
  {
    time_estimate: Type.Integer(),
    total_time_spent: Type.Integer(),
    human_time_estimate: Nullable(Type.String()),
    human_total_time_spent: Nullable(Type.String()),
  },
  { title: 'TimeStats' },
)
export type TimeStats = Static<typeof TimeStats>

export const TaskCompletionStatus = Type.Object({ count: Type.Integer(), completed_count: Type.Integer() })

/** `references` of the issue record (`lib/api/entities/issue_basic.rb`). */
export const IssueReferences = Type.Object({
  short: Type.String(),
  relative: Type.String(),
  full: Type.String(),
})

/** `_links` of the issue record (`lib/api/entities/issue.rb`). */
export const IssueLinks = Type.Object({
  self: Type.String(),
  notes: Type.String(),
  award_emoji: Type.String(),
  project: Type.String(),
  closed_as_duplicate_of: Nullable(Type.String()),
})

/** GitLab's doc/api/issues.md `[paid]` epic embedding. */
export const IssueEpic = Type.Object({
  id: Type.Integer(),
  iid: Type.Integer(),
  title: Type.String(),
  url: Type.String(),
  group_id: Type.Integer(),
})

/** GitLab's doc/api/issues.md `[paid]` iteration embedding. */
export const IssueIteration = Type.Object({
  id: Type.Integer(),
  iid: Type.Integer(),
  sequence: Type.Integer(),
  group_id: Type.Integer(),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  state: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  start_date: Nullable(DateString),
  due_date: Nullable(DateString),
  web_url: Type.String(),
})

/**
 * `Entities::IssueBasic` + `Entities::Issue` (`lib/api/entities/issue.rb`): the issue record, properties in
 * GitLab's order (serialisation keeps it). Optional keys are the ones GitLab leaves out: `subscribed` in
 * lists, `task_status` when the description has checklist items (exposed only `unless tasks?`), and the
 * `[paid]` keys on the `ce` edition.
 */
export const Issue = Type.Object(
  {
    id: Type.Integer(),
    iid: Type.Integer(),
    project_id: Type.Integer(),
    title: Type.String(),
    description: Nullable(Type.String()),
    state: IssueState,
    created_at: Timestamp,
    updated_at: Timestamp,
    closed_at: Nullable(Timestamp),
    closed_by: Nullable(UserBasic),
    labels: Type.Union([Type.Array(Type.String()), Type.Array(LabelDetail)]),
    milestone: Nullable(Milestone),
    assignees: Type.Array(UserBasic),
    author: UserBasic,
    type: Type.String({ description: 'ISSUE, INCIDENT, TEST_CASE or TASK' }),
    assignee: Nullable(UserBasic),
    user_notes_count: Type.Integer(),
    merge_requests_count: Type.Integer(),
    upvotes: Type.Integer(),
    downvotes: Type.Integer(),
    due_date: Nullable(DateString),
    confidential: Type.Boolean(),
    discussion_locked: Nullable(Type.Boolean()),
    issue_type: IssueType,
    web_url: Type.String(),
    time_stats: TimeStats,
    task_completion_status: TaskCompletionStatus,
    weight: Type.Optional(Nullable(Type.Integer())),
    blocking_issues_count: Type.Optional(Type.Integer()),
    epic_iid: Type.Optional(Nullable(Type.Integer({ deprecated: true }))),
    epic: Type.Optional(Nullable(IssueEpic)),
    iteration: Type.Optional(Nullable(IssueIteration)),
    health_status: Type.Optional(Nullable(Type.String())),
    has_tasks: Type.Boolean(),
    task_status: Type.Optional(Type.String()),
    _links: IssueLinks,
    references: IssueReferences,
    severity: Type.String(),
    subscribed: Type.Optional(Type.Boolean()),
    moved_to_id: Nullable(Type.Integer()),
    imported: Type.Boolean(),
    imported_from: Type.String(),
    service_desk_reply_to: Nullable(Type.String()),
  },
  { title: 'Issue' },
)
export type Issue = Static<typeof Issue>

/** `order_by` values of the issue lists (`lib/api/issues.rb`). */
export const IssueOrderBy = Type.Union([
  Type.Literal('created_at'),
  Type.Literal('updated_at'),
  Type.Literal('priority'),
  Type.Literal('due_date'),
  Type.Literal('relative_position'),
  Type.Literal('label_priority'),
  Type.Literal('milestone_due'),
  Type.Literal('popularity'),
  Type.Literal('weight'),
  Type.Literal('title'),
])
export type IssueOrderBy = Static<typeof IssueOrderBy>

export const DueDateFilter = Type.Union([
  Type.Literal('0'),
  Type.Literal('any'),
  Type.Literal('today'),
  Type.Literal('tomorrow'),
  Type.Literal('overdue'),
  Type.Literal('week'),
  Type.Literal('month'),
  Type.Literal('next_month_and_previous_two_weeks'),
  Type.Literal(''),
])

/** The negatable filters (`not[...]`, GitLab's doc/api/issues.md). */
export const IssueNotFilters = Type.Object({
  labels: Type.Optional(csvParam()),
  milestone: Type.Optional(Type.String()),
  milestone_id: Type.Optional(Type.String()),
  iids: Type.Optional(intArrayParam()),
  author_id: Type.Optional(Type.Integer()),
  author_username: Type.Optional(Type.String()),
  assignee_id: Type.Optional(integerNoneAny()),
  assignee_username: Type.Optional(wrappedListParam()),
  my_reaction_emoji: Type.Optional(Type.String()),
  search: Type.Optional(Type.String()),
  in: Type.Optional(Type.String()),
  weight: Type.Optional(integerNoneAny()),
  iteration_id: Type.Optional(integerNoneAny()),
  iteration_title: Type.Optional(Type.String()),
  epic_id: Type.Optional(integerNoneAny()),
  health_status: Type.Optional(Type.String()),
})

const issueListOptions = {
  title: 'IssueListQuery',
  'x-mutually-exclusive': [
    ['milestone_id', 'milestone'],
    ['author_id', 'author_username'],
    ['assignee_id', 'assignee_username'],
    ['iteration_id', 'iteration_title'],
  ],
}

/**
 * GitLab's doc/api/issues.md: parameters of `GET /issues`, `GET /groups/:id/issues` and `GET /projects/:id/issues`
 * (`lib/api/issues.rb`). `mutuallyExclusive` pairs are checked as Grape's `mutually_exclusive`.
 */
export const IssueListQuery = Type.Object(
  {
    state: Type.Optional(
      Type.Union([Type.Literal('opened'), Type.Literal('closed'), Type.Literal('all')], { default: 'all' }),
    ),
    order_by: Type.Optional(CloneType(IssueOrderBy, { default: 'created_at' })),
    sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
    with_labels_details: Type.Optional(boolParam({ default: false })),
    due_date: Type.Optional(DueDateFilter),
    issue_type: Type.Optional(IssueType),
    labels: Type.Optional(csvParam()),
    milestone: Type.Optional(Type.String()),
    milestone_id: Type.Optional(Type.String()),
    iids: Type.Optional(intArrayParam()),
    search: Type.Optional(Type.String()),
    in: Type.Optional(Type.String()),
    author_id: Type.Optional(Type.Integer()),
    author_username: Type.Optional(Type.String()),
    assignee_id: Type.Optional(integerNoneAny()),
    assignee_username: Type.Optional(wrappedListParam()),
    created_after: Type.Optional(dateTimeParam()),
    created_before: Type.Optional(dateTimeParam()),
    updated_after: Type.Optional(dateTimeParam()),
    updated_before: Type.Optional(dateTimeParam()),
    scope: Type.Optional(Type.String()),
    my_reaction_emoji: Type.Optional(Type.String()),
    confidential: Type.Optional(boolParam()),
    not: Type.Optional(IssueNotFilters),
    non_archived: Type.Optional(boolParam()),
    weight: Type.Optional(integerNoneAny()),
    epic_id: Type.Optional(integerNoneAny()),
    iteration_id: Type.Optional(integerNoneAny()),
    iteration_title: Type.Optional(Type.String()),
    health_status: Type.Optional(Type.String()),
    // `use :pagination`: Grape fills in page 1 and 20 a page, which the lists' links carry.
    ...PageQuery.properties,
    pagination: Type.Optional(Type.Union([Type.Literal('keyset'), Type.Literal('offset')])),
    cursor: Type.Optional(Type.String()),
  },
  issueListOptions,
)
export type IssueListQuery = Static<typeof IssueListQuery>

/** `GET /groups/:id/issues`: archived projects' issues stay out unless asked for. */
export const GroupIssueListQuery = Type.Object(
  { ...IssueListQuery.properties, non_archived: Type.Optional(boolParam({ default: true })) },
  issueListOptions,
)

/** `GET /issues`: the caller's own issues unless another scope is asked for. */
export const GlobalIssueListQuery = Type.Object(
  { ...GroupIssueListQuery.properties, scope: Type.Optional(Type.String({ default: 'created_by_me' })) },
  issueListOptions,
)

const issueWritable = {
  assignee_id: Type.Optional(Type.Integer({ description: 'deprecated single assignee; 0 unassigns' })),
  assignee_ids: Type.Optional(
    intArrayParam({ description: '`[paid]` several assignees; 0 or empty unassigns' }),
  ),
  confidential: Type.Optional(boolParam()),
  description: Type.Optional(Type.String()),
  discussion_locked: Type.Optional(boolParam()),
  due_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD; an invalid date is ignored' })),
  epic_id: Type.Optional(Type.Integer()),
  epic_iid: Type.Optional(Type.Integer({ deprecated: true })),
  issue_type: Type.Optional(IssueType),
  labels: Type.Optional(csvParam()),
  add_labels: Type.Optional(csvParam()),
  remove_labels: Type.Optional(csvParam()),
  milestone_id: Type.Optional(Type.Integer({ description: '0 or empty removes the milestone' })),
  weight: Type.Optional(Type.Integer()),
}

/** GitLab's doc/api/issues.md `POST /projects/:id/issues`. */
export const IssueCreate = Type.Object(
  {
    title: Type.String(),
    ...issueWritable,
    created_at: Type.Optional(dateTimeParam()),
    iid: Type.Optional(Type.Integer()),
    merge_request_to_resolve_discussions_of: Type.Optional(Type.Integer()),
    discussion_to_resolve: Type.Optional(Type.String()),
  },
  { title: 'IssueCreate' },
)
export type IssueCreate = Static<typeof IssueCreate>

/**
 * The at-least-one list of `PUT /projects/:id/issues/:issue_iid`, in GitLab's order (`lib/api/issues.rb`).
 */
export const issueUpdateRequiresOneOf = {
  ce: [
    'assignee_id',
    'assignee_ids',
    'confidential',
    'created_at',
    'description',
    'discussion_locked',
    'due_date',
    'labels',
    'add_labels',
    'remove_labels',
    'milestone_id',
    'state_event',
    'title',
    'issue_type',
  ],
  ee: ['weight', 'epic_id', 'epic_iid'],
}

/** GitLab's doc/api/issues.md `PUT /projects/:id/issues/:issue_iid`. */
export const IssueUpdate = Type.Object(
  {
    title: Type.Optional(Type.String()),
    ...issueWritable,
    state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('reopen')])),
    updated_at: Type.Optional(dateTimeParam({ allowBlank: false })),
    created_at: Type.Optional(Type.Unknown({ description: 'counts for the at-least-one rule only' })),
  },
  { title: 'IssueUpdate' },
)
export type IssueUpdate = Static<typeof IssueUpdate>
