import type { CurrentUser, UserBasic, UserListQuery } from '../../schema/index.js'
import { forbidden } from '../gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../pagination.js'
import { presentCurrentUser, presentUser } from '../present/users.js'
import type { UserRow } from '../store/users.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'

/** `User::FORBIDDEN_SEARCH_STATES` (app/models/user.rb): hidden from all but administrators. */
const FORBIDDEN_STATES = new Set(['blocked', 'banned', 'ldap_blocked'])

const userSortKey: Record<string, (u: UserRow) => string | number> = {
  id: (u) => u.id,
  name: (u) => u.name.toLowerCase(),
  username: (u) => u.username.toLowerCase(),
  created_at: (u) => u.created_at,
  updated_at: (u) => u.created_at,
}

/** User lookups: `GET /users`. */
export function userService(ctx: ServiceContext) {
  const { store, instance } = ctx
  return {
    /**
     * `GET /users` as lib/api/users.rb and app/finders/users_finder.rb answer it: anonymous callers
     * must give `username` (else 403 `Not authorized to access /api/v4/users`); administrators see
     * every user as `UserWithAdmin`, others `UserBasic` of users not blocked or banned. `username`
     * matches exactly (case-insensitively), `search` a part of the name or username (and, for
     * administrators, the email), `active` and `blocked` keep those states. Newest first (`id desc`);
     * `order_by`/`sort` count for administrators only, GitLab drops them for others.
     */
    list(actor: Actor, q: UserListQuery): PageOut<CurrentUser | UserBasic> {
      if (!actor.user && !q.username) throw forbidden('Not authorized to access /api/v4/users')
      const admin = actor.admin
      const username = q.username?.toLowerCase()
      const search = q.search?.toLowerCase()
      const rows = store.users
        .all()
        .filter((u) => admin || !FORBIDDEN_STATES.has(u.state))
        .filter((u) => username === undefined || u.username.toLowerCase() === username)
        .filter(
          (u) =>
            !search ||
            u.username.toLowerCase().includes(search) ||
            u.name.toLowerCase().includes(search) ||
            (admin && (u.email ?? '').toLowerCase().includes(search)),
        )
        .filter((u) => !q.active || u.state === 'active')
        .filter((u) => !q.blocked || u.state === 'blocked')
      const key = userSortKey[(admin && q.order_by) || 'id'] ?? userSortKey.id!
      const dir = admin && q.sort === 'asc' ? 1 : -1
      rows.sort((a, b) => {
        const x = key(a)
        const y = key(b)
        return (x < y ? -1 : x > y ? 1 : 0) * dir || (a.id - b.id) * dir
      })
      return mapPage(slicePage(rows, pageOf(q)), (u) =>
        admin ? presentCurrentUser(u, instance) : presentUser(u, instance),
      )
    },
  }
}
export type UserService = ReturnType<typeof userService>
