import { applies } from '../../domain/releases.js'
import { Level } from '../access.js'
import { today } from '../../domain/clock.js'
import { MOVABLE } from '../issues/moves.js'
import type { CommandDefinition, QuickActionContext } from './definition.js'
import { canAdmin, canSetMetadata, canUpdate } from './permissions.js'
import { findIssue } from './references.js'

/*
 * Issue-only commands (`lib/gitlab/quick_actions/issue_actions.rb`) and `/type`
 * (`lib/gitlab/quick_actions/work_item_actions.rb`), with their conditions and messages.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const DAY_MS = 86_400_000

/**
 * The due date `Chronic.parse` reads, for the forms written most: `2025-01-31`, `today`,
 * `tomorrow`, `yesterday`, `in 3 days`, `in 2 weeks`. Chosen: other natural-language dates
 * are not read (GitLab's Chronic reads more), and answer GitLab's invalid-format message.
 */
function parseDue(ctx: QuickActionContext, arg: string): string | undefined {
  const text = arg.trim().toLowerCase()
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text)
  if (iso) {
    const [y, m, d] = iso.slice(1).map(Number) as [number, number, number]
    const date = new Date(Date.UTC(y, m - 1, d))
    return date.getUTCMonth() === m - 1 && date.getUTCDate() === d
      ? date.toISOString().slice(0, 10)
      : undefined
  }
  const base = Date.parse(`${today(ctx.deps.ctx.clock)}T00:00:00Z`)
  const shift = { today: 0, tomorrow: 1, yesterday: -1 }[text]
  const within = /^in (\d+) (day|week)s?$/.exec(text)
  const days = shift ?? (within ? Number(within[1]) * (within[2] === 'week' ? 7 : 1) : undefined)
  return days === undefined ? undefined : new Date(base + days * DAY_MS).toISOString().slice(0, 10)
}

/** `strftime('%b %-d, %Y')`: `Jan 5, 2025`. */
const longDate = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return `${MONTHS[m - 1]} ${d}, ${y}`
}

/** `work_item_type.name`: `Issue`, `Incident`, `Test Case`. */
const typeName = (ctx: QuickActionContext) =>
  (ctx.issue?.issue_type ?? 'issue')
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')

export const issueActions: CommandDefinition[] = [
  {
    names: ['due'],
    takesArg: 'required',
    available: canSetMetadata,
    run(ctx, arg) {
      const due = arg === undefined ? undefined : parseDue(ctx, arg)
      if (due) ctx.updates.due_date = due
      else ctx.messages.set('due', 'Failed to set due date because the date format is invalid.')
    },
    message(ctx, arg) {
      const due = arg === undefined ? undefined : parseDue(ctx, arg)
      return due ? `Set the due date to ${longDate(due)}.` : undefined
    },
  },
  {
    names: ['remove_due_date'],
    takesArg: 'none',
    available: (ctx) => Boolean(ctx.issue?.due_date) && canSetMetadata(ctx),
    run: (ctx) => void (ctx.updates.due_date = null),
    message: () => 'Removed the due date.',
  },
  {
    // `mark_as_duplicate`: the canonical issue needs `update_issue` here and `create_note` there.
    names: ['duplicate'],
    takesArg: 'required',
    available: (ctx) => ctx.issue !== null && canSetMetadata(ctx),
    run(ctx, arg) {
      const type = typeName(ctx)
      const found = arg === undefined ? undefined : findIssue(ctx, arg)
      const { access, instance } = ctx.deps.ctx
      let message: string
      if (!found)
        message = `Failed to mark this ${type} as a duplicate because referenced item was not found.`
      else if (found.issue.id === ctx.issue?.id)
        message = `Failed to mark the ${type} as duplicate of itself.`
      else if (
        !canUpdate(ctx) ||
        (found.issue.discussion_locked === 1 &&
          !ctx.actor.admin &&
          access.projectLevel(ctx.actor, found.project) < Level.guest)
      )
        message = `Failed to mark this ${type} as duplicate due to insufficient permissions.`
      else {
        ctx.updates.canonical_issue_id = found.issue.id
        const url = `${instance.baseUrl}/${found.project.full_path}/-/issues/${found.issue.iid}`
        message = `Closed this ${type}. Marked as related to, and a duplicate of, ${url}.`
      }
      ctx.messages.set('duplicate', message)
    },
  },
  {
    // `move_issue` (`app/policies/issue_policy.rb`): `admin_issue` on a type that can move.
    names: ['move'],
    takesArg: 'required',
    available: (ctx) => ctx.issue !== null && MOVABLE.has(ctx.issue.issue_type) && canAdmin(ctx),
    run(ctx, path) {
      const { store, access } = ctx.deps.ctx
      const target = path === undefined ? undefined : store.projects.byPath(path.trim())
      let message: string
      if (!target)
        message = "Unable to move. Target project or group doesn't exist or doesn't support this item type."
      else if (access.canReadProject(ctx.actor, target) && access.atLeast(ctx.actor, target, Level.planner)) {
        ctx.updates.target_container = target
        message = `Moved this item to ${path}.`
      } else message = 'Unable to move. Insufficient permissions.'
      ctx.messages.set('move', message)
    },
  },
  {
    // Not an incident yet, and `set_issue_metadata`; a new issue only from 15.8 (`persisted?` before).
    // Chosen: tasks and test cases are left out (`set_task_metadata`/`set_test_case_metadata`, and a
    // task's type does not change by edit here).
    names: ['promote_to_incident'],
    since: 'promoteToIncident',
    takesArg: 'none',
    available: (ctx) =>
      (ctx.issue
        ? ctx.issue.issue_type === 'issue'
        : applies(ctx.deps.ctx.instance.version, 'promoteToIncidentOnCreate')) && canSetMetadata(ctx),
    run: (ctx) => void (ctx.updates.issue_type = 'incident'),
    message: () => 'Issue has been promoted to incident',
  },
  {
    // `types WorkItem`: never available on an issue, so GitLab answers "Could not apply type command.".
    names: ['type'],
    takesArg: 'required',
    available: () => false,
    run: () => undefined,
  },
]
