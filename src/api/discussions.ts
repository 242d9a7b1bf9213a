/*
 * Issue discussions (`lib/api/discussions.rb`): threads of notes. An individual note is a discussion
 * of its own (`individual_note: true`); replying to one makes it a thread.
 */
import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import {
  Discussion,
  Note,
  NoteCommands,
  type DiscussionNoteCreate,
  type DiscussionNoteUpdate,
} from '../schema/note.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** The discussions group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export function discussions(http: Http) {
  const base = (project: ResourceRef, iid: number) => path`/projects/${project}/issues/${iid}/discussions`
  const thread = (project: ResourceRef, iid: number, id: string) =>
    path`/projects/${project}/issues/${iid}/discussions/${id}`
  return {
    /** `GET .../discussions`, lazily, 100 per page, in the order of their first notes. */
    list: (project: ResourceRef, iid: number, options: Omit<PageOptions, 'item'> = {}) =>
      http.paginate<Discussion>(base(project, iid), { ...options, item: Discussion }),
    /** `GET .../discussions/:discussion_id`; 404 `404 Discussion Not Found`. */
    get: (project: ResourceRef, iid: number, id: string, options: CallOptions = {}) =>
      http.request('GET', thread(project, iid, id), { ...options, response: Discussion }),
    /** `POST .../discussions` -> 201 with the new thread; 202 with `NoteCommands` for quick actions only. */
    create: (project: ResourceRef, iid: number, body: DiscussionNoteCreate, options: CallOptions = {}) =>
      http.request('POST', base(project, iid), {
        ...options,
        json: body,
        response: Type.Union([Discussion, NoteCommands]),
      }),
    /** `POST .../discussions/:discussion_id/notes` -> 201 with the reply; 400 for a system note's discussion. */
    reply: (
      project: ResourceRef,
      iid: number,
      id: string,
      body: DiscussionNoteCreate,
      options: CallOptions = {},
    ) =>
      http.request('POST', `${thread(project, iid, id)}/notes`, {
        ...options,
        json: body,
        response: Type.Union([Note, NoteCommands]),
      }),
    /** `PUT .../discussions/:discussion_id/notes/:note_id`: exactly one of `body` and `resolved`. */
    updateNote: (
      project: ResourceRef,
      iid: number,
      id: string,
      noteId: number,
      body: DiscussionNoteUpdate,
      options: CallOptions = {},
    ) =>
      http.request('PUT', path`/projects/${project}/issues/${iid}/discussions/${id}/notes/${noteId}`, {
        ...options,
        json: body,
        response: Note,
      }),
    /** `DELETE .../discussions/:discussion_id/notes/:note_id` -> 204. */
    removeNote: (project: ResourceRef, iid: number, id: string, noteId: number, options: CallOptions = {}) =>
      http.request<void>(
        'DELETE',
        path`/projects/${project}/issues/${iid}/discussions/${id}/notes/${noteId}`,
        options,
      ),
  }
}
/** The type of `client.discussions`. */
export type DiscussionsApi = ReturnType<typeof discussions>
