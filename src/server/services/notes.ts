import type { Note, NoteCommands, NoteCreate, NoteListQuery, NoteUpdate } from '../../schema/index.js'
import { badRequest, forbidden, notFound, recordNotFound } from '../grape/gitlab-errors.js'
import { MAX_COUNT, pageOf, type Page } from '../grape/pagination.js'
import { presentNote } from '../present/notes.js'
import type { NoteFilter, NoteRow } from '../store/notes.js'
import type { IssueRow } from '../store/issues.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, requireNotArchived, writable, type Actor } from './access.js'
import { isoNow } from '../domain/clock.js'
import { canReadInternalNotes, requireUser, type IssueDeps } from './issues/lookup.js'
import { applyUpdates, commandsChanges, interpret } from './quick-actions/index.js'

export const MAX_NOTE = 1_000_000
/** The issue columns a comment's creation or deletion changes, and its edit. */
const COUNT_COLUMNS = ['user_notes_count', 'updated_at'] as const
const EDIT_COLUMNS = ['updated_at'] as const

/** Rails' `errors.messages` inspected by Ruby 3.x, as `bad_request!("Note #{...}")` prints it. */
export const noteError = (text: string) => badRequest(`Note {:note=>[${JSON.stringify(text)}]}`)

export interface NotePage {
  notes: Note[]
  page: Page
  /** Notes shown, up to MAX_COUNT + 1. */
  total: number
  /** Past MAX_COUNT: whether a page follows this one. */
  hasMore: boolean
}

/** Issue notes and their quick actions (GitLab's doc/api/issues.md). */
export function noteService(deps: IssueDeps) {
  const { store, access, instance } = deps.ctx
  const canReadInternal = (actor: Actor, project: ProjectRow) => canReadInternalNotes(deps, actor, project)

  /** The note `noteId` of the issue (`noteable.notes.find`: `404 Not found` for another issue's). */
  const findNote = (actor: Actor, project: ProjectRow, iid: number, noteId: number) => {
    requireUser(actor)
    const issue = deps.issues.findIssue(actor, project, iid)
    const note = store.notes.get(noteId)
    if (!note || note.issue_id !== issue.id) throw recordNotFound()
    return { issue, note }
  }

  /**
   * GitLab's `admin_note` (`app/policies/note_policy.rb`): never on a system note (`~editable`
   * prevents it) nor in an archived project, else its author, or a Maintainer of the project
   * (`ProjectPolicy`) or an administrator; an internal note only for those who may read it.
   * 403 `403 Forbidden` otherwise.
   */
  const requireAdminNote = (actor: Actor, project: ProjectRow, note: NoteRow) => {
    const mayRead = note.internal === 0 || canReadInternal(actor, project)
    const mayAdmin = note.author_id === actor.id || access.atLeast(actor, project, Level.maintainer)
    if (note.system === 1 || !writable(project) || !mayRead || !mayAdmin) throw forbidden()
  }

  const present = (note: NoteRow, issue: IssueRow) =>
    presentNote(instance, note, issue, store.users.get(note.author_id))

  /**
   * A comment's write in one transaction, told to the caches as a write to its issue alone (its
   * notes, its subscriptions, the project's `touch` and these columns): the kept lists and counts of
   * other issues and projects stay. Unsaid, any write counts as a change to everything.
   */
  const noteWrite = <T>(issue: IssueRow, columns: readonly string[], fn: () => T): T =>
    store.changes.issueWrite({ projectId: issue.project_id, issues: [issue.id], onlyColumns: columns }, () =>
      store.transaction(fn),
    )

  /** A page of an issue's notes as `actor` may read them (see `list`). */
  const readable = (actor: Actor, project: ProjectRow, iid: number, q: NoteListQuery): NotePage => {
    const row = deps.issues.findIssue(actor, project, iid)
    const filter: NoteFilter = {
      orderBy: q.order_by ?? 'created_at',
      desc: q.sort !== 'asc',
      withInternal: canReadInternal(actor, project),
      system:
        q.activity_filter === 'only_comments' ? 0 : q.activity_filter === 'only_activity' ? 1 : undefined,
    }
    const page = pageOf(q)
    // One page read, never the whole list (an import can give an issue a million notes); past
    // MAX_COUNT nothing is counted, and one row more tells whether a next page exists.
    const total = store.notes.count(row.id, filter, MAX_COUNT)
    const uncounted = total > MAX_COUNT
    const rows = store.notes.page(row.id, filter, page.perPage + (uncounted ? 1 : 0), page.offset)
    const shown = rows.slice(0, page.perPage)
    // Each author of the page read once.
    const authors = new Map(shown.map((n) => [n.author_id, store.users.get(n.author_id)]))
    const notes = shown.map((n) => presentNote(instance, n, row, authors.get(n.author_id)))
    return { notes, page, total, hasMore: uncounted && rows.length > page.perPage }
  }

  return {
    /**
     * `GET .../notes/:note_id` (`get_note`): `404 Note Not Found` for an internal note the caller
     * may not read (`note.readable_by?`).
     */
    get(actor: Actor, project: ProjectRow, iid: number, noteId: number): Note {
      const { issue, note } = findNote(actor, project, iid, noteId)
      if (note.internal === 1 && !canReadInternal(actor, project)) throw notFound('Note')
      return present(note, issue)
    },

    /**
     * `PUT .../notes/:note_id` (`update_note`, `Notes::UpdateService`): `admin_note` first, then the
     * new body, checked as a new one is (400 `Note {...}`); no `body` leaves the note as it was.
     * The edit touches the issue, as the note's save does. Chosen: quick actions in an edited body
     * are kept as text, not run.
     */
    update(actor: Actor, project: ProjectRow, iid: number, noteId: number, input: NoteUpdate): Note {
      const { issue, note } = findNote(actor, project, iid, noteId)
      requireAdminNote(actor, project, note)
      if (input.body === undefined || input.body === note.body) return present(note, issue)
      if (input.body.trim() === '') throw noteError("can't be blank")
      if ([...input.body].length > MAX_NOTE)
        throw noteError(`is too long (maximum is ${MAX_NOTE} characters)`)
      const now = isoNow(deps.ctx.clock)
      noteWrite(issue, EDIT_COLUMNS, () => {
        store.notes.setBody(note.id, input.body as string, now)
        store.issues.update(issue.id, { updated_at: now })
      })
      return present(store.notes.get(note.id) as NoteRow, issue)
    },

    /** `DELETE .../notes/:note_id` (`delete_note`): `admin_note`, then 204; the issue's `user_notes_count` drops. */
    remove(actor: Actor, project: ProjectRow, iid: number, noteId: number): void {
      const { issue, note } = findNote(actor, project, iid, noteId)
      requireAdminNote(actor, project, note)
      noteWrite(issue, COUNT_COLUMNS, () => store.notes.remove(note))
    },

    /**
     * `GET .../notes`: signed-in callers only (the notes API authenticates every request), system
     * notes included, internal notes only for Planner and up; `order_by` created_at (default) or
     * updated_at, `sort` desc (default) or asc, GitLab's `activity_filter`.
     */
    list(actor: Actor, project: ProjectRow, iid: number, q: NoteListQuery): NotePage {
      requireUser(actor)
      return readable(actor, project, iid, q)
    },

    /**
     * As `list`, for anonymous visitors too: GitLab's issue page shows the notes of an issue to
     * whoever may read it (`Projects::NotesController`), where the notes API wants a user.
     */
    listForPage: (actor: Actor, project: ProjectRow, iid: number, q: NoteListQuery): NotePage =>
      readable(actor, project, iid, q),

    /**
     * `POST .../notes` (`lib/api/notes.rb`, `Notes::CreateService`): `create_note` (403 in an archived
     * project), then the body is checked as written
     * (blank or over-long: 400 `400 Bad request - Note {...}`; a locked discussion is 403 for
     * non-members), then its quick actions are read: the note keeps the rest of the text, 201,
     * with the commands' `commands_changes`. A body made only of commands makes no note: 202 with
     * `commands_changes` and `summary` (the execution messages, one string), or 400
     * `400 Bad request - Failed to apply commands.` when they have nothing to say.
     * Chosen: `internal` from a caller below Planner is ignored, not refused.
     */
    create(
      actor: Actor,
      project: ProjectRow,
      iid: number,
      input: NoteCreate,
      /** The thread the note starts or joins (the discussions API). */
      thread?: { discussionId: string; convert?: NoteRow },
    ): Note | NoteCommands {
      const user = requireUser(actor)
      const row = deps.issues.findIssue(actor, project, iid)
      requireNotArchived(project)
      if (row.discussion_locked === 1 && !actor.admin && access.projectLevel(actor, project) < Level.guest)
        throw forbidden()
      if (input.body.trim() === '') throw noteError("can't be blank")
      if ([...input.body].length > MAX_NOTE)
        throw noteError(`is too long (maximum is ${MAX_NOTE} characters)`)
      const commands = interpret(deps, actor, project, row, input.body)
      const onlyCommands = commands.content === ''
      const changes = commandsChanges(commands.updates)
      const now = isoNow(deps.ctx.clock)
      const createdAt =
        input.created_at && access.atLeast(actor, project, Level.owner) ? input.created_at : now
      // Quick actions may reach any issue (a move, a duplicate's close): then a change to everything.
      const write = <T>(fn: () => T) =>
        commands.executed > 0 ? store.transaction(fn) : noteWrite(row, COUNT_COLUMNS, fn)
      return write(() => {
        const id = onlyCommands
          ? undefined
          : store.notes.insert({
              issue_id: row.id,
              author_id: user.id,
              body: commands.content,
              system: 0,
              internal: (input.internal ?? input.confidential) && canReadInternal(actor, project) ? 1 : 0,
              created_at: createdAt,
              updated_at: createdAt,
              ...(thread ? { discussion_id: thread.discussionId } : {}),
            })
        // A reply to an individual note makes it the first note of a thread (`convert_to_discussion!`).
        if (id !== undefined && thread?.convert)
          store.notes.joinThread(thread.convert.id, thread.discussionId)
        if (id !== undefined) {
          // Commenters become participants: subscribed unless they chose otherwise.
          if (!store.issues.subscription(row.id, user.id)) store.issues.setSubscription(row.id, user.id, true)
          store.issues.update(row.id, { updated_at: now })
          store.projects.touch(project.id, now)
        }
        if (commands.executed > 0) applyUpdates(deps, actor, project, row, commands.updates)
        if (onlyCommands) {
          if (commands.message.trim() === '') throw badRequest('Failed to apply commands.')
          return { commands_changes: changes, summary: [commands.message] }
        }
        const note = store.notes.get(id as number)
        if (!note) throw new Error('note vanished')
        return presentNote(
          instance,
          note,
          store.issues.get(row.id) ?? row,
          store.users.get(note.author_id),
          changes,
        )
      })
    },
  }
}
export type NoteService = ReturnType<typeof noteService>
