import { Type } from '@sinclair/typebox'
import { CurrentUser, UserBasic, UserListQuery } from '../../schema/index.js'
import type { ApiContext } from './context.js'

/** `GET /users` (services/users.ts `list`). */
export function userLookupRoutes(api: ApiContext): void {
  const { route } = api
  const { users } = api.services
  route(
    {
      method: 'GET',
      url: '/api/v4/users',
      summary: 'List users (administrators see all, others the active ones)',
      input: UserListQuery,
      linksOmit: ['defaults'],
      response: { 200: Type.Array(Type.Union([CurrentUser, UserBasic])) },
    },
    (h) => h.sendPage(users.list(h.actor, h.params)),
  )
}
