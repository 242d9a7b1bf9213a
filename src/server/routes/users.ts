import { Type } from '@sinclair/typebox'
import {
  CurrentUser,
  Membership,
  MembershipListQuery,
  UserCreate,
  UserDeleteQuery,
  UserProfile,
  UserUpdate,
} from '../../schema/index.js'
import type { ApiContext } from './context.js'

const UserPath = Type.Object({ id: Type.Integer() })

/**
 * Users as administrators manage them (services/user-admin.ts; `lib/api/users.rb`): the `users`
 * resource authenticates every call but a GET (`authenticate_non_get!`).
 */
export function userRoutes(api: ApiContext): void {
  const { route } = api
  const { userAdmin } = api.services

  route(
    {
      method: 'POST',
      url: '/api/v4/users',
      summary: 'Create a user (administrators)',
      auth: 'non_get',
      input: UserCreate,
      response: { 201: CurrentUser },
    },
    (h) => h.reply.code(201).send(userAdmin.create(h.actor, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/users/:id',
      summary: 'Read a user (administrators see more)',
      pathParams: UserPath,
      response: { 200: Type.Union([CurrentUser, UserProfile]) },
    },
    (h) => userAdmin.get(h.actor, h.path.id),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/users/:id',
      summary: 'Edit a user (administrators)',
      auth: 'non_get',
      pathParams: UserPath,
      input: UserUpdate,
      response: { 200: CurrentUser },
    },
    (h) => userAdmin.update(h.actor, h.path.id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/users/:id',
      summary: 'Delete a user (administrators); their contributions go to the Ghost User',
      auth: 'non_get',
      pathParams: UserPath,
      input: UserDeleteQuery,
      response: { 204: Type.Null() },
    },
    (h) => {
      userAdmin.remove(h.actor, h.path.id, h.params.hard_delete ?? false)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/users/:user_id/memberships',
      summary: "List a user's direct memberships of groups and projects (administrators)",
      auth: 'non_get',
      pathParams: Type.Object({ user_id: Type.Integer() }),
      input: MembershipListQuery,
      response: { 200: Type.Array(Membership) },
    },
    (h) => h.sendPage(userAdmin.memberships(h.actor, h.path.user_id, h.params)),
  )

  const states = [
    ['block', 'Block a user (administrators): null when already blocked', (id, a) => userAdmin.block(a, id)],
    [
      'unblock',
      'Unblock a user (administrators): false when not blocked',
      (id, a) => userAdmin.unblock(a, id),
    ],
    ['deactivate', 'Deactivate a user (administrators)', (id, a) => userAdmin.deactivate(a, id)],
    ['activate', 'Activate a deactivated user (administrators)', (id, a) => userAdmin.activate(a, id)],
    ['ban', 'Ban a user (administrators)', (id, a) => userAdmin.ban(a, id, 'ban')],
    ['unban', 'Unban a user (administrators)', (id, a) => userAdmin.ban(a, id, 'unban')],
  ] as const satisfies readonly (readonly [
    string,
    string,
    (id: number, actor: Parameters<typeof userAdmin.block>[0]) => boolean | null,
  ])[]
  for (const [action, summary, change] of states)
    route(
      {
        method: 'POST',
        url: `/api/v4/users/:id/${action}`,
        summary,
        auth: 'non_get',
        pathParams: UserPath,
        response: { 201: Type.Union([Type.Boolean(), Type.Null()]) },
      },
      (h) => h.reply.code(201).send(change(h.path.id, h.actor)),
    )
}
