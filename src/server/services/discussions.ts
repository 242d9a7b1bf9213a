import { randomBytes } from 'node:crypto'
import type {
  Discussion,
  DiscussionNoteCreate,
  DiscussionNoteUpdate,
  Note,
  NoteCommands,
  PageQuery,
} from '../../schema/index.js'
import { badRequest, notFound } from '../grape/gitlab-errors.js'
import { pageOf, type Page } from '../grape/pagination.js'
import { discussionIdOf, presentNote } from '../present/notes.js'
import type { IssueRow } from '../store/issues.js'
import type { NoteRow } from '../store/notes.js'
import type { ProjectRow } from '../store/projects.js'
import { requireNotArchived, type Actor } from './access.js'
import { canReadInternalNotes, requireUser, type IssueDeps } from './issues/lookup.js'
import type { NoteService } from './notes.js'

export interface DiscussionPage {
  items: Discussion[]
  page: Page
  total: number
}

/**
 * Issue discussions (`lib/api/discussions.rb`): every call authenticates first. A thread's notes are
 * `DiscussionNote`s sharing a 40-hex id; every other note is an individual note, a discussion of its
 * own. Notes are made, edited and deleted by the note service, under the same rules.
 */
export function discussionService(deps: IssueDeps, notes: NoteService) {
  const { store, instance } = deps.ctx

  /** The issue's discussions, by id, in the order of their first notes, with the notes the caller may read. */
  const threads = (actor: Actor, project: ProjectRow, issue: IssueRow) => {
    const internal = canReadInternalNotes(deps, actor, project)
    const rows = store.notes
      .ofIssue(issue.id)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id))
    const byId = new Map<string, NoteRow[]>()
    for (const row of rows) {
      const id = discussionIdOf(row)
      const list = byId.get(id) ?? []
      if (internal || row.internal === 0) list.push(row)
      byId.set(id, list)
    }
    return byId
  }

  const present = (id: string, rows: NoteRow[], issue: IssueRow): Discussion => {
    const authors = new Map(rows.map((n) => [n.author_id, store.users.get(n.author_id)]))
    return {
      id,
      individual_note: (rows[0] as NoteRow).type == null,
      notes: rows.map((n) => presentNote(instance, n, issue, authors.get(n.author_id))),
    }
  }

  /** The readable notes of discussion `id` (`readable_discussion_notes`); `404 Discussion Not Found` when none. */
  const findThread = (actor: Actor, project: ProjectRow, iid: number, id: string) => {
    requireUser(actor)
    const issue = deps.issues.findIssue(actor, project, iid)
    const rows = threads(actor, project, issue).get(id) ?? []
    if (rows.length === 0) throw notFound('Discussion')
    return { issue, rows }
  }

  /** `GET .../discussions/:discussion_id`. */
  const getOne = (actor: Actor, project: ProjectRow, iid: number, id: string): Discussion => {
    const { issue, rows } = findThread(actor, project, iid, id)
    return present(id, rows, issue)
  }

  return {
    /** `GET .../discussions`: a page of discussion ids (all count in `X-Total`), each with its readable notes. */
    list(actor: Actor, project: ProjectRow, iid: number, q: PageQuery): DiscussionPage {
      requireUser(actor)
      const issue = deps.issues.findIssue(actor, project, iid)
      const all = [...threads(actor, project, issue)]
      const page = pageOf(q)
      const items = all
        .slice(page.offset, page.offset + page.perPage)
        .filter(([, rows]) => rows.length > 0)
        .map(([id, rows]) => present(id, rows, issue))
      return { items, page, total: all.length }
    },

    get: getOne,

    /** `POST .../discussions`: a new thread of one `DiscussionNote` (201), or 202 for quick actions only. */
    create(
      actor: Actor,
      project: ProjectRow,
      iid: number,
      input: DiscussionNoteCreate,
    ): Discussion | NoteCommands {
      requireUser(actor)
      const id = randomBytes(20).toString('hex')
      const made = notes.create(actor, project, iid, input, { discussionId: id })
      if (!('id' in made)) return made
      return getOne(actor, project, iid, id)
    },

    /**
     * `POST .../discussions/:discussion_id/notes`: a reply (201, the note). An individual user note
     * becomes the first note of the thread; a system note cannot be replied to (400).
     */
    reply(
      actor: Actor,
      project: ProjectRow,
      iid: number,
      id: string,
      input: DiscussionNoteCreate,
    ): Note | NoteCommands {
      const { rows } = findThread(actor, project, iid, id)
      const first = rows[0] as NoteRow
      if (first.type == null && first.system === 1) throw badRequest('Discussion can not be replied to.')
      return notes.create(actor, project, iid, input, {
        discussionId: id,
        ...(first.type == null ? { convert: first } : {}),
      })
    },

    /**
     * `PUT .../discussions/:discussion_id/notes/:note_id`: the note as `PUT .../notes/:note_id` edits
     * it (the discussion id is not checked, as GitLab's `update_note` does not); `resolved` needs
     * `resolve_note` (403 in an archived project), then is 400 `Note is not resolvable`: issue notes
     * never are.
     */
    updateNote(
      actor: Actor,
      project: ProjectRow,
      iid: number,
      noteId: number,
      input: DiscussionNoteUpdate,
    ): Note {
      if (input.resolved === undefined) return notes.update(actor, project, iid, noteId, { body: input.body })
      notes.get(actor, project, iid, noteId)
      requireNotArchived(project)
      throw badRequest('Note is not resolvable')
    },
  }
}
export type DiscussionService = ReturnType<typeof discussionService>
