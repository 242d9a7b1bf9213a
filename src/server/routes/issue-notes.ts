import { Type, type Static } from '@sinclair/typebox'
import { Note, NoteCommands, NoteCreate, NoteListQuery, NoteUpdate } from '../../schema/index.js'
import type { Actor } from '../services/access.js'
import type { ApiContext } from './context.js'
import { NoteablePath, issueTarget } from './paths.js'

/** `:note_id` is Grape's Integer: anything else is 400 `note_id is invalid`. */
const NotePath = Type.Object({ id: Type.String(), noteable_id: Type.Integer(), note_id: Type.Integer() })

/** Issue notes (`lib/api/notes.rb`): list, create with quick actions, get, edit and delete one. */
export function issueNoteRoutes(api: ApiContext): void {
  const { route, access } = api
  const { notes } = api.services
  const issueOf = (path: Static<typeof NoteablePath>, actor: Actor) =>
    issueTarget(access, { id: path.id, issue_iid: path.noteable_id }, actor)

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:noteable_id/notes',
      summary: 'List the notes of an issue',
      auth: 'required',
      pathParams: NoteablePath,
      input: NoteListQuery,
      response: { 200: Type.Array(Note) },
    },
    (h) => {
      const { iid, project } = issueOf(h.path, h.actor)
      const { notes: items, page, total, hasMore } = notes.list(h.actor, project, iid, h.params)
      return h.sendPage({ items, page, total, hasMore })
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:noteable_id/notes',
      summary: 'Comment on an issue; quick actions in the body run',
      auth: 'required',
      pathParams: NoteablePath,
      input: NoteCreate,
      response: { 201: Note, 202: NoteCommands },
    },
    (h) => {
      const { iid, project } = issueOf(h.path, h.actor)
      const result = notes.create(h.actor, project, iid, h.params)
      return h.reply.code('id' in result ? 201 : 202).send(result)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:noteable_id/notes/:note_id',
      summary: 'Get one note of an issue',
      auth: 'required',
      pathParams: NotePath,
      response: { 200: Note },
    },
    (h) => {
      const { iid, project } = issueOf(h.path, h.actor)
      return notes.get(h.actor, project, iid, h.path.note_id)
    },
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/issues/:noteable_id/notes/:note_id',
      summary: "Edit a note's body (its author, or a Maintainer; never a system note)",
      auth: 'required',
      pathParams: NotePath,
      input: NoteUpdate,
      response: { 200: Note },
    },
    (h) => {
      const { iid, project } = issueOf(h.path, h.actor)
      return notes.update(h.actor, project, iid, h.path.note_id, h.params)
    },
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/issues/:noteable_id/notes/:note_id',
      summary: 'Delete a note (its author, or a Maintainer; never a system note)',
      auth: 'required',
      pathParams: NotePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      const { iid, project } = issueOf(h.path, h.actor)
      notes.remove(h.actor, project, iid, h.path.note_id)
      return h.reply.code(204).send()
    },
  )
}
