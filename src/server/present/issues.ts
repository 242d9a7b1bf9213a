import type { Issue, IssueType, LabelDetail, Milestone, UserBasic } from '../../schema/index.js'
import type { EpicRow } from '../store/epics.js'
import type { Store } from '../store/index.js'
import type { IssueRow } from '../store/issues.js'
import type { LabelRow } from '../store/labels.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { ProjectRow } from '../store/projects.js'
import { formatDuration } from '../domain/chronic-duration.js'
import { taskStatusText } from '../domain/tasks.js'
import { apiUrl, type Instance } from './context.js'
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

export function presentMilestone(
  row: MilestoneRow,
  project: ProjectRow,
  instance: Instance,
  today: string,
): Milestone {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    due_date: row.due_date,
    start_date: row.start_date,
    expired: row.due_date !== null && row.due_date < today,
    web_url: `${instance.baseUrl}/${project.full_path}/-/milestones/${row.iid}`,
  }
}

const human = (seconds: number) => (seconds === 0 ? null : formatDuration(seconds))

/**
 * Stored rows -> issue records (`lib/api/entities/issue.rb`), loading labels, assignees, users,
 * milestones and merge-request counts for the whole batch at once. `today` is the server clock's
 * day (`YYYY-MM-DD`): a milestone due before it is `expired`.
 */
export function presentIssues(
  store: Store,
  instance: Instance,
  today: string,
  rows: IssueRow[],
  view: IssueView,
): Issue[] {
  const ids = rows.map((r) => r.id)
  const labels = new Map<number, LabelRow[]>()
  for (const l of store.labels.ofIssues(ids)) labels.set(l.issue_id, [...(labels.get(l.issue_id) ?? []), l])
  const assignees = new Map<number, number[]>()
  for (const a of store.issues.assigneesOf(ids))
    assignees.set(a.issue_id, [...(assignees.get(a.issue_id) ?? []), a.user_id])
  const mrCounts = new Map(store.issues.mergeRequestCounts(ids).map((m) => [m.issue_id, m.n]))
  const users = new Map<number, UserBasic | null>()
  const user = (id: number | null): UserBasic | null => {
    if (id === null) return null
    if (!users.has(id)) {
      const row = store.users.get(id)
      users.set(id, row ? presentUser(row, instance) : null)
    }
    return users.get(id) ?? null
  }
  const projects = new Map<number, ProjectRow>()
  const project = (id: number) => {
    let p = projects.get(id)
    if (!p) projects.set(id, (p = store.projects.get(id) as ProjectRow))
    return p
  }
  // A page's issues mostly share a few milestones: each is read once.
  const milestones = new Map<number, MilestoneRow | undefined>()
  const milestone = (id: number) => {
    if (!milestones.has(id)) milestones.set(id, store.milestones.get(id))
    return milestones.get(id)
  }
  const noTasks = taskStatusText(0, 0, instance.version)
  const api = apiUrl(instance)
  const ee = instance.edition === 'ee'

  return rows.map((row): Issue => {
    const p = project(row.project_id)
    const issueLabels = labels.get(row.id) ?? []
    const assigned = (assignees.get(row.id) ?? []).map(user).filter((u): u is UserBasic => u !== null)
    const milestoneRow = row.milestone_id === null ? undefined : milestone(row.milestone_id)
    const full = `${p.full_path}#${row.iid}`
    const from = view.from
    const namespacePath = p.full_path.slice(0, p.full_path.length - p.path.length - 1)
    const group = typeof from === 'object' && 'group' in from ? store.namespaces.get(from.group) : undefined
    const relative =
      typeof from === 'object' && 'project' in from && from.project === row.project_id
        ? `#${row.iid}`
        : group && group.full_path.toLowerCase() === namespacePath.toLowerCase()
          ? `${p.path}#${row.iid}`
          : full
    const tasksPresent = row.tasks_total > 0
    const self = `${api}/projects/${row.project_id}/issues/${row.iid}`
    const canonical = row.duplicated_to_id === null ? undefined : store.issues.get(row.duplicated_to_id)
    const duplicateOf = canonical && view.canReadIssue(canonical) ? canonical : undefined
    const issue: Issue = {
      id: row.id,
      iid: row.iid,
      project_id: row.project_id,
      title: row.title,
      description: row.description,
      state: row.state,
      created_at: row.created_at,
      updated_at: row.updated_at,
      closed_at: row.closed_at,
      closed_by: user(row.closed_by_id),
      labels: view.withLabelDetails ? issueLabels.map(presentLabel) : issueLabels.map((l) => l.title),
      milestone: milestoneRow ? presentMilestone(milestoneRow, p, instance, today) : null,
      assignees: assigned,
      author: user(row.author_id) as UserBasic,
      type: row.issue_type.toUpperCase(),
      assignee: assigned[0] ?? null,
      user_notes_count: row.user_notes_count,
      merge_requests_count: mrCounts.get(row.id) ?? 0,
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
      issue.blocking_issues_count = 0
      const linked = row.epic_id === null ? undefined : store.epics.get(row.epic_id)
      const epic = linked && view.canReadEpic(linked) ? linked : undefined
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
    if (view.withSubscribed && view.userId !== null) {
      issue.subscribed = store.issues.subscription(row.id, view.userId)?.subscribed === 1
    } else if (view.withSubscribed) {
      issue.subscribed = false
    }
    return issue
  })
}
