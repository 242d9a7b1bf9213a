import type { IssueUpdate } from '../../../schema/index.js'
import type { IssueRow } from '../../store/issues.js'
import type { ProjectRow } from '../../store/projects.js'
import type { Actor } from '../access.js'
import { isoNow } from '../../domain/clock.js'
import type { IssueDeps } from '../issues/lookup.js'
import { writeIssueLink } from '../issues/links.js'
import { issueMoveService, issueReference } from '../issues/moves.js'
import { addSystemNote } from '../system-notes.js'
import { timeTrackingService } from '../time-tracking.js'
import { todoService } from '../todos.js'
import type { QuickActionUpdates } from './definition.js'
import { normalizeEmojiName } from './emoji.js'
import { changeSeverity } from './severity.js'

/*
 * Carries out the commands' changes through the services of the equivalent API calls, so each
 * has the same effect, system notes and checks: severity, the issue edit, time tracking,
 * subscriptions, to-dos, award emoji, the move, and EE's promotion
 * (`Notes::QuickActionsService#apply_updates`, which hands them to `Issues::UpdateService`).
 */

/** The parameters of the issue edit (`PUT .../issues/:iid`) the changes amount to. */
export function issueEditOf(deps: IssueDeps, project: ProjectRow, updates: QuickActionUpdates): IssueUpdate {
  const { store } = deps.ctx
  const titles = (ids: number[] | undefined) =>
    ids?.map((id) => store.labels.available(project).find((l) => l.id === id)?.title ?? '')
  const edit: IssueUpdate = {}
  if (updates.state_event) edit.state_event = updates.state_event
  if (updates.title !== undefined) edit.title = updates.title
  if (updates.label_ids) edit.labels = titles(updates.label_ids)
  if (updates.add_label_ids) edit.add_labels = titles(updates.add_label_ids)
  if (updates.remove_label_ids) edit.remove_labels = titles(updates.remove_label_ids)
  if (updates.assignee_ids) edit.assignee_ids = updates.assignee_ids
  if (updates.milestone_id !== undefined) edit.milestone_id = updates.milestone_id ?? 0
  if (updates.due_date !== undefined) edit.due_date = updates.due_date ?? ''
  if (updates.discussion_locked !== undefined) edit.discussion_locked = updates.discussion_locked
  if (updates.confidential !== undefined) edit.confidential = updates.confidential
  if (typeof updates.weight === 'number') edit.weight = updates.weight
  if (updates.issue_type) edit.issue_type = updates.issue_type
  return edit
}

/** `Epics::IssuePromoteService`: the epic, the issue closed, GitLab's system note on it. */
function promote(deps: IssueDeps, actor: Actor, project: ProjectRow, row: IssueRow, now: string) {
  const { store } = deps.ctx
  const epicId = store.epics.insert(project.namespace_id, row.title, row.description, actor.id as number, now)
  const epic = store.epics.get(epicId)
  store.issueMoves.setPromoted(row.id, epicId)
  store.issues.update(row.id, {
    updated_at: now,
    ...(row.state === 'opened' ? { state: 'closed', closed_at: now, closed_by_id: actor.id } : {}),
  })
  if (row.state === 'opened') store.resourceEvents.record(row.id, actor.id, { state: 'closed' }, now)
  addSystemNote(store, row.id, actor.id as number, `promoted to epic &${epic?.iid ?? epicId}`, now)
}

/**
 * `Issues::DuplicateService` (`app/services/issues/duplicate_service.rb`): notes on both issues
 * ("marked #2 as a duplicate of this issue", "marked this issue as a duplicate of #1"), the
 * duplicate closed (by the caller's edit) and linked to its canonical issue (`duplicated_to`),
 * then the two related (`IssueLinks::CreateService`), which notes both ("marked this issue as
 * related to #1"; nothing when they are related already).
 */
function markDuplicate(
  deps: IssueDeps,
  actor: Actor,
  project: ProjectRow,
  row: IssueRow,
  canonicalId: number,
) {
  const { store } = deps.ctx
  const canonical = store.issues.get(canonicalId)
  const canonicalProject = canonical && store.projects.get(canonical.project_id)
  if (!canonical || !canonicalProject) return
  const now = isoNow(deps.ctx.clock)
  const note = (issueId: number, body: string) => addSystemNote(store, issueId, actor.id as number, body, now)
  note(canonical.id, `marked ${issueReference(row, project, canonicalProject)} as a duplicate of this issue`)
  note(row.id, `marked this issue as a duplicate of ${issueReference(canonical, canonicalProject, project)}`)
  store.issues.update(row.id, { duplicated_to_id: canonical.id })
  if (!store.issueLinks.between(row.id, canonical.id))
    writeIssueLink(
      store,
      actor.id as number,
      { row, project },
      { row: canonical, project: canonicalProject },
      'relates_to',
      now,
    )
}

/**
 * `IssuableBaseService#change_todo` (`done`: the caller's first pending to-do on the issue) and
 * `#toggle_award`: `AwardEmojis::ToggleService`, where a new award also marks the caller's
 * pending to-dos on the issue done (`TodoService#new_award_emoji`).
 */
function todosAndAwards(deps: IssueDeps, actor: Actor, row: IssueRow, updates: QuickActionUpdates) {
  const { store } = deps.ctx
  const userId = actor.id as number
  const now = isoNow(deps.ctx.clock)
  if (updates.todo_event === 'done') {
    const todo = store.todos.pending(userId, row.id)
    if (todo) store.todos.resolve(todo.id, now)
  }
  if (updates.emoji_award === undefined) return
  const added = store.awardEmoji.toggle(row.id, userId, normalizeEmojiName(updates.emoji_award), now)
  if (added) store.todos.resolveAll(userId, row.id, now)
}

/** Applies the changes to an existing issue, in `Issues::UpdateService`'s order; the move comes last. */
export function applyUpdates(
  deps: IssueDeps,
  actor: Actor,
  project: ProjectRow,
  row: IssueRow,
  updates: QuickActionUpdates,
  options: { edit: boolean } = { edit: true },
): void {
  const { store } = deps.ctx
  const current = () => store.issues.get(row.id) as IssueRow
  if (updates.severity !== undefined) changeSeverity(deps, actor, project, current(), updates.severity)
  if (updates.canonical_issue_id !== undefined) {
    markDuplicate(deps, actor, project, row, updates.canonical_issue_id)
    updates = { ...updates, state_event: 'close' }
  }
  const edit = issueEditOf(deps, project, updates)
  if (options.edit && Object.keys(edit).length > 0) deps.issues.update(actor, project, row.iid, edit)
  if (updates.weight === null) {
    const now = isoNow(deps.ctx.clock)
    if (current().weight !== null)
      store.resourceEvents.record(row.id, actor.id, { weight: { weight: null } }, now)
    store.issues.update(row.id, { weight: null, updated_at: now })
  }
  const time = timeTrackingService(deps)
  if (updates.time_estimate !== undefined) time.estimate(actor, current(), updates.time_estimate)
  const spend = updates.spend_time
  if (spend?.duration === 'reset') time.resetSpent(actor, project, row.iid)
  else if (spend) time.spend(actor, current(), spend.duration, null, spend.spent_at)
  const todos = todoService(deps)
  if (updates.subscription_event)
    todos.setSubscription(actor, project, row.iid, updates.subscription_event === 'subscribe')
  if (updates.todo_event === 'add') todos.mark(actor, project, row.iid)
  todosAndAwards(deps, actor, row, updates)
  if (updates.promote_to_epic) promote(deps, actor, project, current(), isoNow(deps.ctx.clock))
  if (updates.target_container)
    issueMoveService(deps).move(actor, project, row.iid, { to_project_id: updates.target_container.id })
}
