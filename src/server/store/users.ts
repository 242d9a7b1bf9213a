import type { Db } from './db.js'
import { rowCache } from './row-cache.js'
import type { TokenDigest } from './token-digests.js'

export interface UserRow {
  id: number
  username: string
  name: string
  email: string | null
  state: string
  admin: number
  created_at: string
}

/**
 * The users and personal access tokens tables. `version`: changes.ts `structureVersion`; users by
 * id and name, and token owners, are remembered while it stays. Tokens are kept as `tokenDigest`s.
 */
export function userTable(db: Db, version: () => number, tokenDigest: TokenDigest) {
  const insert = db.prepare(
    'INSERT INTO users (username, name, email, state, admin, created_at) VALUES (@username, @name, @email, @state, @admin, @created_at)',
  )
  const byId = db.prepare('SELECT * FROM users WHERE id = ?')
  const byUsername = db.prepare('SELECT * FROM users WHERE username = ?')
  const all = db.prepare('SELECT * FROM users ORDER BY id')
  const insertToken = db.prepare(
    'INSERT INTO personal_access_tokens (user_id, token_digest, name, created_at) VALUES (?, ?, ?, ?)',
  )
  const byToken = db.prepare(
    `SELECT t.expires_at AS token_expires_at, u.* FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_digest = ? AND t.revoked = 0`,
  )
  // Every request of a client carries the same token: its owner (two digests and a join) is looked up
  // once while `version` stays, which any revoke, expiry date, block or deletion moves.
  const tokens = rowCache(version, (token: string): TokenOwner | undefined => {
    const row = byToken.get(tokenDigest(token)) as (UserRow & { token_expires_at: string | null }) | undefined
    if (!row) return undefined
    const { token_expires_at: expiresAt, ...user } = row
    return { user: Object.freeze(user), expiresAt }
  })
  return {
    insert: (u: {
      username: string
      name: string
      email: string | null
      state?: string
      admin: boolean
      created_at: string
    }) => Number(insert.run({ state: 'active', ...u, admin: u.admin ? 1 : 0 }).lastInsertRowid),
    get: rowCache(version, (id: number) => byId.get(id) as UserRow | undefined),
    byUsername: rowCache(version, (username: string) => byUsername.get(username) as UserRow | undefined),
    all: () => all.all() as UserRow[],
    addToken: (userId: number, token: string, name: string, now: string) =>
      insertToken.run(userId, tokenDigest(token), name, now),
    /** The user an unrevoked personal access token belongs to, and when the token expires. */
    tokenOwner: tokens,
  }
}

export interface TokenOwner {
  user: Readonly<UserRow>
  /** To compare on every use: a token expires without any write to the store. */
  expiresAt: string | null
}
