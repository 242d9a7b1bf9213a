import type { CurrentUser, UserBasic, UserListQuery } from '../../schema/index.js'
import { forbidden } from '../grape/gitlab-errors.js'
import {
  comparePlaces,
  cursorPage,
  decodeCursor,
  mapPage,
  offsetLimitExceeded,
  pageOf,
  pastOffsetLimit,
  rowsAfter,
  slicePage,
  type Cursor,
  type CursorOrder,
  type PageOut,
} from '../grape/pagination.js'
import { presentCurrentUser, presentUser } from '../present/users.js'
import { applies } from '../domain/releases.js'
import type { UserRow } from '../store/users.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { userSearch } from './user-search.js'

/** `User::FORBIDDEN_SEARCH_STATES` (app/models/user.rb): hidden from all but administrators. */
const FORBIDDEN_STATES = new Set(['blocked', 'banned', 'ldap_blocked'])

/**
 * A /users order: the sort key and direction (ties by id the same way), and its keyset cursor: the
 * columns GitLab names, a user's values of them as stored, a cursor's place as the key compares it.
 */
interface UserOrder {
  key: (u: UserRow) => string | number
  dir: 1 | -1
  cursor: CursorOrder
  cursorValues: (u: UserRow) => string[]
  cursorKey: (c: Cursor) => string | number
}

/** An `order_by` column: its sort key and the user's stored value the cursor carries. */
const column = (name: string, key: (u: UserRow) => string, value: (u: UserRow) => string, time = false) => ({
  key,
  cursor: { columns: [name], ...(time ? { times: [name] } : {}) },
  cursorValues: (u: UserRow) => [value(u)],
  cursorKey: (c: Cursor) => (time ? (c.values[0] ?? '') : (c.values[0] ?? '').toLowerCase()),
})

/** The orders `order_by` names (User.supported_keyset_orderings, both ways). */
const columnOrders: Record<string, Omit<UserOrder, 'dir'>> = {
  id: { key: (u) => u.id, cursor: { columns: [] }, cursorValues: () => [], cursorKey: (c) => c.id },
  name: column(
    'name',
    (u) => u.name.toLowerCase(),
    (u) => u.name,
  ),
  username: column(
    'username',
    (u) => u.username.toLowerCase(),
    (u) => u.username,
  ),
  created_at: column(
    'created_at',
    (u) => u.created_at,
    (u) => u.created_at,
    true,
  ),
  // The store keeps no updated_at: users are ordered by created_at for it.
  updated_at: column(
    'updated_at',
    (u) => u.created_at,
    (u) => u.created_at,
    true,
  ),
}

/**
 * A non-administrator's search keeps `User.search`'s own order, as `order_by`/`sort` are dropped:
 * exact matches first (`users_match_priority`), then by name, then by id, all ascending; its cursor
 * names those columns as the order's projections (`users_name`, `users_id`).
 */
function searchOrder(rank: (u: UserRow) => number): UserOrder {
  const place = (priority: string | number, name: string) => `${priority}\u0000${name.toLowerCase()}`
  return {
    key: (u) => place(rank(u), u.name),
    dir: 1,
    cursor: { columns: ['users_match_priority', 'users_name'], id: 'users_id' },
    cursorValues: (u) => [String(rank(u)), u.name],
    cursorKey: (c) => place(c.values[0] ?? '', c.values[1] ?? ''),
  }
}

/** User lookups: `GET /users`. */
export function userService(ctx: ServiceContext) {
  const { store, instance } = ctx
  return {
    /**
     * `GET /users` as lib/api/users.rb and app/finders/users_finder.rb answer it: anonymous callers
     * must give `username` (else 403 `Not authorized to access /api/v4/users`); administrators see
     * every user as `UserWithAdmin`, others `UserBasic` of users not blocked or banned. `username`
     * matches exactly (case-insensitively), `search` as `User.search` does (user-search.ts), `active`
     * and `blocked` keep those states. Newest first (`id desc`); `order_by`/`sort` count for
     * administrators only: GitLab drops them for others, from the order and the links, and their
     * searches keep the search's order, exact matches first. From 16.5
     * `pagination=keyset` pages by cursor in any of the orders (rel="next" only, no totals); from 17.0
     * an offset page past 50,000 rows is 405 (lib/api/helpers/pagination_strategies.rb).
     */
    list(actor: Actor, q: UserListQuery): PageOut<CurrentUser | UserBasic> {
      if (!actor.user && !q.username) throw forbidden('Not authorized to access /api/v4/users')
      const admin = actor.admin
      const username = q.username?.toLowerCase()
      const search = userSearch(q.search, admin)
      const rows = store.users
        .all()
        .filter((u) => admin || !FORBIDDEN_STATES.has(u.state))
        .filter((u) => username === undefined || u.username.toLowerCase() === username)
        .filter((u) => search === undefined || (search !== 'none' && search.matches(u)))
        .filter((u) => !q.active || u.state === 'active')
        .filter((u) => !q.blocked || u.state === 'blocked')
      // Others' `order_by`, `sort` and `without_projects` are dropped (`params.except!`): from the
      // order and the links.
      const order: UserOrder =
        !admin && search && search !== 'none'
          ? searchOrder(search.rank)
          : {
              ...(columnOrders[(admin && q.order_by) || 'id'] ?? columnOrders.id!),
              dir: admin && q.sort === 'asc' ? 1 : -1,
            }
      const unlinked = admin ? [] : ['order_by', 'sort', 'without_projects']
      rows.sort((a, b) => comparePlaces(order.key(a), a.id, order.key(b), b.id) * order.dir)
      const present = (u: UserRow) =>
        admin
          ? presentCurrentUser(
              u,
              instance,
              store.users.profile(u.id),
              store.accessTokens.botOf(u.id) !== undefined,
            )
          : presentUser(u, instance)
      if (q.pagination === 'keyset') {
        const after = decodeCursor(q.cursor, order.cursor)
        const rest = rowsAfter(rows, after, order.key, order.cursorKey, order.dir)
        const page = cursorPage(rest, pageOf(q).perPage, order.cursor, (u) => ({
          values: order.cursorValues(u),
          id: u.id,
        }))
        return mapPage({ ...page, unlinked }, present)
      }
      const page = pageOf(q)
      // Offset pages of `User` end at the offset limit from 17.0 (`User` joins ENFORCED_TYPES).
      if (applies(instance.version, 'usersOffsetLimit') && pastOffsetLimit(q))
        throw offsetLimitExceeded('User')
      return mapPage({ ...slicePage(rows, page), unlinked }, present)
    },
  }
}
export type UserService = ReturnType<typeof userService>
