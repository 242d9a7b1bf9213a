import { Type, type Static } from '@sinclair/typebox'
import { Note, NoteCommands, NoteCreate, NoteListQuery } from '../../schema/index.js'
import type { Actor } from '../services/access.js'
import type { ApiContext } from './context.js'
import { NoteablePath, issueTarget } from './paths.js'

/** Issue notes (GitLab's doc/api/issues.md): list, and create with quick actions. */
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
}
