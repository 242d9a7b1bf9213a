import type { CommandDefinition, QuickActionContext } from './definition.js'
import { pluralize } from './definition.js'
import { emojiName } from './emoji.js'
import { canSetMetadata, canUpdate } from './permissions.js'
import { findLabels, labelReference } from './references.js'
import { findSeverity } from './severity.js'

/*
 * The commands of every issuable (`lib/gitlab/quick_actions/issuable_actions.rb`), with their
 * conditions and execution messages. Not here: `/shrug` and `/tableflip`, which are substitutions.
 */

const persisted = (ctx: QuickActionContext) => ctx.issue !== null
const hasLabels = (ctx: QuickActionContext) =>
  ctx.issue !== null && ctx.deps.ctx.store.labels.ofIssues([ctx.issue.id]).length > 0
const hasPendingTodo = (ctx: QuickActionContext) =>
  ctx.issue !== null &&
  ctx.actor.id !== null &&
  ctx.deps.ctx.store.todos.pending(ctx.actor.id, ctx.issue.id) !== undefined
const isSubscribed = (ctx: QuickActionContext) =>
  ctx.issue !== null &&
  ctx.actor.id !== null &&
  ctx.deps.ctx.store.issues.subscription(ctx.issue.id, ctx.actor.id)?.subscribed === 1

/** `run_label_command`: adds the found labels' ids under `key`, with GitLab's message. */
function labelCommand(ctx: QuickActionContext, arg: string | undefined, key: 'add_label_ids' | 'label_ids') {
  const labels = findLabels(ctx, arg)
  if (labels.length === 0) return
  ctx.updates[key] = [...new Set([...(ctx.updates[key] ?? []), ...labels.map((l) => l.id)])]
  const refs = labels.map(labelReference).join(' ')
  const noun = pluralize('label', labels.length)
  ctx.messages.set(
    key === 'label_ids' ? 'relabel' : 'label',
    key === 'label_ids' ? `Replaced all labels with ${refs} ${noun}.` : `Added ${refs} ${noun}.`,
  )
}

export const issuableActions: CommandDefinition[] = [
  {
    names: ['close'],
    takesArg: 'none',
    available: (ctx) => ctx.issue?.state === 'opened' && canUpdate(ctx),
    run: (ctx) => void (ctx.updates.state_event = 'close'),
    message: () => 'Closed this issue.',
  },
  {
    names: ['reopen'],
    takesArg: 'none',
    available: (ctx) => ctx.issue?.state === 'closed' && canUpdate(ctx),
    run: (ctx) => void (ctx.updates.state_event = 'reopen'),
    message: () => 'Reopened this issue.',
  },
  {
    names: ['title'],
    takesArg: 'required',
    available: canUpdate,
    run: (ctx, title) => void (ctx.updates.title = title),
    message: (_ctx, title) => (title === undefined ? undefined : `Changed the title to "${title}".`),
  },
  {
    names: ['label', 'labels'],
    takesArg: 'required',
    available: (ctx) => canSetMetadata(ctx) && findLabels(ctx).length > 0,
    run: (ctx, arg) => labelCommand(ctx, arg, 'add_label_ids'),
  },
  {
    names: ['unlabel', 'remove_label'],
    takesArg: 'optional',
    available: (ctx) => hasLabels(ctx) && canSetMetadata(ctx),
    run(ctx, arg) {
      if (arg === undefined) {
        ctx.updates.label_ids = []
        ctx.messages.set('unlabel', 'Removed all labels.')
        return
      }
      const labels = findLabels(ctx, arg)
      if (labels.length > 0)
        ctx.updates.remove_label_ids = [
          ...new Set([...(ctx.updates.remove_label_ids ?? []), ...labels.map((l) => l.id)]),
        ]
      ctx.messages.set(
        'unlabel',
        labels.length > 0
          ? `Removed ${labels.map(labelReference).join(' ')} ${pluralize('label', labels.length)}.`
          : 'Removed all labels.',
      )
    },
  },
  {
    names: ['relabel'],
    takesArg: 'required',
    available: (ctx) => hasLabels(ctx) && canSetMetadata(ctx),
    run: (ctx, arg) => labelCommand(ctx, arg, 'label_ids'),
  },
  {
    names: ['todo'],
    takesArg: 'none',
    available: (ctx) => persisted(ctx) && ctx.actor.id !== null && !hasPendingTodo(ctx),
    run: (ctx) => void (ctx.updates.todo_event = 'add'),
    message: () => 'Added a to-do item.',
  },
  {
    // `TodoService#todo_exist?`: the caller has a pending to-do on the issue.
    names: ['done'],
    takesArg: 'none',
    available: hasPendingTodo,
    run: (ctx) => void (ctx.updates.todo_event = 'done'),
    message: () => 'Marked to-do item as done.',
  },
  {
    names: ['subscribe'],
    takesArg: 'none',
    available: (ctx) => persisted(ctx) && !isSubscribed(ctx),
    run: (ctx) => void (ctx.updates.subscription_event = 'subscribe'),
    message: () => 'Subscribed to notifications.',
  },
  {
    names: ['unsubscribe'],
    takesArg: 'none',
    available: isSubscribed,
    run: (ctx) => void (ctx.updates.subscription_event = 'unsubscribe'),
    message: () => 'Unsubscribed from notifications.',
  },
  {
    // `user_can_award?` (`award_emoji`: anyone who can read the issue and comment); an unknown
    // name runs nothing and says nothing. The message names the emoji as written.
    names: ['react', 'award'],
    takesArg: 'required',
    available: persisted,
    run(ctx, arg) {
      const name = arg === undefined ? undefined : emojiName(arg)
      const issue = ctx.issue
      if (
        name &&
        issue &&
        ctx.actor.id !== null &&
        ctx.deps.issues.canReadIssue(ctx.actor, ctx.project, issue)
      )
        ctx.updates.emoji_award = name
    },
    message(_ctx, arg) {
      const name = arg === undefined ? undefined : emojiName(arg)
      return name ? `Toggled :${name}: emoji reaction.` : undefined
    },
  },
  {
    // Only incidents support a severity (`supports_severity?`); on an issue GitLab answers
    // "Could not apply severity command.". A new issue may take one (applied if it is an incident).
    names: ['severity'],
    takesArg: 'required',
    available: (ctx) => ctx.issue === null || ctx.issue.issue_type === 'incident',
    run(ctx, arg) {
      const severity = arg === undefined ? undefined : findSeverity(arg)
      if (!severity) {
        if (ctx.issue) ctx.messages.set('severity', 'No severity matches the provided parameter')
        return
      }
      ctx.updates.severity = severity
      const capitalized = severity.charAt(0).toUpperCase() + severity.slice(1)
      ctx.messages.set('severity', `Severity updated to ${capitalized}.`)
    },
  },
  {
    names: ['confidential'],
    takesArg: 'none',
    available: (ctx) => ctx.issue?.confidential !== 1 && canSetMetadata(ctx),
    run: (ctx) => void (ctx.updates.confidential = true),
    message: () => 'Made this issue confidential.',
  },
]
