import type { CommandDefinition, QuickActionContext } from './definition.js'
import { pluralize } from './definition.js'
import { canSetMetadata, canUpdate } from './permissions.js'
import { findLabels, labelReference } from './references.js'

/*
 * The commands of every issuable (`lib/gitlab/quick_actions/issuable_actions.rb`), with their
 * conditions and execution messages. Not here: `/done` and `/award` (`/react`), which need
 * to-do and emoji writes this server does not have, so they stay text; `/shrug` and
 * `/tableflip`, which are substitutions.
 */

const persisted = (ctx: QuickActionContext) => ctx.issue !== null
const hasLabels = (ctx: QuickActionContext) =>
  ctx.issue !== null && ctx.deps.ctx.store.labels.ofIssues([ctx.issue.id]).length > 0
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
    available: (ctx) =>
      persisted(ctx) &&
      ctx.actor.id !== null &&
      !ctx.deps.ctx.store.todos.pending(ctx.actor.id, (ctx.issue as { id: number }).id),
    run: (ctx) => void (ctx.updates.todo_event = 'add'),
    message: () => 'Added a to-do item.',
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
    // Only incidents support a severity (`supports_severity?`); on an issue GitLab answers
    // "Could not apply severity command.". Chosen: incidents answer the same here, as this
    // server's store cannot change a severity yet (GitLab: "Severity updated to Critical." and
    // the note "changed the severity to **Critical - S1**", `SystemNotes::IncidentService`).
    names: ['severity'],
    takesArg: 'required',
    available: (ctx) => ctx.issue === null,
    run: () => undefined,
  },
  {
    names: ['confidential'],
    takesArg: 'none',
    available: (ctx) => ctx.issue?.confidential !== 1 && canSetMetadata(ctx),
    run: (ctx) => void (ctx.updates.confidential = true),
    message: () => 'Made this issue confidential.',
  },
]
