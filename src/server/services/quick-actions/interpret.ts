import { NoteCommandsChanges, type Note } from '../../../schema/index.js'
import type { IssueRow } from '../../store/issues.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import type { IssueDeps } from '../issues/lookup.js'
import { applies } from '../../domain/releases.js'
import type { CommandDefinition, QuickActionContext, QuickActionUpdates } from './definition.js'
import { eeActions } from './ee-actions.js'
import { extractCommands } from './extractor.js'
import { issuableActions } from './issuable-actions.js'
import { issueActions } from './issue-actions.js'
import { issueAndMergeRequestActions } from './issue-and-merge-request-actions.js'

/** What a text's commands come to (`QuickActions::InterpretService#execute`). */
export interface Interpretation {
  /** The text without its command lines. */
  content: string
  /** The changes asked for; nothing is applied yet. */
  updates: QuickActionUpdates
  /** The execution messages, joined by spaces (`execution_messages_for`). */
  message: string
  /** Commands found, available or not (`commands_executed_count`). */
  executed: number
}

const definitionsFor = (deps: IssueDeps): CommandDefinition[] =>
  [
    ...issueActions,
    ...issuableActions,
    ...issueAndMergeRequestActions,
    ...(deps.ctx.instance.edition === 'ee' ? eeActions : []),
  ].filter((d) => d.since === undefined || applies(deps.ctx.instance.version, d.since))

/**
 * Reads the commands of `text` for an issue (null while it is created). Every defined command
 * is taken out of the text, available or not (`Gitlab::QuickActions::Extractor` matches all
 * names): an unavailable one changes nothing and says "Could not apply X command."
 * (`CommandDefinition#execute_message`). A command given no argument runs only when it needs
 * none. Undefined commands (`/shrug`, `/weight` on CE, ...) stay in the text.
 */
export function interpret(
  deps: IssueDeps,
  actor: Actor,
  project: ProjectRow,
  issue: IssueRow | null,
  text: string,
): Interpretation {
  const definitions = definitionsFor(deps)
  const byName = new Map(definitions.flatMap((d) => d.names.map((n) => [n, d] as const)))
  const { content, commands } = extractCommands(text, [...byName.keys()])
  const ctx: QuickActionContext = { deps, actor, project, issue, updates: {}, messages: new Map() }
  const runnable = (d: CommandDefinition, arg?: string) => arg !== undefined || d.takesArg !== 'required'
  for (const { name, arg } of commands) {
    const d = byName.get(name) as CommandDefinition
    if (d.available(ctx) && runnable(d, arg)) d.run(ctx, arg)
  }
  // Ruby's `compact.join(' ')`: a command without a message block gives '', kept; a block that
  // gives nil (or does not run for want of an argument) is dropped.
  const messages = commands.map(({ name, arg }) => {
    const d = byName.get(name) as CommandDefinition
    const primary = d.names[0] as string
    if (!d.available(ctx)) return `Could not apply ${primary} command.`
    const set = ctx.messages.get(primary)
    if (set !== undefined) return set
    if (!d.message) return ''
    return runnable(d, arg) ? d.message(ctx, arg) : undefined
  })
  const message = messages.filter((m) => m !== undefined).join(' ')
  return { content, updates: ctx.updates, message, executed: commands.length }
}

/** The changes as the notes API reports them in `commands_changes`: the keys its schema names, in its order. */
export function commandsChanges(updates: QuickActionUpdates): Note['commands_changes'] {
  const changes: Record<string, unknown> = {}
  for (const key of Object.keys(NoteCommandsChanges.properties))
    if (updates[key as keyof QuickActionUpdates] !== undefined)
      changes[key] = updates[key as keyof QuickActionUpdates]
  return changes as Note['commands_changes']
}
