import { createHash } from 'node:crypto'
import type { Db } from './db.js'

export interface UserRow {
  id: number
  username: string
  name: string
  email: string | null
  state: string
  admin: number
  created_at: string
}

/** Tokens are kept as SHA-256 digests: a stolen store file reveals no usable token. */
export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex')

/** The users and personal access tokens tables. */
export function userTable(db: Db) {
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
    `SELECT u.* FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_digest = ? AND t.revoked = 0 AND (t.expires_at IS NULL OR t.expires_at > ?)`,
  )
  return {
    insert: (u: {
      username: string
      name: string
      email: string | null
      state?: string
      admin: boolean
      created_at: string
    }) => Number(insert.run({ state: 'active', ...u, admin: u.admin ? 1 : 0 }).lastInsertRowid),
    get: (id: number) => byId.get(id) as UserRow | undefined,
    byUsername: (username: string) => byUsername.get(username) as UserRow | undefined,
    all: () => all.all() as UserRow[],
    addToken: (userId: number, token: string, name: string, now: string) =>
      insertToken.run(userId, tokenDigest(token), name, now),
    /** The active user a personal access token belongs to. */
    byToken: (token: string, now: string) => byToken.get(tokenDigest(token), now) as UserRow | undefined,
  }
}
