import type { Issue } from '../../../schema/index.js'
import { presentIssues, type IssueRecords, type IssueView } from '../../present/issues.js'
import type { EpicRow } from '../../store/epics.js'
import type { IssueRow } from '../../store/issues.js'
import type { LabelRow } from '../../store/labels.js'
import type { MilestoneRow } from '../../store/milestones.js'
import type { ProjectRow } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import type { ServiceContext } from '../context.js'
import { today } from '../../domain/clock.js'

/** `get` of each distinct id of `ids` once (`null` ids skipped). */
function byId<T>(ids: Iterable<number | null>, get: (id: number) => T): Map<number, T> {
  const out = new Map<number, T>()
  for (const id of ids) if (id !== null && !out.has(id)) out.set(id, get(id))
  return out
}

/**
 * Loads what the records of `rows` show besides the rows: labels, assignees and merge-request
 * counts in one query each for the whole batch; users, projects, milestones, epics and canonical
 * issues once per distinct id (a page's issues mostly share a few); the group a group list was read
 * from, once; subscriptions only for a single issue (`withSubscribed`). Epics and canonical issues
 * the caller may not read are left out, so that the presenter shows them as null.
 */
export function loadIssueRecords(ctx: ServiceContext, rows: IssueRow[], view: IssueView): IssueRecords {
  const { store } = ctx
  const ids = rows.map((r) => r.id)
  // Each issue's list grown in place (a copy per label or assignee made garbage of every list).
  const labels = new Map<number, LabelRow[]>()
  for (const l of store.labels.ofIssues(ids)) {
    const list = labels.get(l.issue_id)
    if (list) list.push(l)
    else labels.set(l.issue_id, [l])
  }
  const assignees = new Map<number, number[]>()
  for (const a of store.issues.assigneesOf(ids)) {
    const list = assignees.get(a.issue_id)
    if (list) list.push(a.user_id)
    else assignees.set(a.issue_id, [a.user_id])
  }
  const userIds = rows.flatMap((r) => [r.author_id, r.closed_by_id])
  for (const list of assignees.values()) userIds.push(...list)
  const ee = ctx.instance.edition === 'ee'
  const epics = new Map<number, EpicRow>()
  if (ee)
    for (const [id, epic] of byId(
      rows.map((r) => r.epic_id),
      store.epics.get,
    ))
      if (epic && view.canReadEpic(epic)) epics.set(id, epic)
  const duplicates = new Map<number, IssueRow>()
  for (const [id, canonical] of byId(
    rows.map((r) => r.duplicated_to_id),
    store.issues.get,
  ))
    if (canonical && view.canReadIssue(canonical)) duplicates.set(id, canonical)
  const from = view.from
  return {
    today: today(ctx.clock),
    labels,
    assignees,
    mergeRequestCounts: new Map(store.issues.mergeRequestCounts(ids).map((m) => [m.issue_id, m.n])),
    blockingCounts: ee ? store.issueLinks.blockingCounts(ids) : new Map(),
    users: byId<UserRow | undefined>(userIds, store.users.get),
    projects: byId(
      rows.map((r) => r.project_id),
      (id) => store.projects.get(id) as ProjectRow,
    ),
    milestones: byId<MilestoneRow | undefined>(
      rows.map((r) => r.milestone_id),
      store.milestones.get,
    ),
    epics,
    duplicates,
    group: typeof from === 'object' && 'group' in from ? store.namespaces.get(from.group) : undefined,
    subscribed:
      view.withSubscribed && view.userId !== null
        ? new Set(
            rows
              .filter((r) => store.issues.subscription(r.id, view.userId!)?.subscribed === 1)
              .map((r) => r.id),
          )
        : undefined,
  }
}

/** The issue records of `rows`: their related records loaded once, then shaped. */
export const presentIssueBatch = (ctx: ServiceContext, rows: IssueRow[], view: IssueView): Issue[] =>
  presentIssues(ctx.instance, rows, view, loadIssueRecords(ctx, rows, view))
