import { createHash, createHmac } from 'node:crypto'
import type { Db } from './db.js'

/** The digest a token is looked up by: personal access, trigger, job, runner and registration tokens. */
export type TokenDigest = (token: string) => string

/** Every table that keeps tokens as digests (column `token_digest`). */
const TABLES = ['personal_access_tokens', 'triggers', 'ci_builds', 'runner_registration_tokens', 'ci_runners']
/** An older release's digest: a plain SHA-256 in 64 hex characters (a keyed one is 44 base64 characters). */
const LEGACY = 'length(token_digest) = 64'

/**
 * Token digests keyed with the instance's secret, as GitLab keys its own with `db_key_base`
 * (`Gitlab::CryptoHelper.sha256`, base64 as here): without the key (in gitlab-secrets.json, apart
 * from the database), a copy of `gitlab.sqlite3` cannot be searched for a guessable token. The
 * digest is an HMAC-SHA256 of the token's SHA-256 under a key of its own derived from `dbKeyBase`
 * (which also seals secrets with AES-GCM), so that the plain SHA-256 digests of older releases can
 * be keyed in place, without the tokens (`keyLegacyDigests`).
 */
export function tokenDigest(dbKeyBase: Buffer): TokenDigest {
  const keyed = keyedDigest(dbKeyBase)
  return (token) => keyed(createHash('sha256').update(token).digest('hex'))
}

/** The keyed digest of a token whose plain SHA-256 (hex) is `legacy`. */
function keyedDigest(dbKeyBase: Buffer): (legacy: string) => string {
  const key = createHmac('sha256', dbKeyBase).update('token digests').digest()
  return (legacy) => createHmac('sha256', key).update(legacy).digest('base64')
}

/**
 * Keys the plain digests an older release wrote, in one transaction, at start: a data dir of that
 * release keeps every token working and keeps none a copy of its database alone gives up. Only
 * such digests are rewritten (found by their length), so running it again changes nothing.
 */
export function keyLegacyDigests(db: Db, dbKeyBase: Buffer): void {
  const legacy = TABLES.map((table) => ({
    table,
    rows: db.prepare(`SELECT rowid AS id, token_digest FROM ${table} WHERE ${LEGACY}`).all() as {
      id: number
      token_digest: string
    }[],
  })).filter(({ rows }) => rows.length > 0)
  if (legacy.length === 0) return
  const key = keyedDigest(dbKeyBase)
  db.transaction(() => {
    for (const { table, rows } of legacy) {
      const update = db.prepare(`UPDATE ${table} SET token_digest = ? WHERE rowid = ?`)
      for (const row of rows) update.run(key(row.token_digest), row.id)
    }
  })
}

/** Whether the store holds digests keyed with its key (which are useless without that key). */
export function hasKeyedDigests(db: Db): boolean {
  return TABLES.some((table) => db.prepare(`SELECT 1 FROM ${table} WHERE NOT ${LEGACY} LIMIT 1`).get())
}
