import type {
  Issue,
  IssueType,
  LabelDetail,
  Milestone,
  GroupLabel,
  ProjectLabel,
  ProjectLabelWithCounts,
  UserBasic,
} from '../../schema/index.js'
import type { EpicRow } from '../store/epics.js'
import type { IssueRow } from '../store/issues.js'
import type { LabelRow } from '../store/labels.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { formatDuration } from '../domain/chronic-duration.js'
import { taskStatusText } from '../domain/tasks.js'
import { apiUrl, type Instance } from './context.js'
import { issuableFields } from './issuable.js'
import { presentUser } from './users.js'

/**
 * Where a list was read from: `references.relative` is relative to it (`lib/api/entities/issue_basic.rb`).
 */
export type ReferenceContext = { project: number } | { group: number } | 'global'

export interface IssueView {
  /**
   * The caller, for `subscribed`; set `withSubscribed` on single-issue responses only (lists pass
   * `include_subscribed: false` in `lib/api/issues.rb`).
   */
  userId: number | null
  withSubscribed: boolean
  withLabelDetails: boolean
  from: ReferenceContext
  /** `read_epic` for the caller: an epic it may not read shows as null (EE). */
  canReadEpic: (epic: EpicRow) => boolean
  /** `read_issue` for the caller: a duplicate links its canonical issue only when it may read it. */
  canReadIssue: (row: IssueRow) => boolean
}

/** GitLab's `Gitlab::Color#contrast`: dark text when the RGB components add up to more than 500. */
const textColor = (color: string) => {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())
  if (!m) return '#FFFFFF'
  const hex =
    (m[1] as string).length === 3 ? [...(m[1] as string)].map((c) => c + c).join('') : (m[1] as string)
  const sum = [0, 2, 4].reduce((total, i) => total + parseInt(hex.slice(i, i + 2), 16), 0)
  return sum > 500 ? '#1F1E24' : '#FFFFFF'
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  )

export function presentLabel(row: LabelRow): LabelDetail {
  return {
    id: row.id,
    name: row.title,
    color: row.color,
    description: row.description,
    description_html: row.description ? escapeHtml(row.description) : '',
    text_color: textColor(row.color),
  }
}

/** Issue and merge request counts of a label, as the caller may see them (`with_counts`). */
export type LabelCounts = Pick<
  ProjectLabelWithCounts,
  'open_issues_count' | 'closed_issues_count' | 'open_merge_requests_count'
>

/**
 * `Entities::ProjectLabel`: the label, its `counts` when asked for, whether the caller subscribed to
 * it, the project's priority.
 */
export function presentProjectLabel(row: LabelRow, subscribed: boolean): ProjectLabel
export function presentProjectLabel(
  row: LabelRow,
  subscribed: boolean,
  counts?: LabelCounts,
): ProjectLabel | ProjectLabelWithCounts
export function presentProjectLabel(
  row: LabelRow,
  subscribed: boolean,
  counts?: LabelCounts,
): ProjectLabel | ProjectLabelWithCounts {
  const own = row.project_id !== null
  return {
    ...presentLabel(row),
    ...counts,
    subscribed,
    priority: own ? row.priority : null,
    is_project_label: own,
  }
}

/** `Entities::GroupLabel`: the label, its counts when asked, and whether the caller subscribed. */
export function presentGroupLabel(row: LabelRow, subscribed: boolean, counts?: LabelCounts): GroupLabel {
  return { ...presentLabel(row), ...counts, subscribed }
}

/**
 * `Entities::Milestone`: `project_id` or `group_id`, whichever owns it; `web_url` as
 * `Gitlab::UrlBuilder` builds it for a project's or a group's milestone.
 */
export function presentMilestone(row: MilestoneRow, instance: Instance, today: string): Milestone {
  const owner = row.group_id === null ? { project_id: row.project_id as number } : { group_id: row.group_id }
  const path = row.group_id === null ? row.owner_path : `groups/${row.owner_path}`
  return {
    id: row.id,
    iid: row.iid,
    ...owner,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    due_date: row.due_date,
    start_date: row.start_date,
    expired: row.due_date !== null && row.due_date < today,
    web_url: `${instance.baseUrl}/${path}/-/milestones/${row.iid}`,
  }
}

const human = (seconds: number) => (seconds === 0 ? null : formatDuration(seconds))

/**
 * What an issue page's records show besides their rows, loaded by the service once per page (one
 * read per relation, or per distinct record, never per row: services/issues/records.ts).
 */
export interface IssueRecords {
  /** The server clock's day (`YYYY-MM-DD`): a milestone due before it is `expired`. */
  today: string
  labels: Map<number, LabelRow[]>
  /** Assignee user ids by issue id, in order. */
  assignees: Map<number, number[]>
  mergeRequestCounts: Map<number, number>
  /** EE: the open issues each issue blocks, by issue id (absent: none). */
  blockingCounts: Map<number, number>
  users: Map<number, UserRow | undefined>
  projects: Map<number, ProjectRow>
  milestones: Map<number, MilestoneRow | undefined>
  /** The epics the caller may read, by id (EE). */
  epics: Map<number, EpicRow>
  /** The canonical issues the caller may read, by id (`closed_as_duplicate_of`). */
  duplicates: Map<number, IssueRow>
  /** The group a group list was read from (`references.relative`). */
  group: NamespaceRow | undefined
  /** Issues the caller subscribes to; set with `withSubscribed`. */
  subscribed?: Set<number>
}

/** Stored rows -> issue records (`lib/api/entities/issue.rb`), shaped from the rows and `records`. */
export function presentIssues(
  instance: Instance,
  rows: IssueRow[],
  view: IssueView,
  records: IssueRecords,
): Issue[] {
  const { labels, assignees, today } = records
  const users = new Map<number, UserBasic | null>()
  const user = (id: number | null): UserBasic | null => {
    if (id === null) return null
    if (!users.has(id)) {
      const row = records.users.get(id)
      users.set(id, row ? presentUser(row, instance) : null)
    }
    return users.get(id) ?? null
  }
  const project = (id: number) => records.projects.get(id) as ProjectRow
  const noTasks = taskStatusText(0, 0, instance.version)
  const api = apiUrl(instance)
  const ee = instance.edition === 'ee'
  const group = records.group

  return rows.map((row): Issue => {
    const p = project(row.project_id)
    const issueLabels = labels.get(row.id) ?? []
    const assigned = (assignees.get(row.id) ?? []).map(user).filter((u): u is UserBasic => u !== null)
    const milestoneRow = row.milestone_id === null ? undefined : records.milestones.get(row.milestone_id)
    const full = `${p.full_path}#${row.iid}`
    const from = view.from
    const namespacePath = p.full_path.slice(0, p.full_path.length - p.path.length - 1)
    const relative =
      typeof from === 'object' && 'project' in from && from.project === row.project_id
        ? `#${row.iid}`
        : group && group.full_path.toLowerCase() === namespacePath.toLowerCase()
          ? `${p.path}#${row.iid}`
          : full
    const tasksPresent = row.tasks_total > 0
    const self = `${api}/projects/${row.project_id}/issues/${row.iid}`
    const duplicateOf =
      row.duplicated_to_id === null ? undefined : records.duplicates.get(row.duplicated_to_id)
    const issue: Issue = {
      ...issuableFields(row),
      closed_at: row.closed_at,
      closed_by: user(row.closed_by_id),
      labels: view.withLabelDetails ? issueLabels.map(presentLabel) : issueLabels.map((l) => l.title),
      milestone: milestoneRow ? presentMilestone(milestoneRow, instance, today) : null,
      assignees: assigned,
      author: user(row.author_id) as UserBasic,
      type: row.issue_type.toUpperCase(),
      assignee: assigned[0] ?? null,
      user_notes_count: row.user_notes_count,
      merge_requests_count: records.mergeRequestCounts.get(row.id) ?? 0,
      upvotes: row.upvotes,
      downvotes: row.downvotes,
      due_date: row.due_date,
      confidential: row.confidential === 1,
      discussion_locked: row.discussion_locked === null ? null : row.discussion_locked === 1,
      issue_type: row.issue_type as IssueType,
      web_url: `${instance.baseUrl}/${p.full_path}/-/issues/${row.iid}`,
      time_stats: {
        time_estimate: row.time_estimate,
        total_time_spent: row.total_time_spent,
        human_time_estimate: human(row.time_estimate),
        human_total_time_spent: human(row.total_time_spent),
      },
      task_completion_status: { count: row.tasks_total, completed_count: row.tasks_done },
      has_tasks: !tasksPresent,
      _links: {
        self,
        notes: `${self}/notes`,
        award_emoji: `${self}/award_emoji`,
        project: `${api}/projects/${row.project_id}`,
        closed_as_duplicate_of: duplicateOf
          ? `${api}/projects/${duplicateOf.project_id}/issues/${duplicateOf.iid}`
          : null,
      },
      references: { short: `#${row.iid}`, relative, full },
      severity: row.severity,
      moved_to_id: row.moved_to_id,
      imported: row.imported_from !== 'none',
      imported_from: row.imported_from,
      service_desk_reply_to: row.service_desk_reply_to,
    }
    // GitLab's has_tasks/task_status inversion (`lib/api/entities/issue.rb`): the text only when there are no
    // items.
    if (!tasksPresent) issue.task_status = row.description ? noTasks : ''
    if (ee) {
      issue.weight = row.weight
      issue.blocking_issues_count = records.blockingCounts.get(row.id) ?? 0
      const epic = row.epic_id === null ? undefined : records.epics.get(row.epic_id)
      issue.epic_iid = epic ? epic.iid : null
      issue.epic = epic
        ? {
            id: epic.id,
            iid: epic.iid,
            title: epic.title,
            url: `${instance.baseUrl}/groups/${epic.group_path}/-/epics/${epic.iid}`,
            group_id: epic.group_id,
          }
        : null
      issue.iteration = null
      issue.health_status = row.health_status
    }
    if (view.withSubscribed) issue.subscribed = records.subscribed?.has(row.id) === true
    return issue
  })
}
