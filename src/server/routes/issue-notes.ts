import { Type } from '@sinclair/typebox'
import { Note, NoteCommands, NoteCreate, NoteListQuery } from '../../schema/index.js'
import { setPageHeaders } from '../pagination.js'
import type { IssueDeps } from '../services/issue-lookup.js'
import { noteService } from '../services/notes.js'
import type { ApiContext } from './context.js'
import { defineRoute } from './define.js'
import { pathOf } from './issue-pages.js'
import { IssuePath, issueTarget } from './paths.js'

const URL = '/api/v4/projects/:id/issues/:issue_iid/notes'

/** Issue notes (spec 4.3): list, and create with quick actions. */
export function issueNoteRoutes(api: ApiContext, deps: IssueDeps): void {
  const { app, registry, access } = api
  const notes = noteService(deps)

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: URL,
      summary: 'List the notes of an issue',
      auth: 'required',
      pathParams: IssuePath,
      input: NoteListQuery,
      response: { 200: Type.Array(Note) },
    },
    (h) => {
      const { iid, project } = issueTarget(access, h.path, h.actor)
      const result = notes.list(h.actor, project, iid, h.params)
      const params = { order_by: 'created_at', sort: 'desc', ...(h.req.query as object) }
      setPageHeaders(
        h.reply,
        { baseUrl: api.instance.baseUrl, path: pathOf(h.req), params },
        result.page,
        result.total,
      )
      return result.notes
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: URL,
      summary: 'Comment on an issue; quick actions in the body run',
      auth: 'required',
      pathParams: IssuePath,
      input: NoteCreate,
      response: { 201: Note, 202: NoteCommands },
    },
    (h) => {
      const { iid, project } = issueTarget(access, h.path, h.actor)
      const result = notes.create(h.actor, project, iid, h.params)
      return h.reply.code('id' in result ? 201 : 202).send(result)
    },
  )
}
