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
  const byEmail = db.prepare('SELECT * FROM users WHERE lower(email) = lower(?)')
  const insertToken = db.prepare(
    'INSERT INTO personal_access_tokens (user_id, token_digest, name, expires_at, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  const insertDetails = db.prepare(
    'INSERT INTO personal_access_token_details (token_id, scopes) VALUES (?, ?)',
  )
  const insertKind = db.prepare(
    'INSERT INTO access_token_kinds (token_id, impersonation, description) VALUES (?, ?, ?)',
  )
  const touchToken = db.prepare(
    `INSERT INTO token_last_used (token_id, last_used_at) VALUES (?, ?)
     ON CONFLICT (token_id) DO UPDATE SET last_used_at = excluded.last_used_at`,
  )
  const byToken = db.prepare(
    `SELECT t.id AS token_id, t.expires_at AS token_expires_at, d.scopes AS token_scopes,
       COALESCE(l.last_used_at, d.last_used_at) AS token_last_used_at, u.*
     FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
     LEFT JOIN personal_access_token_details d ON d.token_id = t.id
     LEFT JOIN token_last_used l ON l.token_id = t.id
     WHERE t.token_digest = ? AND t.revoked = 0`,
  )
  const tokenById = db.prepare(`${TOKEN_COLUMNS} WHERE t.id = ?`)
  const tokensOf = db.prepare(`${TOKEN_COLUMNS} WHERE t.user_id = ? ORDER BY t.id`)
  const allTokens = db.prepare(`${TOKEN_COLUMNS} ORDER BY t.id`)
  const revokeToken = db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?')
  const profileOf = db.prepare('SELECT * FROM user_profiles WHERE user_id = ?')
  const saveProfile = db.prepare(
    `INSERT OR REPLACE INTO user_profiles (user_id, bio, can_create_group, projects_limit, external, private_profile)
     VALUES (@user_id, @bio, @can_create_group, @projects_limit, @external, @private_profile)`,
  )
  const remove = db.prepare('DELETE FROM users WHERE id = ?')
  /** Every column that names a user without `ON DELETE CASCADE`: a deleted user's contributions. */
  const contributionColumns = () =>
    db
      .prepare(
        `SELECT m.name AS tbl, f."from" AS col FROM sqlite_master m, pragma_foreign_key_list(m.name) f
         WHERE m.type = 'table' AND f."table" = 'users' AND f.on_delete <> 'CASCADE'`,
      )
      .all() as { tbl: string; col: string }[]
  // Every request of a client carries the same token: its owner (two digests and a join) is looked up
  // once while `version` stays, which any revoke, expiry date, block or deletion moves.
  const tokens = rowCache(version, (token: string): TokenOwner | undefined => {
    const row = byToken.get(tokenDigest(token)) as
      | (UserRow & {
          token_id: number
          token_expires_at: string | null
          token_scopes: string | null
          token_last_used_at: string | null
        })
      | undefined
    if (!row) return undefined
    const {
      token_id: tokenId,
      token_expires_at: expiresAt,
      token_scopes: scopes,
      token_last_used_at: lastUsedAt,
      ...user
    } = row
    return {
      user: Object.freeze(user),
      expiresAt,
      tokenId,
      lastUsedAt,
      scopes: scopes === null ? null : Object.freeze(JSON.parse(scopes) as string[]),
    }
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
    byEmail: (email: string) => byEmail.get(email) as UserRow | undefined,
    /** Sets the given columns of a user's row. */
    set: (id: number, u: Partial<Pick<UserRow, 'username' | 'name' | 'email' | 'state' | 'admin'>>) => {
      const keys = (['username', 'name', 'email', 'state', 'admin'] as const).filter(
        (k) => u[k] !== undefined,
      )
      if (keys.length === 0) return
      db.prepare(`UPDATE users SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({
        ...Object.fromEntries(keys.map((k) => [k, u[k]])),
        id,
      })
    },
    /** Deletes a user; its tokens, memberships and the like go with it (`ON DELETE CASCADE`). */
    remove: (id: number) => remove.run(id),
    /** Hands every contribution of user `from` (issues, notes, pipelines...) to user `to`. */
    reassign: (from: number, to: number) => {
      for (const { tbl, col } of contributionColumns())
        db.prepare(`UPDATE "${tbl}" SET "${col}" = ? WHERE "${col}" = ?`).run(to, from)
    },
    profile: (id: number) => profileOf.get(id) as UserProfileRow | undefined,
    setProfile: (p: UserProfileRow) => saveProfile.run({ ...p }),
    /**
     * Adds a token; `scopes` for one made through the API (a seeded token has every scope), with an
     * `impersonation` flag and a `description` when given.
     */
    addToken: (
      userId: number,
      token: string,
      name: string,
      now: string,
      more?: { scopes: string[]; expiresAt: string | null; impersonation?: boolean; description?: string },
    ) => {
      const id = Number(
        insertToken.run(userId, tokenDigest(token), name, more?.expiresAt ?? null, now).lastInsertRowid,
      )
      if (more) insertDetails.run(id, JSON.stringify(more.scopes))
      if (more?.impersonation || more?.description !== undefined)
        insertKind.run(id, more.impersonation ? 1 : 0, more.description ?? null)
      return id
    },
    /** Records that a token authenticated at `now`. */
    touchToken: (id: number, now: string) => touchToken.run(id, now),
    token: (id: number) => tokenById.get(id) as TokenRow | undefined,
    /** A user's tokens, or every user's, by id. */
    tokens: (userId?: number) =>
      (userId === undefined ? allTokens.all() : tokensOf.all(userId)) as TokenRow[],
    revokeToken: (id: number) => revokeToken.run(id),
    /** The user an unrevoked personal access token belongs to, and when the token expires. */
    tokenOwner: tokens,
  }
}

export interface TokenOwner {
  user: Readonly<UserRow>
  /** To compare on every use: a token expires without any write to the store. */
  expiresAt: string | null
  tokenId: number
  /** When the token last authenticated (written at most every few minutes: authentication.ts). */
  lastUsedAt: string | null
  /** The token's scopes; null for a seeded token, which has them all. */
  scopes: readonly string[] | null
}

export interface UserProfileRow {
  user_id: number
  bio: string
  can_create_group: number
  projects_limit: number
  external: number
  private_profile: number
}

/** A personal access token with its details (`scopes` a JSON array, null for a seeded token). */
export interface TokenRow {
  id: number
  user_id: number
  name: string
  revoked: number
  expires_at: string | null
  created_at: string
  scopes: string | null
  last_used_at: string | null
  /** 1 for an impersonation token. */
  impersonation: number
  description: string | null
}

/**
 * The columns of a `TokenRow`, from a token, its details, its kind and its last use; `FROM` aliases
 * the tokens `t` for the `WHERE` that follows.
 */
export const TOKEN_COLUMNS = `SELECT t.id, t.user_id, t.name, t.revoked, t.expires_at, t.created_at, d.scopes,
     COALESCE(l.last_used_at, d.last_used_at) AS last_used_at, COALESCE(k.impersonation, 0) AS impersonation,
     k.description
     FROM personal_access_tokens t LEFT JOIN personal_access_token_details d ON d.token_id = t.id
     LEFT JOIN access_token_kinds k ON k.token_id = t.id LEFT JOIN token_last_used l ON l.token_id = t.id`
