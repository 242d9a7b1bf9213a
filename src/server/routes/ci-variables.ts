import { Type } from '@sinclair/typebox'
import {
  CiInstanceVariable,
  CiInstanceVariableCreate,
  CiInstanceVariableUpdate,
  CiVariable,
  CiVariableCreate,
  CiVariableQuery,
  CiVariableUpdate,
  PageQuery,
} from '../../schema/index.js'
import { unauthorized } from '../grape/gitlab-errors.js'
import { pageOf } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { VariableService } from '../services/ci-variables.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const VariablePath = Type.Object({ id: Type.String(), key: Type.String() })
const KeyPath = Type.Object({ key: Type.String() })

/**
 * `lib/api/ci/variables.rb`, `lib/api/ci/group_variables.rb` and `lib/api/admin/ci/variables.rb`: a
 * project's CI/CD variables (Maintainer) and a group's (Owner), the same routes under `/projects` and
 * `/groups`, and the instance's (administrators) under `/admin/ci/variables`.
 */
export function ciVariableRoutes(api: ApiContext) {
  const { access, services } = api
  variableRoutes(api, 'projects', 'project', services.ciVariables, access.project)
  variableRoutes(api, 'groups', 'group', services.ciGroupVariables, access.group)
  instanceVariableRoutes(api)
}

/** `lib/api/admin/ci/variables.rb`: one variable per key, `authenticated_as_admin!` before anything. */
function instanceVariableRoutes({ route, services }: ApiContext) {
  const variables = services.ciInstanceVariables
  const url = '/api/v4/admin/ci/variables'
  route(
    {
      method: 'GET',
      url,
      summary: "List the instance's CI/CD variables",
      auth: 'admin',
      input: PageQuery,
      response: { 200: Type.Array(CiInstanceVariable) },
    },
    (h) => {
      const page = pageOf(h.params)
      return h.sendPage({ ...variables.list(h.actor, page.perPage, page.offset), page })
    },
  )
  route(
    {
      method: 'GET',
      url: `${url}/:key`,
      summary: "Read an instance's CI/CD variable",
      auth: 'admin',
      pathParams: KeyPath,
      response: { 200: CiInstanceVariable },
    },
    (h) => variables.get(h.actor, h.path.key),
  )
  route(
    {
      method: 'POST',
      url,
      summary: "Create an instance's CI/CD variable",
      auth: 'admin',
      input: CiInstanceVariableCreate,
      response: { 201: CiInstanceVariable },
    },
    (h) => h.reply.code(201).send(variables.create(h.actor, h.params)),
  )
  route(
    {
      method: 'PUT',
      url: `${url}/:key`,
      summary: "Edit an instance's CI/CD variable",
      auth: 'admin',
      pathParams: KeyPath,
      input: CiInstanceVariableUpdate,
      response: { 200: CiInstanceVariable },
    },
    (h) => variables.update(h.actor, h.path.key, h.params),
  )
  route(
    {
      method: 'DELETE',
      url: `${url}/:key`,
      summary: "Delete an instance's CI/CD variable",
      auth: 'admin',
      pathParams: KeyPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      variables.remove(h.actor, h.path.key)
      return h.reply.code(204).send()
    },
  )
}

function variableRoutes<O extends { id: number }>(
  api: ApiContext,
  base: 'projects' | 'groups',
  noun: string,
  variables: VariableService<O>,
  find: (actor: Actor, id: string) => O,
) {
  const { route } = api
  /** `authenticate!` comes first: 401 to an anonymous caller, whatever the owner. */
  const ownerOf = (actor: Actor, id: string) => {
    if (!actor.user) throw unauthorized()
    return find(actor, id)
  }

  route(
    {
      method: 'GET',
      url: `/api/v4/${base}/:id/variables`,
      summary: `List a ${noun}'s CI/CD variables`,
      pathParams: IdPath,
      input: PageQuery,
      response: { 200: Type.Array(CiVariable) },
    },
    (h) => {
      const owner = ownerOf(h.actor, h.path.id)
      const page = pageOf(h.params)
      const { items, total } = variables.list(h.actor, owner, page.perPage, page.offset)
      return h.sendPage({ items, page, total })
    },
  )

  route(
    {
      method: 'GET',
      url: `/api/v4/${base}/:id/variables/:key`,
      summary: `Read a ${noun}'s CI/CD variable; \`filter[environment_scope]\` picks one of a shared key`,
      errors: [409],
      pathParams: VariablePath,
      input: CiVariableQuery,
      response: { 200: CiVariable },
    },
    (h) =>
      variables.get(h.actor, ownerOf(h.actor, h.path.id), h.path.key, h.params.filter?.environment_scope),
  )

  route(
    {
      method: 'POST',
      url: `/api/v4/${base}/:id/variables`,
      summary: `Create a ${noun}'s CI/CD variable`,
      pathParams: IdPath,
      input: CiVariableCreate,
      response: { 201: CiVariable },
    },
    (h) => h.reply.code(201).send(variables.create(h.actor, ownerOf(h.actor, h.path.id), h.params)),
  )

  route(
    {
      method: 'PUT',
      url: `/api/v4/${base}/:id/variables/:key`,
      summary: `Edit a ${noun}'s CI/CD variable`,
      errors: [409],
      pathParams: VariablePath,
      input: CiVariableUpdate,
      response: { 200: CiVariable },
    },
    (h) => variables.update(h.actor, ownerOf(h.actor, h.path.id), h.path.key, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: `/api/v4/${base}/:id/variables/:key`,
      summary: `Delete a ${noun}'s CI/CD variable`,
      errors: [409],
      pathParams: VariablePath,
      input: CiVariableQuery,
      response: { 204: Type.Null() },
    },
    (h) => {
      const owner = ownerOf(h.actor, h.path.id)
      variables.remove(h.actor, owner, h.path.key, h.params.filter?.environment_scope)
      return h.reply.code(204).send()
    },
  )
}
