import { Type } from '@sinclair/typebox'
import { Project, ProjectFork, ProjectList, ProjectListQuery } from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/**
 * Forks (services/project-forks.ts; lib/api/projects.rb): fork a project, list its forks, unlink a
 * fork from its source, and link a project to a source (Owner).
 */
export function projectForkRoutes(api: ApiContext): void {
  const { route } = api
  const { projectForks } = api.services

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/fork',
      summary: "Fork a project into the caller's namespace or a chosen one",
      auth: 'required',
      pathParams: IdPath,
      input: ProjectFork,
      errors: [409],
      response: { 201: Project },
    },
    (h) => h.reply.code(201).send(projectForks.fork(h.actor, h.path.id, h.params, h.req.id)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/forks',
      summary: 'List the forks of a project the caller can see',
      pathParams: IdPath,
      input: ProjectListQuery,
      errors: [405],
      response: { 200: ProjectList },
    },
    (h) => h.sendPage(projectForks.list(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/fork',
      summary: 'Remove the fork relation of a project (Owner; 304 when not a fork)',
      auth: 'required',
      pathParams: IdPath,
      response: { 204: Type.Null(), 304: Type.Null() },
    },
    (h) => {
      projectForks.unlink(h.actor, h.path.id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/fork/:forked_from_id',
      summary: 'Mark a project as a fork of another (Owner)',
      auth: 'required',
      pathParams: Type.Object({ id: Type.String(), forked_from_id: Type.Integer() }),
      errors: [409],
      response: { 201: Project },
    },
    (h) => h.reply.code(201).send(projectForks.link(h.actor, h.path.id, h.path.forked_from_id)),
  )
}
