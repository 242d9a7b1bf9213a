/*
 * Issue notes (`lib/api/notes.rb`): list and create. The reference server has no
 * `PUT .../notes/:note_id` yet, so there is no update here (sync-issues leaves comment edits alone).
 */
import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import { Note, NoteCommands, type NoteCreate, type NoteListQuery } from '../schema/note.js'
import type { CallOptions, Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** What `create` answers: the note (201), or the quick actions' effects (202). */
const NoteOrCommands = Type.Union([Note, NoteCommands])

/** List parameters without `page`, which the iterator owns. */
export type NoteListParams = Omit<NoteListQuery, 'page'>

/** The notes group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export const notes = (http: Http) => ({
  /**
   * `GET /projects/:id/issues/:issue_iid/notes`, lazily, 100 per page. GitLab's default order is
   * newest first (`created_at desc`); pass `{ sort: 'asc' }` for oldest first. System notes included.
   */
  list: (
    project: ResourceRef,
    iid: number,
    query: NoteListParams = {},
    options: Omit<PageOptions, 'query'> = {},
  ) =>
    http.paginate<Note>(path`/projects/${project}/issues/${iid}/notes`, {
      ...options,
      query: query as Query,
      item: Note,
    }),
  /**
   * `POST /projects/:id/issues/:issue_iid/notes` -> 201 with the note. A body made only of quick
   * actions answers 202 with `NoteCommands` instead (`lib/api/notes.rb`). Retried only on 429.
   */
  create: (project: ResourceRef, iid: number, body: NoteCreate, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/issues/${iid}/notes`, {
      ...options,
      json: body,
      response: NoteOrCommands,
    }),
})
/** The type of `client.notes`. */
export type NotesApi = ReturnType<typeof notes>
