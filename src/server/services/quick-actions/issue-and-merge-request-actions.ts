import { formatDuration, parseDuration } from '../../domain/chronic-duration.js'
import { isoNow, today } from '../../domain/clock.js'
import { toSentence } from '../system-notes.js'
import type { CommandDefinition, QuickActionContext } from './definition.js'
import { pluralize } from './definition.js'
import { canAdmin, canSetMetadata } from './permissions.js'
import { findIssue, findMilestone, findUsers, milestoneReference } from './references.js'

/*
 * The commands issues share with merge requests
 * (`lib/gitlab/quick_actions/issue_and_merge_request_actions.rb`), with their conditions and
 * execution messages. Multiple assignees (`allows_multiple_assignees?`) are an EE feature.
 */

const multipleAssignees = (ctx: QuickActionContext) => ctx.deps.ctx.instance.edition === 'ee'
const assigneeIds = (ctx: QuickActionContext) =>
  ctx.issue ? ctx.deps.ctx.store.issues.assigneesOf([ctx.issue.id]).map((a) => a.user_id) : []
const mention = (userId: number, ctx: QuickActionContext) =>
  `@${ctx.deps.ctx.store.users.get(userId)?.username ?? userId}`

/** `SpendTimeAndDateSeparator` (`lib/gitlab/quick_actions/spend_time_and_date_separator.rb`). */
const DATE = /(\d{2,4}[/\-.]\d{1,2}[/\-.]\d{1,2})/
const CATEGORY = /\[timecategory:(.*)\]/

/** The seconds and the day of `/spend 1h 2024-01-31`; undefined when unreadable or in the future. */
function parseSpend(ctx: QuickActionContext, arg: string): { seconds: number; date?: string } | undefined {
  const date = DATE.exec(arg)?.[1]
  let day: string | undefined
  if (date !== undefined) {
    const [y, m, d] = date.split(/[/\-.]/).map(Number) as [number, number, number]
    const parsed = new Date(Date.UTC(y < 100 ? 2000 + y : y, m - 1, d))
    if (parsed.getUTCMonth() !== m - 1 || parsed.getUTCDate() !== d) return undefined
    day = parsed.toISOString().slice(0, 10)
    if (day > today(ctx.deps.ctx.clock)) return undefined
  }
  const seconds = parseDuration(arg.replace(new RegExp(DATE, 'g'), '').replace(CATEGORY, ''))
  return seconds === null ? undefined : { seconds: Math.trunc(seconds), ...(day ? { date: day } : {}) }
}

const estimateOf = (arg: string | undefined) => {
  const parsed = arg === undefined ? null : parseDuration(arg, { keepZero: true })
  return parsed === null ? undefined : Math.trunc(parsed)
}

export const issueAndMergeRequestActions: CommandDefinition[] = [
  {
    names: ['assign'],
    takesArg: 'required',
    available: canSetMetadata,
    run(ctx, arg) {
      const users = findUsers(ctx, arg)
      if (users.length === 0) return
      if (!multipleAssignees(ctx)) ctx.updates.assignee_ids = [(users[0] as { id: number }).id]
      else
        ctx.updates.assignee_ids = [
          ...new Set([...(ctx.updates.assignee_ids ?? assigneeIds(ctx)), ...users.map((u) => u.id)]),
        ]
    },
    message(ctx, arg) {
      const users = findUsers(ctx, arg)
      if (users.length === 0) return 'Failed to assign a user because no user was found.'
      const shown = multipleAssignees(ctx) ? users : users.slice(0, 1)
      return `Assigned ${toSentence(shown.map((u) => `@${u.username}`))}.`
    },
  },
  {
    names: ['unassign'],
    takesArg: 'optional',
    available: (ctx) => assigneeIds(ctx).length > 0 && canSetMetadata(ctx),
    run(ctx, arg) {
      const users = multipleAssignees(ctx) ? findUsers(ctx, arg) : []
      if (users.length > 0) {
        const drop = new Set(users.map((u) => u.id))
        ctx.updates.assignee_ids = (ctx.updates.assignee_ids ?? assigneeIds(ctx)).filter(
          (id) => !drop.has(id),
        )
      } else ctx.updates.assignee_ids = []
    },
    message(ctx, arg) {
      const users = multipleAssignees(ctx) ? findUsers(ctx, arg).map((u) => u.id) : []
      const removed = users.length > 0 ? users : assigneeIds(ctx)
      const refs = toSentence(removed.map((id) => mention(id, ctx)))
      return `Removed ${pluralize('assignee', removed.length)} ${refs}.`
    },
  },
  {
    names: ['milestone'],
    takesArg: 'required',
    available: (ctx) =>
      canSetMetadata(ctx) &&
      ctx.deps.ctx.store.milestones.available(ctx.project).some((m) => m.state === 'active'),
    run(ctx, arg) {
      const milestone = arg === undefined ? undefined : findMilestone(ctx, arg)
      if (milestone) ctx.updates.milestone_id = milestone.id
    },
    message(ctx, arg) {
      const milestone = arg === undefined ? undefined : findMilestone(ctx, arg)
      return milestone ? `Set the milestone to ${milestoneReference(milestone)}.` : undefined
    },
  },
  {
    names: ['remove_milestone'],
    takesArg: 'none',
    available: (ctx) => ctx.issue?.milestone_id != null && canSetMetadata(ctx),
    run: (ctx) => void (ctx.updates.milestone_id = null),
    message(ctx) {
      const milestone = ctx.deps.ctx.store.milestones.get(ctx.issue?.milestone_id ?? 0)
      return milestone ? `Removed ${milestoneReference(milestone)} milestone.` : undefined
    },
  },
  {
    // `can_copy_metadata?`: the source must be in the same project.
    names: ['copy_metadata'],
    takesArg: 'required',
    available: canSetMetadata,
    run(ctx, arg) {
      const source = arg === undefined ? undefined : findIssue(ctx, arg)
      if (!source || source.project.id !== ctx.project.id) return
      const { store } = ctx.deps.ctx
      ctx.updates.add_label_ids = store.labels.ofIssues([source.issue.id]).map((l) => l.id)
      if (source.issue.milestone_id !== null) ctx.updates.milestone_id = source.issue.milestone_id
      ctx.messages.set('copy_metadata', `Copied labels and milestone from #${source.issue.iid}.`)
    },
  },
  {
    names: ['estimate', 'estimate_time'],
    takesArg: 'required',
    available: canAdmin,
    run(ctx, arg) {
      const seconds = estimateOf(arg)
      if (seconds !== undefined && seconds >= 0) ctx.updates.time_estimate = seconds
    },
    message(_ctx, arg) {
      const seconds = estimateOf(arg)
      if (seconds === 0) return 'Removed time estimate.'
      return seconds !== undefined && seconds > 0
        ? `Set time estimate to ${formatDuration(seconds)}.`
        : undefined
    },
  },
  {
    names: ['spend', 'spent', 'spend_time'],
    takesArg: 'required',
    available: canAdmin,
    run(ctx, arg) {
      const spend = arg === undefined ? undefined : parseSpend(ctx, arg)
      if (!spend) return
      ctx.updates.spend_time = {
        duration: spend.seconds,
        user_id: ctx.actor.id as number,
        // A dated entry is at midday of that day (`Date#midday`), an undated one now.
        spent_at: spend.date ? `${spend.date}T12:00:00.000Z` : isoNow(ctx.deps.ctx.clock),
        category: null,
      }
    },
    message(ctx, arg) {
      const spend = arg === undefined ? undefined : parseSpend(ctx, arg)
      if (!spend) return undefined
      const verb = spend.seconds > 0 ? 'Added' : 'Subtracted'
      return `${verb} ${formatDuration(Math.abs(spend.seconds))} spent time.`
    },
  },
  {
    names: ['remove_estimate', 'remove_time_estimate'],
    takesArg: 'none',
    available: (ctx) => ctx.issue !== null && canAdmin(ctx),
    run: (ctx) => void (ctx.updates.time_estimate = 0),
    message: () => 'Removed time estimate.',
  },
  {
    names: ['remove_time_spent'],
    takesArg: 'none',
    available: (ctx) => ctx.issue !== null && canAdmin(ctx),
    run: (ctx) => void (ctx.updates.spend_time = { duration: 'reset', user_id: ctx.actor.id as number }),
    message: () => 'Removed spent time.',
  },
  {
    names: ['lock'],
    takesArg: 'none',
    available: (ctx) => ctx.issue !== null && ctx.issue.discussion_locked !== 1 && canSetMetadata(ctx),
    run: (ctx) => void (ctx.updates.discussion_locked = true),
    message: () => 'Locked the discussion.',
  },
  {
    names: ['unlock'],
    takesArg: 'none',
    available: (ctx) => ctx.issue?.discussion_locked === 1 && canSetMetadata(ctx),
    run: (ctx) => void (ctx.updates.discussion_locked = false),
    message: () => 'Unlocked the discussion.',
  },
]
