/*
 * Issue notes (`lib/api/notes.rb`): list, create, get, edit and delete.
 */
import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import { Note, NoteCommands, type NoteCreate, type NoteListQuery, type NoteUpdate } from '../schema/note.js'
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
  /** `GET .../notes/:note_id`; 404 `404 Note Not Found` for an internal note the caller may not read. */
  get: (project: ResourceRef, iid: number, noteId: number, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/issues/${iid}/notes/${noteId}`, {
      ...options,
      response: Note,
    }),
  /**
   * `PUT .../notes/:note_id` -> the note with its new body. 403 unless the caller wrote it or is a
   * Maintainer; a system note can never be edited.
   */
  update: (project: ResourceRef, iid: number, noteId: number, body: NoteUpdate, options: CallOptions = {}) =>
    http.request('PUT', path`/projects/${project}/issues/${iid}/notes/${noteId}`, {
      ...options,
      json: body,
      response: Note,
    }),
  /** `DELETE .../notes/:note_id` -> 204; the same rights as `update`. */
  remove: (project: ResourceRef, iid: number, noteId: number, options: CallOptions = {}) =>
    http.request<void>('DELETE', path`/projects/${project}/issues/${iid}/notes/${noteId}`, options),
})
/** The type of `client.notes`. */
export type NotesApi = ReturnType<typeof notes>
