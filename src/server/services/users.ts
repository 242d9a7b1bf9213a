import type { CurrentUser, UserBasic, UserListQuery } from '../../schema/index.js'
import { forbidden } from '../gitlab-errors.js'
import {
  comparePlaces,
  cursorPage,
  decodeCursor,
  keysetPerPage,
  mapPage,
  offsetLimitExceeded,
  pageOf,
  pastOffsetLimit,
  rowsAfter,
  slicePage,
  type Cursor,
  type CursorOrder,
  type PageOut,
} from '../pagination.js'
import { presentCurrentUser, presentUser } from '../present/users.js'
import { applies } from '../releases.js'
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

/** The columns of a /users cursor by `order_by`: the column itself, then id (none more for `id`). */
const cursorOrders: Record<string, CursorOrder> = {
  id: { column: null },
  name: { column: 'name' },
  username: { column: 'username' },
  created_at: { column: 'created_at', time: true },
  updated_at: { column: 'updated_at', time: true },
}
/** A user's value of the order column, as stored (the cursor writes times its own way). */
const cursorValue: Record<string, (u: UserRow) => string> = {
  id: (u) => String(u.id),
  name: (u) => u.name,
  username: (u) => u.username,
  created_at: (u) => u.created_at,
  // The store keeps no updated_at: users are ordered by created_at for it (userSortKey).
  updated_at: (u) => u.created_at,
}
/** A cursor's value as the order's sort key (userSortKey) compares it. */
const cursorKey: Record<string, (c: Cursor) => string | number> = {
  id: (c) => c.id,
  name: (c) => c.value.toLowerCase(),
  username: (c) => c.value.toLowerCase(),
  created_at: (c) => c.value,
  updated_at: (c) => c.value,
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
     * `order_by`/`sort` count for administrators only, GitLab drops them for others. From 16.5
     * `pagination=keyset` pages by cursor in any of the orders (rel="next" only, no totals); from 17.0
     * an offset page past 50,000 rows is 405 (lib/api/helpers/pagination_strategies.rb).
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
      const orderBy = (admin && q.order_by) || 'id'
      const key = userSortKey[orderBy] ?? userSortKey.id!
      const dir = admin && q.sort === 'asc' ? 1 : -1
      rows.sort((a, b) => comparePlaces(key(a), a.id, key(b), b.id) * dir)
      const present = (u: UserRow) => (admin ? presentCurrentUser(u, instance) : presentUser(u, instance))
      if (q.pagination === 'keyset') {
        // Every order /users declares has keyset pages both ways (User.supported_keyset_orderings).
        const order = cursorOrders[orderBy] ?? cursorOrders.id!
        const after = decodeCursor(q.cursor, order)
        const rest = rowsAfter(rows, after, key, cursorKey[orderBy] ?? cursorKey.id!, dir)
        return mapPage(
          cursorPage(rest, keysetPerPage(q), order, (u) => ({
            value: cursorValue[orderBy]?.(u) ?? '',
            id: u.id,
          })),
          present,
        )
      }
      const page = pageOf(q)
      // Offset pages of `User` end at the offset limit from 17.0 (`User` joins ENFORCED_TYPES).
      if (applies(instance.version, 'usersOffsetLimit') && pastOffsetLimit(q))
        throw offsetLimitExceeded('User')
      return mapPage(slicePage(rows, page), present)
    },
  }
}
export type UserService = ReturnType<typeof userService>
