import { Type } from '@sinclair/typebox'
import {
  CiVariable,
  CiVariableCreate,
  CiVariableQuery,
  CiVariableUpdate,
  PageQuery,
} from '../../schema/index.js'
import { unauthorized } from '../grape/gitlab-errors.js'
import { pageOf } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const VariablePath = Type.Object({ id: Type.String(), key: Type.String() })

/** `lib/api/ci/variables.rb`: a project's CI/CD variables (Maintainer). */
export function ciVariableRoutes(api: ApiContext) {
  const { route, access } = api
  const variables = api.services.ciVariables
  /** `authenticate!` comes first: 401 to an anonymous caller, whatever the project. */
  const projectOf = (actor: Actor, id: string) => {
    if (!actor.user) throw unauthorized()
    return access.project(actor, id)
  }

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/variables',
      summary: "List a project's CI/CD variables (Maintainer)",
      pathParams: IdPath,
      input: PageQuery,
      response: { 200: Type.Array(CiVariable) },
    },
    (h) => {
      const project = projectOf(h.actor, h.path.id)
      const page = pageOf(h.params)
      const { items, total } = variables.list(h.actor, project, page.perPage, page.offset)
      return h.sendPage({ items, page, total })
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/variables/:key',
      summary: 'Read a CI/CD variable; `filter[environment_scope]` picks one of a shared key',
      errors: [409],
      pathParams: VariablePath,
      input: CiVariableQuery,
      response: { 200: CiVariable },
    },
    (h) =>
      variables.get(h.actor, projectOf(h.actor, h.path.id), h.path.key, h.params.filter?.environment_scope),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/variables',
      summary: 'Create a CI/CD variable (Maintainer)',
      pathParams: IdPath,
      input: CiVariableCreate,
      response: { 201: CiVariable },
    },
    (h) => h.reply.code(201).send(variables.create(h.actor, projectOf(h.actor, h.path.id), h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/variables/:key',
      summary: 'Edit a CI/CD variable (Maintainer)',
      errors: [409],
      pathParams: VariablePath,
      input: CiVariableUpdate,
      response: { 200: CiVariable },
    },
    (h) => variables.update(h.actor, projectOf(h.actor, h.path.id), h.path.key, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/variables/:key',
      summary: 'Delete a CI/CD variable (Maintainer)',
      errors: [409],
      pathParams: VariablePath,
      input: CiVariableQuery,
      response: { 204: Type.Null() },
    },
    (h) => {
      const project = projectOf(h.actor, h.path.id)
      variables.remove(h.actor, project, h.path.key, h.params.filter?.environment_scope)
      return h.reply.code(204).send()
    },
  )
}
