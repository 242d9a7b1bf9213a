import { Level } from '../access.js'
import type { CommandDefinition, QuickActionContext } from './definition.js'
import { canAdmin, canSetMetadata } from './permissions.js'
import { findUsers } from './references.js'

/*
 * EE's commands (`ee/lib/ee/gitlab/quick_actions/issue_and_merge_request_actions.rb`:
 * `/reassign`, `/weight`, `/clear_weight`; `ee/lib/ee/gitlab/quick_actions/issue_actions.rb`:
 * `/promote`). On CE they are not defined, so their lines stay text.
 */

/** `Issue#can_be_promoted_to_epic?`: a group project, an unpromoted issue, `admin_issue`, `create_epic`. */
export function canPromote(ctx: QuickActionContext): boolean {
  const { store, access } = ctx.deps.ctx
  const group = store.namespaces.get(ctx.project.namespace_id)
  return (
    ctx.issue !== null &&
    group?.kind === 'group' &&
    ctx.issue.issue_type === 'issue' &&
    store.issueMoves.promotedTo(ctx.issue.id) === null &&
    canAdmin(ctx) &&
    (ctx.actor.admin || access.groupLevel(ctx.actor, group) >= Level.planner)
  )
}

/** Ruby's `String#to_i`: the leading integer, 0 when there is none. */
const toI = (text: string) => Number(/^\s*[-+]?\d+/.exec(text)?.[0] ?? 0)

export const eeActions: CommandDefinition[] = [
  {
    names: ['reassign'],
    takesArg: 'required',
    available: (ctx) => ctx.issue !== null && canSetMetadata(ctx),
    run: (ctx, arg) => void (ctx.updates.assignee_ids = findUsers(ctx, arg).map((u) => u.id)),
    message: () => 'Changed assignee(s).',
  },
  {
    names: ['weight'],
    takesArg: 'required',
    available: canAdmin,
    run(ctx, arg) {
      const weight = toI(arg ?? '')
      if (weight < 0) return
      ctx.updates.weight = weight
      ctx.messages.set('weight', `Set weight to ${weight}.`)
    },
  },
  {
    names: ['clear_weight'],
    takesArg: 'none',
    available: (ctx) => ctx.issue !== null && ctx.issue.weight !== null && canAdmin(ctx),
    run: (ctx) => void (ctx.updates.weight = null),
    message: () => 'Cleared weight.',
  },
  {
    names: ['promote'],
    takesArg: 'none',
    available: canPromote,
    run(ctx) {
      ctx.updates.promote_to_epic = true
      ctx.messages.set(
        'promote',
        ctx.issue?.confidential === 1
          ? 'Promoted confidential issue to a non-confidential epic. Information in this issue is no longer confidential as epics are public to group members.'
          : 'Promoted issue to an epic.',
      )
    },
  },
]
