import type { IssueListQuery } from '../../../schema/index.js'
import { paramError } from '../../grape/gitlab-errors.js'
import type { Condition, IssueQuery } from '../../store/issue-query.js'
import { where } from '../../store/issue-query.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import type { ProjectRow } from '../../store/projects.js'
import { Level, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { today as todayOf } from '../../domain/clock.js'

/** Which list: `GET /issues`, `GET /groups/:id/issues` or `GET /projects/:id/issues` (GitLab's doc/api/issues.md). */
export type IssueListScope =
  { kind: 'global' } | { kind: 'group'; group: NamespaceRow } | { kind: 'project'; project: ProjectRow }

const isWord = (v: unknown, word: string) => typeof v === 'string' && v.toLowerCase() === word

/**
 * Date window helpers for `due_date` (`app/finders/issuable_finder.rb`); weeks start on Monday, as Rails'.
 */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}
function monthEnd(date: string, monthsAhead: number): string {
  const d = new Date(`${date}T00:00:00.000Z`)
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + monthsAhead + 1, 0))
    .toISOString()
    .slice(0, 10)
}

function dueDateCondition(value: string, today: string): Condition[] {
  switch (value) {
    case '0':
    case 'none':
      return [where.isNull('due_date')]
    case 'any':
      return [where.isNull('due_date', true)]
    case 'today':
      return [where.compare('due_date', '=', today)]
    case 'tomorrow':
      return [where.compare('due_date', '=', addDays(today, 1))]
    case 'overdue':
      return [where.compare('due_date', '<', today)]
    case 'week': {
      const weekday = (new Date(`${today}T00:00:00.000Z`).getUTCDay() + 6) % 7
      return [where.between('due_date', addDays(today, -weekday), addDays(today, 6 - weekday))]
    }
    case 'month':
      return [where.between('due_date', `${today.slice(0, 8)}01`, monthEnd(today, 0))]
    case 'next_month_and_previous_two_weeks':
      return [where.between('due_date', addDays(today, -14), monthEnd(today, 1))]
    default:
      return []
  }
}

/** Search words: words shorter than 3 characters are ignored unless nothing longer is given. */
function searchWords(search: string): string[] {
  const words = search.trim().split(/\s+/).filter(Boolean)
  const long = words.filter((w) => w.length >= 3)
  return long.length > 0 ? long : search.trim() ? [search.trim()] : []
}

function searchColumns(inParam: string | undefined): string[] {
  if (!inParam) return ['title', 'description']
  const cols = inParam
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s === 'title' || s === 'description')
  return cols.length > 0 ? [...new Set(cols)] : ['title', 'description']
}

/**
 * Turns validated list parameters into an IssueQuery for the store: visibility first (only
 * readable projects; confidential issues for Planner+ members, authors and assignees), then
 * every filter of GitLab's doc/api/issues.md with its None/Any wildcards and `not[...]` negations.
 */
export function buildIssueQuery(
  ctx: ServiceContext,
  actor: Actor,
  scope: IssueListScope,
  q: IssueListQuery,
): IssueQuery {
  const { store, access } = ctx
  const ee = ctx.instance.edition === 'ee'
  const today = todayOf(ctx.clock)
  if (!ee && q.assignee_username && q.assignee_username.length > 1)
    throw paramError(
      `assignee_username allows one value, but found ${q.assignee_username.length}: ${q.assignee_username.join(', ')}`,
    )

  const conds: Condition[] = []
  let projectIds: number[] | null
  let confidential: IssueQuery['confidential']
  if (scope.kind === 'project') {
    projectIds = [scope.project.id]
    confidential =
      actor.admin || access.projectLevel(actor, scope.project) >= Level.planner
        ? { all: true }
        : { projectIds: [], userId: actor.id }
  } else {
    const readable = access.readableProjects(actor, scope.kind === 'group' ? scope.group : undefined)
    projectIds = actor.admin && scope.kind === 'global' ? null : readable.map((r) => r.project.id)
    confidential = actor.admin
      ? { all: true }
      : {
          projectIds: readable.filter((r) => r.level >= Level.planner).map((r) => r.project.id),
          userId: actor.id,
        }
    if (q.non_archived !== false) conds.push(where.projectNotArchived())
  }

  const defaultScope = scope.kind === 'global' ? 'created_by_me' : 'all'
  const userScope = (q.scope ?? defaultScope).replace(/-/g, '_')
  if (userScope === 'created_by_me')
    conds.push(actor.id === null ? where.none() : where.compare('author_id', '=', actor.id))
  if (userScope === 'assigned_to_me')
    conds.push(actor.id === null ? where.none() : where.assignedTo(actor.id))

  if (q.state && q.state !== 'all') conds.push(where.state(q.state))
  if (q.iids) conds.push(where.inList('iid', q.iids))
  if (q.issue_type) conds.push(where.compare('issue_type', '=', q.issue_type))
  if (q.confidential !== undefined) conds.push(where.compare('confidential', '=', q.confidential ? 1 : 0))
  if (q.created_after) conds.push(where.compare('created_at', '>=', q.created_after))
  if (q.created_before) conds.push(where.compare('created_at', '<=', q.created_before))
  if (q.updated_after) conds.push(where.compare('updated_at', '>=', q.updated_after))
  if (q.updated_before) conds.push(where.compare('updated_at', '<=', q.updated_before))
  if (q.due_date !== undefined) conds.push(...dueDateCondition(q.due_date, today))
  if (q.search) conds.push(where.search(searchWords(q.search), searchColumns(q.in)))

  const userId = (username: string) => store.users.byUsername(username)?.id ?? -1
  const userIds = (usernames: string[]) => [...new Set(usernames)].map(userId)
  const labelConds = (labels: string[], negate: boolean): Condition[] => {
    if (labels.some((l) => isWord(l, 'none') || l === 'No+Label' || l === 'No Label'))
      return [negate ? where.someLabel() : where.noLabels()]
    if (labels.some((l) => isWord(l, 'any'))) return [negate ? where.noLabels() : where.someLabel()]
    const titles = [...new Set(labels)]
    return [negate ? where.noLabelOf(titles) : where.allLabels(titles)]
  }
  const milestoneConds = (value: string, negate: boolean): Condition[] => {
    if (isWord(value, 'none')) return [where.isNull('milestone_id', negate)]
    if (isWord(value, 'any')) return [where.isNull('milestone_id', !negate)]
    if (isWord(value, 'upcoming')) return [where.milestoneUpcoming(today, negate)]
    if (isWord(value, 'started')) return [where.milestoneStarted(today, negate)]
    return [where.milestoneTitle(value, negate)]
  }
  const assigneeIdConds = (value: number | string, negate: boolean): Condition[] => {
    if (isWord(value, 'none')) return [negate ? where.assigned() : where.unassigned()]
    if (isWord(value, 'any')) return [negate ? where.unassigned() : where.assigned()]
    return [negate ? where.notAssignedTo(Number(value)) : where.assignedTo(Number(value))]
  }
  const reactionConds = (value: string, negate: boolean): Condition[] => {
    if (actor.id === null) return negate || isWord(value, 'none') ? [] : [where.none()]
    if (isWord(value, 'none')) return [negate ? where.reacted(actor.id) : where.notReacted(actor.id)]
    if (isWord(value, 'any')) return [negate ? where.notReacted(actor.id) : where.reacted(actor.id)]
    return [negate ? where.notReacted(actor.id, value) : where.reacted(actor.id, value)]
  }
  const wildcardColumn = (column: string, value: number | string, negate: boolean): Condition[] => {
    if (isWord(value, 'none')) return [where.isNull(column, negate)]
    if (isWord(value, 'any')) return [where.isNull(column, !negate)]
    return [negate ? where.differs(column, value) : where.compare(column, '=', value)]
  }

  if (q.labels) conds.push(...labelConds(q.labels, false))
  const milestone = q.milestone ?? q.milestone_id
  if (milestone !== undefined) conds.push(...milestoneConds(milestone, false))
  if (q.author_id !== undefined) conds.push(where.compare('author_id', '=', q.author_id))
  if (q.author_username) conds.push(where.compare('author_id', '=', userId(q.author_username)))
  if (q.assignee_id !== undefined) conds.push(...assigneeIdConds(q.assignee_id, false))
  if (q.assignee_username) conds.push(where.assignedToAll(userIds(q.assignee_username)))
  if (q.my_reaction_emoji) conds.push(...reactionConds(q.my_reaction_emoji, false))
  if (ee) {
    if (q.weight !== undefined) conds.push(...wildcardColumn('weight', q.weight, false))
    if (q.epic_id !== undefined) conds.push(...wildcardColumn('epic_id', q.epic_id, false))
    if (q.health_status) conds.push(...wildcardColumn('health_status', q.health_status, false))
    // No iterations exist on the reference server: None matches everything, anything else nothing.
    if (q.iteration_id !== undefined && !isWord(q.iteration_id, 'none')) conds.push(where.none())
    if (q.iteration_title) conds.push(where.none())
  }

  const not = q.not ?? {}
  if (not.labels) conds.push(...labelConds(not.labels, true))
  const notMilestone = not.milestone ?? not.milestone_id
  if (notMilestone !== undefined) conds.push(...milestoneConds(notMilestone, true))
  if (not.iids) conds.push(where.inList('iid', not.iids, true))
  if (not.author_id !== undefined) conds.push(where.compare('author_id', '!=', not.author_id))
  if (not.author_username) conds.push(where.compare('author_id', '!=', userId(not.author_username)))
  if (not.assignee_id !== undefined) conds.push(...assigneeIdConds(not.assignee_id, true))
  if (not.assignee_username) conds.push(where.assignedToNone(userIds(not.assignee_username)))
  if (not.my_reaction_emoji) conds.push(...reactionConds(not.my_reaction_emoji, true))
  if (not.search) conds.push(where.search(searchWords(not.search), searchColumns(not.in), true))
  if (ee) {
    if (not.weight !== undefined) conds.push(...wildcardColumn('weight', not.weight, true))
    if (not.epic_id !== undefined) conds.push(...wildcardColumn('epic_id', not.epic_id, true))
    if (not.health_status) conds.push(...wildcardColumn('health_status', not.health_status, true))
  }

  const by = q.order_by === 'weight' && !ee ? 'created_at' : (q.order_by ?? 'created_at')
  return { projectIds, confidential, where: conds, order: { by, dir: q.sort ?? 'desc' } }
}
