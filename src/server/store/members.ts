import type { Db } from './db.js'
import { rowCache } from './row-cache.js'

export type MemberSource = 'namespace' | 'project'

/**
 * Direct memberships of users in groups and projects; inheritance is the access service's rule.
 * `version`: changes.ts `structureVersion`; a user's levels are remembered while it stays.
 */
export function memberTable(db: Db, version: () => number) {
  const upsert = db.prepare(
    `INSERT INTO members (source_type, source_id, user_id, access_level, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source_type, source_id, user_id) DO UPDATE SET access_level = excluded.access_level`,
  )
  const ofUser = db.prepare('SELECT source_type, source_id, access_level FROM members WHERE user_id = ?')
  const rowsOf = db.prepare(
    'SELECT source_type, source_id, access_level FROM members WHERE user_id = ? ORDER BY rowid',
  )
  const atLevel = db
    .prepare('SELECT COUNT(*) FROM members WHERE source_type = ? AND source_id = ? AND access_level = ?')
    .pluck()
  const levels = rowCache(version, (userId: number) => {
    const rows = ofUser.all(userId) as {
      source_type: MemberSource
      source_id: number
      access_level: number
    }[]
    return new Map(rows.map((m) => [`${m.source_type}:${m.source_id}`, m.access_level]))
  })
  return {
    set: (source: MemberSource, sourceId: number, userId: number, level: number, now: string) =>
      upsert.run(source, sourceId, userId, level, now),
    /** A user's direct access level in each source, keyed `namespace:<id>` or `project:<id>`. */
    levelsOf: (userId: number): ReadonlyMap<string, number> => levels(userId) ?? new Map(),
    /** A user's direct memberships, in the order they were made. */
    rowsOf: (userId: number) =>
      rowsOf.all(userId) as { source_type: MemberSource; source_id: number; access_level: number }[],
    /** How many direct members a source has at `level`. */
    countAt: (source: MemberSource, sourceId: number, level: number) =>
      Number(atLevel.get(source, sourceId, level)),
  }
}
