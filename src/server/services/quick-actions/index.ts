import type { IssueCreate, IssueUpdate } from '../../../schema/index.js'
import type { IssueRow } from '../../store/issues.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import type { IssueDeps } from '../issues/lookup.js'
import { applyUpdates, issueEditOf } from './apply.js'
import type { QuickActionUpdates } from './definition.js'
import { interpret } from './interpret.js'

export { applyUpdates } from './apply.js'
export { commandsChanges, interpret, type Interpretation } from './interpret.js'

/** The issue edit a description's commands merge into, and what is left for after the save. */
export interface DescriptionCommands<T> {
  input: T
  /** Commands ran: `after` may reach other issues and projects (moves, duplicates, clones). */
  executed: boolean
  /** Applies what the edit cannot carry (time tracking, subscriptions, to-dos, duplicates, moves). */
  after(row: IssueRow): void
}

const concat = (a: string[] | undefined, b: string[] | undefined) =>
  a || b ? [...(a ?? []), ...(b ?? [])] : undefined

/** Merges the commands' edit into the caller's parameters (`params.merge!(command_params)`). */
function merge<T extends IssueCreate | IssueUpdate>(
  deps: IssueDeps,
  project: ProjectRow,
  input: T,
  content: string,
  updates: QuickActionUpdates,
): T {
  const { add_labels, remove_labels, ...edit } = issueEditOf(deps, project, updates)
  const merged = { ...input, ...edit } as T
  const adds = concat(input.add_labels, add_labels)
  const removes = concat(input.remove_labels, remove_labels)
  if (adds) merged.add_labels = adds
  if (removes) merged.remove_labels = removes
  if (content !== input.description) merged.description = content
  return merged
}

/** Keeps the changes the original text did not already ask for (`execute_with_original_text`). */
function withoutOriginal(updates: QuickActionUpdates, original: QuickActionUpdates): QuickActionUpdates {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(updates))
    if (JSON.stringify(value) !== JSON.stringify(original[key as keyof QuickActionUpdates])) kept[key] = value
  return kept as QuickActionUpdates
}

/**
 * Quick actions in an issue description (`IssuableBaseService#merge_quick_actions_into_params!`):
 * on create and on an edit that sends a description, the command lines are taken out of the
 * stored text and their changes join the request's own parameters; the issue does not exist yet
 * on create, so the commands that need a saved issue are not available there.
 */
export function descriptionQuickActions(deps: IssueDeps) {
  const none = <T>(input: T): DescriptionCommands<T> => ({ input, executed: false, after: () => undefined })
  return {
    onCreate(actor: Actor, project: ProjectRow, input: IssueCreate): DescriptionCommands<IssueCreate> {
      if (input.description === undefined) return none(input)
      const { content, updates, executed } = interpret(deps, actor, project, null, input.description)
      if (executed === 0) return none(input)
      // `create` drops `state_event`; the rest waits for the saved issue.
      const { state_event: _state, ...creatable } = updates
      return {
        input: merge(deps, project, input, content, creatable),
        executed: true,
        after: (row) => applyUpdates(deps, actor, project, row, updates, { edit: false }),
      }
    },

    onUpdate(
      actor: Actor,
      project: ProjectRow,
      row: IssueRow,
      input: IssueUpdate,
    ): DescriptionCommands<IssueUpdate> {
      if (input.description === undefined) return none(input)
      const found = interpret(deps, actor, project, row, input.description)
      if (found.executed === 0) return none(input)
      const before = interpret(deps, actor, project, row, row.description ?? '').updates
      const updates = withoutOriginal(found.updates, before)
      const edit =
        updates.canonical_issue_id !== undefined ? { ...updates, state_event: 'close' as const } : updates
      return {
        input: merge(deps, project, input, found.content, edit),
        executed: true,
        after: (saved) => applyUpdates(deps, actor, project, saved, updates, { edit: false }),
      }
    },
  }
}
export type DescriptionQuickActions = ReturnType<typeof descriptionQuickActions>
