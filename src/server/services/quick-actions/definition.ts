import type { IssueRow } from '../../store/issues.js'
import type { ReleaseRuleName } from '../../domain/releases.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import type { IssueDeps } from '../issues/lookup.js'

/**
 * The changes the commands ask for, under the names of GitLab's update parameters: the notes
 * API reports them as `commands_changes` (`Notes::CreateService#do_commands`).
 */
export interface QuickActionUpdates {
  state_event?: 'close' | 'reopen'
  title?: string
  label_ids?: number[]
  add_label_ids?: number[]
  remove_label_ids?: number[]
  assignee_ids?: number[]
  milestone_id?: number | null
  time_estimate?: number
  spend_time?: { duration: number | 'reset'; user_id: number; spent_at?: string; category?: null }
  due_date?: string | null
  discussion_locked?: boolean
  confidential?: boolean
  subscription_event?: 'subscribe' | 'unsubscribe'
  todo_event?: 'add' | 'done'
  /** `/award`: the emoji name as written, toggled for the caller. */
  emoji_award?: string
  canonical_issue_id?: number
  /** `/move`: the target project (GitLab's `target_container`; not reported in `commands_changes`). */
  target_container?: ProjectRow
  weight?: number | null
  promote_to_epic?: true
  /** `/promote_to_incident` (GitLab's `work_item_type`, which `commands_changes` does not report). */
  issue_type?: 'incident'
  /**
   * `/severity`: GitLab updates it while reading the command, so it is not in `commands_changes`;
   * lower case, one of `IssuableSeverity::SEVERITY_LABELS`.
   */
  severity?: string
}

/** What a command sees: the caller, the project, the issue (null while it is being created). */
export interface QuickActionContext {
  deps: IssueDeps
  actor: Actor
  project: ProjectRow
  issue: IssueRow | null
  updates: QuickActionUpdates
  /** Messages a command set while running (GitLab's `@execution_message`), by command name. */
  messages: Map<string, string>
}

/**
 * One command (`Gitlab::QuickActions::CommandDefinition`): its names (the first is the name,
 * the rest aliases), the condition that makes it available, and what it does. `run` gets the
 * argument when one was written; a command whose `run` takes none runs without one, one that
 * needs one (`takesArg: 'required'`) is skipped without it, as Ruby's block arity decides.
 * `message` is the execution message when `run` set none.
 */
export interface CommandDefinition {
  names: string[]
  /** The release rule from which GitLab defines the command; before it the line stays text. */
  since?: ReleaseRuleName
  takesArg: 'none' | 'optional' | 'required'
  available(ctx: QuickActionContext): boolean
  run(ctx: QuickActionContext, arg: string | undefined): void
  message?(ctx: QuickActionContext, arg: string | undefined): string | undefined
}

/** `'word'.pluralize(count)` for the regular nouns the messages use. */
export const pluralize = (word: string, count: number) => (count === 1 ? word : `${word}s`)
