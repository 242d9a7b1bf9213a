import { Type } from '@sinclair/typebox'
import {
  AcceptedMessage,
  Project,
  ProjectCreate,
  ProjectCreateForUser,
  ProjectDeleteQuery,
  ProjectGroupLink,
  ProjectList,
  ProjectShare,
  ProjectTransfer,
  ProjectUpdate,
  UserProjectsQuery,
} from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const UserIdPath = Type.Object({ user_id: Type.String() })

/**
 * Projects made, edited, archived and deleted through the API (services/project-writes.ts;
 * lib/api/projects.rb), and `GET /users/:user_id/projects`. Writes need a user (`authenticate_non_get!`).
 */
export function projectWriteRoutes(api: ApiContext): void {
  const { route } = api
  const { projectWrites } = api.services

  route(
    {
      method: 'POST',
      url: '/api/v4/projects',
      summary: "Create a project in the caller's namespace or `namespace_id`",
      auth: 'required',
      input: ProjectCreate,
      response: { 201: Project },
    },
    (h) => h.reply.code(201).send(projectWrites.create(h.actor, h.params)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/user/:user_id',
      summary: 'Create a project for a user (administrators)',
      auth: 'required',
      pathParams: Type.Object({ user_id: Type.Integer() }),
      input: ProjectCreateForUser,
      response: { 201: Project },
    },
    (h) => h.reply.code(201).send(projectWrites.createForUser(h.actor, h.path.user_id, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id',
      summary: 'Edit a project',
      auth: 'required',
      pathParams: IdPath,
      input: ProjectUpdate,
      response: { 200: Project },
    },
    (h) => projectWrites.update(h.actor, h.path.id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id',
      summary: 'Delete a project (marked for deletion where the release delays it)',
      auth: 'required',
      pathParams: IdPath,
      input: ProjectDeleteQuery,
      response: { 202: AcceptedMessage },
    },
    (h) => {
      projectWrites.remove(h.actor, h.path.id, h.params)
      return h.reply.code(202).send({ message: '202 Accepted' })
    },
  )

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const)
    route(
      {
        method: 'POST',
        url: `/api/v4/projects/:id/${action}`,
        summary: archived ? 'Archive a project' : 'Unarchive a project',
        auth: 'required',
        pathParams: IdPath,
        response: { 201: Project },
      },
      (h) => h.reply.code(201).send(projectWrites.setArchived(h.actor, h.path.id, archived)),
    )

  route(
    {
      method: 'GET',
      url: '/api/v4/users/:user_id/projects',
      summary: "List a user's personal projects the caller can see",
      pathParams: UserIdPath,
      input: UserProjectsQuery,
      response: { 200: ProjectList },
    },
    (h) => h.sendPage(projectWrites.listForUser(h.actor, h.path.user_id, h.params)),
  )
  projectMoveRoutes(api)
}

/** `PUT /projects/:id/transfer`, `POST /projects/:id/share` and `DELETE /projects/:id/share/:group_id`. */
export function projectMoveRoutes(api: ApiContext): void {
  const { route } = api
  const { projectWrites } = api.services

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/transfer',
      summary: 'Transfer a project to another namespace',
      auth: 'required',
      pathParams: IdPath,
      input: ProjectTransfer,
      response: { 200: Project },
    },
    (h) => projectWrites.transfer(h.actor, h.path.id, h.params.namespace),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/share',
      summary: 'Share a project with a group',
      auth: 'required',
      pathParams: IdPath,
      input: ProjectShare,
      errors: [409],
      response: { 201: ProjectGroupLink },
    },
    (h) => h.reply.code(201).send(projectWrites.share(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/share/:group_id',
      summary: 'Stop sharing a project with a group',
      auth: 'required',
      pathParams: Type.Object({ id: Type.String(), group_id: Type.Integer() }),
      response: { 204: Type.Null() },
    },
    (h) => {
      projectWrites.unshare(h.actor, h.path.id, h.path.group_id)
      return h.reply.code(204).send()
    },
  )
}
