import { Type } from '@sinclair/typebox'
import { UserBasic } from '../../schema/index.js'
import { presentUser } from '../present/users.js'
import type { ApiContext } from './context.js'
import { defineRoute } from './define.js'

const UserQuery = Type.Object({ username: Type.Optional(Type.String()) }, { title: 'UserListQuery' })

/**
 * `GET /users?username=NAME` (sync-issues turns a user map's usernames into ids): an
 * array with the one active user of that username (case-insensitive, as GitLab matches it), or
 * `[]`. Without `username` the answer is `[]`: listing every user is not modelled.
 */
export function userLookupRoutes(api: ApiContext): void {
  const { app, registry, instance } = api
  const { store } = api.ctx
  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/users',
      summary: 'Find a user by username',
      input: UserQuery,
      response: { 200: Type.Array(UserBasic) },
    },
    (h) => {
      const name = h.params.username
      if (!name) return []
      const row = store.users.byUsername(name) ?? store.users.byUsername(name.toLowerCase())
      return row ? [presentUser(row, instance)] : []
    },
  )
}
