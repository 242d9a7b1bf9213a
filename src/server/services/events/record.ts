import { isoNow } from '../../domain/clock.js'
import { EVENT_ACTIONS, type EventAction } from '../../domain/event-actions.js'
import type { CommitNoteRow } from '../../store/commit-notes.js'
import type { IssueRow } from '../../store/issues.js'
import type { MilestoneRow } from '../../store/milestones.js'
import type { NoteRow } from '../../store/notes.js'
import type { ServiceContext } from '../context.js'
import { pushedCommits } from '../hooks/push-events.js'
import { BLANK_SHA, type PushEvent } from '../repository/core.js'

/** `PushEventPayloadService#commit_title`: the newest commit's first line, stripped, at most 70 characters. */
function commitTitle(message: string | undefined): string | null {
  if (message === undefined) return null
  const end = message.indexOf('\n')
  const line = (end === -1 ? message : message.slice(0, end + 1)).trim()
  // ActiveSupport's `truncate(70)`: 67 characters (not UTF-16 units) and `...`.
  const chars = [...line]
  return chars.length > 70 ? `${chars.slice(0, 67).join('')}...` : line
}

/**
 * Records events where GitLab's `EventCreateService` does: a project created, an issue opened, closed
 * or reopened, a comment on an issue or a commit (`Notes::PostProcessService`, never for system notes), a project milestone
 * opened, closed, reopened or destroyed, a member joining or leaving a project (`ProjectMember`'s
 * hooks: the member is the author) and each ref a push moves (`Git::BaseHooksService#create_events`).
 */
export function eventRecorder(ctx: ServiceContext) {
  const { store, clock } = ctx
  const add = (
    projectId: number,
    authorId: number,
    action: EventAction,
    target: { type: string; id: number } | null = null,
  ) => ({
    project_id: projectId,
    author_id: authorId,
    action: EVENT_ACTIONS[action],
    target_type: target?.type ?? null,
    target_id: target?.id ?? null,
    created_at: isoNow(clock),
  })
  return {
    /** `create_project`: no target. */
    project(authorId: number, projectId: number): void {
      store.events.insert(add(projectId, authorId, 'created'))
    },
    /**
     * `open_issue`, `close_issue`, `reopen_issue`: told to the caches as a write to the project that
     * changes none of its issues, so that no kept list, count or issue record is dropped for it.
     */
    issue(
      authorId: number,
      issue: Pick<IssueRow, 'id' | 'project_id'>,
      action: 'created' | 'closed' | 'reopened',
    ): void {
      store.changes.issueWrite({ projectId: issue.project_id, issues: [], onlyColumns: [] }, () =>
        store.events.insert(add(issue.project_id, authorId, action, { type: 'Issue', id: issue.id })),
      )
    },
    /**
     * `leave_note`: by the note's author, its target the note (a thread's: `DiscussionNote`); told to
     * the caches as `issue` events are.
     */
    note(note: NoteRow, projectId: number): void {
      if (note.system === 1) return
      store.changes.issueWrite({ projectId, issues: [], onlyColumns: [] }, () =>
        store.events.insert(
          add(projectId, note.author_id, 'commented', { type: note.type ?? 'Note', id: note.id }),
        ),
      )
    },
    /** `leave_note` of a comment on a commit: `Note`, or `LegacyDiffNote` on a line (stored as ours, events.ts). */
    commitNote(note: CommitNoteRow): void {
      const type = note.line === null ? 'CommitNote' : 'CommitLegacyDiffNote'
      store.events.insert(add(note.project_id, note.author_id, 'commented', { type, id: note.id }))
    },
    /** `open_milestone`, `close_milestone`, `reopen_milestone`, `destroy_milestone`: project milestones only. */
    milestone(
      authorId: number,
      m: MilestoneRow,
      action: 'created' | 'closed' | 'reopened' | 'destroyed',
    ): void {
      if (m.project_id === null) return
      store.events.insert(add(m.project_id, authorId, action, { type: 'Milestone', id: m.id }))
    },
    /** `join_source`, `leave_project`, `expired_leave_project`: the member is the author. */
    membership(userId: number, projectId: number, action: 'joined' | 'left' | 'expired'): void {
      store.events.insert(add(projectId, userId, action))
    },
    /** `PushEventPayloadService`: one event per ref moved, with what the push did. */
    push(event: PushEvent): void {
      const created = event.before === BLANK_SHA
      const removed = event.after === BLANK_SHA
      const { newest, total } = pushedCommits(ctx, event)
      const tagObject =
        event.kind === 'tag' && !removed ? store.repository.tagObject(event.project.id, event.ref) : undefined
      store.events.insertPush(add(event.project.id, event.user.id, 'pushed'), {
        commit_count: total,
        action: created ? 'created' : removed ? 'removed' : 'pushed',
        ref_type: event.kind === 'tag' ? 'tag' : 'branch',
        commit_from: created ? null : event.before,
        commit_to: removed ? null : (tagObject ?? event.after),
        ref: event.ref,
        commit_title: commitTitle(newest[0]?.message),
      })
    },
  }
}
export type EventRecorder = ReturnType<typeof eventRecorder>
