import { Type } from '@sinclair/typebox'
import {
  Discussion,
  DiscussionNoteCreate,
  DiscussionNoteUpdate,
  Note,
  NoteCommands,
  PageQuery,
} from '../../schema/index.js'
import type { ApiContext } from './context.js'

/**
 * The paths of `lib/api/discussions.rb`: `:noteable_id` and `:note_id` are Grape's Integers (400
 * `<name> is invalid`), `:discussion_id` a String.
 */
const IssuePath = Type.Object({ id: Type.String(), noteable_id: Type.Integer() })
const ThreadPath = Type.Object({
  id: Type.String(),
  noteable_id: Type.Integer(),
  discussion_id: Type.String(),
})
const ThreadNotePath = Type.Object({
  id: Type.String(),
  noteable_id: Type.Integer(),
  discussion_id: Type.String(),
  note_id: Type.Integer(),
})

/** Issue discussions (`lib/api/discussions.rb`): threads of notes; every call authenticates first. */
export function issueDiscussionRoutes(api: ApiContext): void {
  const { route, access } = api
  const { discussions, notes } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:noteable_id/discussions',
      summary: 'List the discussions of an issue (individual notes are discussions of one note)',
      auth: 'required',
      pathParams: IssuePath,
      input: PageQuery,
      response: { 200: Type.Array(Discussion) },
    },
    (h) =>
      h.sendPage(discussions.list(h.actor, access.project(h.actor, h.path.id), h.path.noteable_id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:noteable_id/discussions/:discussion_id',
      summary: 'Get one discussion of an issue',
      auth: 'required',
      pathParams: ThreadPath,
      response: { 200: Discussion },
    },
    (h) =>
      discussions.get(h.actor, access.project(h.actor, h.path.id), h.path.noteable_id, h.path.discussion_id),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:noteable_id/discussions',
      summary: 'Start a discussion on an issue; quick actions in the body run',
      auth: 'required',
      pathParams: IssuePath,
      input: DiscussionNoteCreate,
      response: { 201: Discussion, 202: NoteCommands },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id)
      const made = discussions.create(h.actor, project, h.path.noteable_id, h.params)
      return h.reply.code('id' in made ? 201 : 202).send(made)
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:noteable_id/discussions/:discussion_id/notes',
      summary: 'Reply to a discussion of an issue',
      auth: 'required',
      pathParams: ThreadPath,
      input: DiscussionNoteCreate,
      response: { 201: Note, 202: NoteCommands },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id)
      const made = discussions.reply(h.actor, project, h.path.noteable_id, h.path.discussion_id, h.params)
      return h.reply.code('id' in made ? 201 : 202).send(made)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:noteable_id/discussions/:discussion_id/notes/:note_id',
      summary: 'Get one note of a discussion',
      auth: 'required',
      pathParams: ThreadNotePath,
      response: { 200: Note },
    },
    (h) => notes.get(h.actor, access.project(h.actor, h.path.id), h.path.noteable_id, h.path.note_id),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/issues/:noteable_id/discussions/:discussion_id/notes/:note_id',
      summary: 'Edit a note of a discussion (its author, or a Maintainer)',
      auth: 'required',
      pathParams: ThreadNotePath,
      input: DiscussionNoteUpdate,
      response: { 200: Note },
    },
    (h) =>
      discussions.updateNote(
        h.actor,
        access.project(h.actor, h.path.id),
        h.path.noteable_id,
        h.path.note_id,
        h.params,
      ),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/issues/:noteable_id/discussions/:discussion_id/notes/:note_id',
      summary: 'Delete a note of a discussion (its author, or a Maintainer)',
      auth: 'required',
      pathParams: ThreadNotePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      notes.remove(h.actor, access.project(h.actor, h.path.id), h.path.noteable_id, h.path.note_id)
      return h.reply.code(204).send()
    },
  )
}
