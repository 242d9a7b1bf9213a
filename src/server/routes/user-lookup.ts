import { Type } from '@sinclair/typebox'
import { CurrentUser, UserBasic, UserListQuery } from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import type { ApiContext } from './context.js'

/** Before keyset paging (`usersKeyset`) `pagination` and `cursor` are ignored: Grape drops them. */
const OffsetUserListQuery = Type.Omit(UserListQuery, ['pagination', 'cursor'])

/** `GET /users` (services/users.ts `list`: filters, order, offset and keyset pages). */
export function userLookupRoutes(api: ApiContext): void {
  const { route } = api
  const { users } = api.services
  route(
    {
      method: 'GET',
      url: '/api/v4/users',
      summary: 'List users (administrators see all, others the active ones)',
      input: applies(api.instance.version, 'usersKeyset') ? UserListQuery : OffsetUserListQuery,
      errors: [405],
      response: { 200: Type.Array(Type.Union([CurrentUser, UserBasic])) },
    },
    (h) => h.sendPage(users.list(h.actor, h.params)),
  )
}
