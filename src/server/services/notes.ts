import type { Note, NoteCommands, NoteCreate, NoteListQuery } from '../../schema/index.js'
import { badRequest, forbidden } from '../gitlab-errors.js'
import { pageOf, type Page } from '../pagination.js'
import { presentNote } from '../present/notes.js'
import type { IssueRow } from '../store/issues.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import { isoNow } from './context.js'
import { canAdminIssues, canReadInternalNotes, requireUser, type IssueDeps } from './issue-lookup.js'
import { addSystemNote } from './system-notes.js'

const MAX_NOTE = 1_000_000
/** `/promote` at the start of a line; arguments after it are ignored, as for every argument-less command. */
const PROMOTE = /^\/promote(?:[ \t][^\n]*)?$/

/** Rails' `errors.messages` inspected by Ruby 3.x, as `bad_request!("Note #{...}")` prints it. */
const noteError = (text: string) => badRequest(`Note {:note=>[${JSON.stringify(text)}]}`)

/** Lines of a note outside code fences that are a `/promote` command, and the text without them. */
function extractPromote(body: string): { found: boolean; rest: string } {
  let fenced = false
  let found = false
  const kept: string[] = []
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (!fenced && PROMOTE.test(line)) found = true
    else kept.push(line)
  }
  return { found, rest: kept.join('\n').trim() }
}

export interface NotePage {
  notes: Note[]
  page: Page
  total: number
}

/** Issue notes and the `/promote` quick action (spec 4.3, reference §8.3). */
export function noteService(deps: IssueDeps) {
  const { store, access, instance } = deps.ctx
  const canReadInternal = (actor: Actor, project: ProjectRow) => canReadInternalNotes(deps, actor, project)

  /** GitLab's `/promote` condition: EE, a group project, an unpromoted issue, `admin_issue` and `create_epic`. */
  function canPromote(actor: Actor, project: ProjectRow, row: IssueRow) {
    const group = store.namespaces.get(project.namespace_id)
    return (
      instance.edition === 'ee' &&
      group?.kind === 'group' &&
      row.issue_type === 'issue' &&
      store.issueMoves.promotedTo(row.id) === null &&
      canAdminIssues(deps, actor, project) &&
      (actor.admin || access.groupLevel(actor, group) >= Level.planner)
    )
  }

  /** Creates the epic, closes the issue and leaves GitLab's system note on it. */
  function promote(actor: Actor, project: ProjectRow, row: IssueRow, now: string) {
    const epicId = store.epics.insert(
      project.namespace_id,
      row.title,
      row.description,
      actor.id as number,
      now,
    )
    const epic = store.epics.get(epicId)
    store.issueMoves.setPromoted(row.id, epicId)
    store.issues.update(row.id, {
      updated_at: now,
      ...(row.state === 'opened' ? { state: 'closed', closed_at: now, closed_by_id: actor.id } : {}),
    })
    addSystemNote(store, row.id, actor.id as number, `promoted to epic &${epic?.iid ?? epicId}`, now)
  }

  return {
    /**
     * `GET .../notes`: signed-in callers only (the notes API authenticates every request), system
     * notes included, internal notes only for Planner and up; `order_by` created_at (default) or
     * updated_at, `sort` desc (default) or asc, GitLab's `activity_filter`.
     */
    list(actor: Actor, project: ProjectRow, iid: number, q: NoteListQuery): NotePage {
      requireUser(actor)
      const row = deps.issues.findIssue(actor, project, iid)
      const internal = canReadInternal(actor, project)
      const key = q.order_by ?? 'created_at'
      const dir = q.sort === 'asc' ? 1 : -1
      const rows = store.notes
        .ofIssue(row.id)
        .filter((n) => internal || n.internal === 0)
        .filter((n) =>
          q.activity_filter === 'only_comments'
            ? n.system === 0
            : q.activity_filter === 'only_activity'
              ? n.system === 1
              : true,
        )
        .sort((a, b) => dir * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id))
      const page = pageOf(q)
      const notes = rows
        .slice(page.offset, page.offset + page.perPage)
        .map((n) => presentNote(store, instance, n, row))
      return { notes, page, total: rows.length }
    },

    /**
     * `POST .../notes`: 201 with the note; a body that is only `/promote` (when the caller may
     * promote) is 202 with the command's changes and no note. Blank or over-long bodies are 400
     * `400 Bad request - Note {...}`; a locked discussion is 403 for non-members. Without the right
     * to promote (or on CE) `/promote` stays in the text, as GitLab leaves unavailable commands.
     * Chosen: `internal` from a caller below Planner is ignored, not refused.
     */
    create(actor: Actor, project: ProjectRow, iid: number, input: NoteCreate): Note | NoteCommands {
      const user = requireUser(actor)
      const row = deps.issues.findIssue(actor, project, iid)
      if (row.discussion_locked === 1 && !actor.admin && access.projectLevel(actor, project) < Level.guest)
        throw forbidden()
      const command = canPromote(actor, project, row)
        ? extractPromote(input.body)
        : { found: false, rest: '' }
      const body = command.found ? command.rest : input.body
      if (!command.found && body.trim() === '') throw noteError("can't be blank")
      if ([...body].length > MAX_NOTE) throw noteError(`is too long (maximum is ${MAX_NOTE} characters)`)
      const now = isoNow(deps.ctx.clock)
      const createdAt =
        input.created_at && access.atLeast(actor, project, Level.owner) ? input.created_at : now
      return store.transaction(() => {
        if (command.found) promote(actor, project, row, now)
        if (command.found && body === '')
          return { commands_changes: { promote_to_epic: true }, summary: ['Promoted issue to an epic.'] }
        const id = store.notes.insert({
          issue_id: row.id,
          author_id: user.id,
          body,
          system: 0,
          internal: (input.internal ?? input.confidential) && canReadInternal(actor, project) ? 1 : 0,
          created_at: createdAt,
          updated_at: createdAt,
        })
        // Commenters become participants: subscribed unless they chose otherwise.
        if (!store.issues.subscription(row.id, user.id)) store.issues.setSubscription(row.id, user.id, true)
        store.issues.update(row.id, { updated_at: now })
        store.projects.touch(project.id, now)
        const note = store.notes.get(id)
        if (!note) throw new Error('note vanished')
        return presentNote(store, instance, note, row, command.found ? { promote_to_epic: true } : {})
      })
    },
  }
}
export type NoteService = ReturnType<typeof noteService>
