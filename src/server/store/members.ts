import type { Db, Statement } from './db.js'
import { rowCache } from './row-cache.js'

export type MemberSource = 'namespace' | 'project'

/** One source of memberships, and how far it is from the one asked about (0: itself). */
export interface MemberSourceRef {
  type: MemberSource
  id: number
  depth: number
  /**
   * A membership the source has without a row: the owner of a personal project (GitLab stores it as
   * the project's first member, Owner). It comes before every stored one.
   */
  implicit?: { userId: number; level: number; createdAt: string }
  /** The highest level a membership of this source gives: a share's `group_access`. */
  cap?: number
}

/** A membership as the members API shows it: the row and its terms. */
export interface MemberRow {
  source_type: MemberSource
  source_id: number
  user_id: number
  access_level: number
  created_at: string
  expires_at: string | null
  created_by_id: number | null
}

/** Which members of a list: `query` words each part of the name or each of the username, or `email` exactly. */
export interface MemberFilter {
  words?: string[]
  email?: string
  userIds?: number[]
  skipUsers?: number[]
  /** Only users whose best membership has this level. */
  level?: number
}

const TERMS = `LEFT JOIN member_terms t
  ON t.source_type = m.source_type AND t.source_id = m.source_id AND t.user_id = m.user_id`
const MEMBER_COLUMNS = `m.source_type, m.source_id, m.user_id, m.access_level, m.created_at, t.expires_at, t.created_by_id`
// A member reached through a share has at most the share's level (`smallest_value_arel` in GitLab).
const CAPPED_COLUMNS = MEMBER_COLUMNS.replace(
  'm.access_level',
  'min(m.access_level, coalesce(src.cap, m.access_level)) AS access_level',
)
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Direct memberships of users in groups and projects; inheritance is the access service's rule.
 * `version`: changes.ts `structureVersion`; a user's levels are remembered while it stays and the day does.
 */
export function memberTable(db: Db, version: () => number) {
  const upsert = db.prepare(
    `INSERT INTO members (source_type, source_id, user_id, access_level, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source_type, source_id, user_id) DO UPDATE SET access_level = excluded.access_level`,
  )
  // A membership whose `expires_at` is today or before gives no access (`Member#expired?`).
  const ofUser = db.prepare(
    `SELECT m.source_type, m.source_id, m.access_level FROM members m ${TERMS}
     WHERE m.user_id = ? AND (t.expires_at IS NULL OR t.expires_at > ?)`,
  )
  const rowsOf = db.prepare(
    'SELECT source_type, source_id, access_level FROM members WHERE user_id = ? ORDER BY rowid',
  )
  const atLevel = db
    .prepare('SELECT COUNT(*) FROM members WHERE source_type = ? AND source_id = ? AND access_level = ?')
    .pluck()
  const one = db.prepare(
    `SELECT ${MEMBER_COLUMNS} FROM members m ${TERMS} WHERE m.source_type = ? AND m.source_id = ? AND m.user_id = ?`,
  )
  const setTerms = db.prepare(
    `INSERT INTO member_terms (source_type, source_id, user_id, expires_at, created_by_id) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source_type, source_id, user_id) DO UPDATE SET expires_at = excluded.expires_at`,
  )
  const removeOne = db.prepare('DELETE FROM members WHERE source_type = ? AND source_id = ? AND user_id = ?')
  const removeBelow = db.prepare(
    `DELETE FROM members WHERE user_id = ? AND (
       (source_type = 'namespace' AND source_id IN (SELECT id FROM namespaces WHERE full_path LIKE ? ESCAPE '\\'))
       OR (source_type = 'project' AND source_id IN (SELECT id FROM projects WHERE full_path LIKE ? ESCAPE '\\')))`,
  )
  const unassign = db.prepare(
    `DELETE FROM issue_assignees WHERE user_id = ? AND issue_id IN (
       SELECT i.id FROM issues i JOIN projects p ON p.id = i.project_id
       WHERE p.id = ? OR p.full_path LIKE ? ESCAPE '\\')`,
  )
  const levels = rowCache(version, (key: string) => {
    const [userId, day] = key.split('|')
    const rows = ofUser.all(Number(userId), day) as {
      source_type: MemberSource
      source_id: number
      access_level: number
    }[]
    return new Map(rows.map((m) => [`${m.source_type}:${m.source_id}`, m.access_level]))
  })
  let today = () => new Date().toISOString().slice(0, 10)

  /** Lists over sources differ in their number of sources and filters: one statement per shape. */
  const statements = new Map<string, Statement>()
  const prepared = (sql: string) => {
    let s = statements.get(sql)
    if (!s) {
      if (statements.size > 200) statements.clear()
      statements.set(sql, (s = db.prepare(sql)))
    }
    return s
  }
  /**
   * The best membership per user over `sources` (the highest level, the nearest source on a tie),
   * filtered: the SQL and its arguments, in the order the memberships were made.
   */
  const bestOf = (sources: readonly MemberSourceRef[], f: MemberFilter) => {
    const args: (string | number | null)[] = sources.flatMap((s) => [s.type, s.id, s.depth, s.cap ?? null])
    const implicit = sources.flatMap((s) =>
      s.implicit ? [[s.type, s.id, s.implicit.userId, s.implicit.level, s.implicit.createdAt, s.depth]] : [],
    )
    for (const row of implicit) args.push(...row)
    const where = ['b.n = 1']
    if (f.userIds) {
      where.push(`b.user_id IN (${f.userIds.map(() => '?').join(', ') || 'NULL'})`)
      args.push(...f.userIds)
    }
    if (f.level !== undefined) {
      where.push('b.access_level = ?')
      args.push(f.level)
    }
    if (f.skipUsers?.length) {
      where.push(`b.user_id NOT IN (${f.skipUsers.map(() => '?').join(', ')})`)
      args.push(...f.skipUsers)
    }
    if (f.words) {
      const all = (column: string) =>
        f.words!.map(() => `u.${column} LIKE ? ESCAPE '\\'`).join(' AND ') || 'FALSE'
      const likes = f.words.map((w) => `%${escapeLike(w)}%`)
      where.push(
        `((${all('name')}) OR (${all('username')})${f.email !== undefined ? ' OR lower(u.email) = ?' : ''})`,
      )
      args.push(...likes, ...likes, ...(f.email !== undefined ? [f.email] : []))
    }
    const sql = `WITH src(source_type, source_id, depth, cap) AS (VALUES ${sources.map(() => '(?, ?, ?, ?)').join(', ')}),
      r AS (SELECT ${CAPPED_COLUMNS}, m.rowid AS member_id, src.depth
            FROM src JOIN members m ON m.source_type = src.source_type AND m.source_id = src.source_id ${TERMS}
            ${implicit.map(() => 'UNION ALL SELECT ?, ?, ?, ?, ?, NULL, NULL, 0, ?').join(' ')}),
      b AS (SELECT r.*, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY access_level DESC, depth, member_id) AS n
            FROM r)
      SELECT b.source_type, b.source_id, b.user_id, b.access_level, b.created_at, b.expires_at, b.created_by_id
      FROM b JOIN users u ON u.id = b.user_id WHERE ${where.join(' AND ')}`
    return { sql, args }
  }

  return {
    set: (source: MemberSource, sourceId: number, userId: number, level: number, now: string) =>
      upsert.run(source, sourceId, userId, level, now),
    /** Where `levelsOf` reads today's date (the server's clock; start/open-state.ts hands it over). */
    useToday(fn: () => string) {
      today = fn
    },
    /** A user's unexpired direct access level in each source, keyed `namespace:<id>` or `project:<id>`. */
    levelsOf: (userId: number): ReadonlyMap<string, number> => levels(`${userId}|${today()}`) ?? new Map(),
    /** A user's direct memberships, in the order they were made. */
    rowsOf: (userId: number) =>
      rowsOf.all(userId) as { source_type: MemberSource; source_id: number; access_level: number }[],
    /** How many direct members a source has at `level`. */
    countAt: (source: MemberSource, sourceId: number, level: number) =>
      Number(atLevel.get(source, sourceId, level)),
    /** One direct membership with its terms. */
    get: (source: MemberSource, sourceId: number, userId: number) =>
      one.get(source, sourceId, userId) as MemberRow | undefined,
    /** A page of the best memberships per user over `sources`, as `bestOf` picks them. */
    page(
      sources: readonly MemberSourceRef[],
      filter: MemberFilter,
      limit: number,
      offset: number,
    ): MemberRow[] {
      const { sql, args } = bestOf(sources, filter)
      return prepared(`${sql} ORDER BY b.member_id LIMIT ? OFFSET ?`).all(
        ...args,
        limit,
        offset,
      ) as MemberRow[]
    },
    /** How many users `page` lists in all, counted up to `max`. */
    count(sources: readonly MemberSourceRef[], filter: MemberFilter, max: number): number {
      const { sql, args } = bestOf(sources, filter)
      return Number(
        prepared(`SELECT COUNT(*) FROM (${sql} LIMIT ?)`)
          .pluck()
          .get(...args, max),
      )
    },
    /** Sets a membership's expiry, and its creator when the terms are new. */
    setTerms: (
      source: MemberSource,
      sourceId: number,
      userId: number,
      expiresAt: string | null,
      by: number | null,
    ) => setTerms.run(source, sourceId, userId, expiresAt, by),
    /** Removes one direct membership (its terms go with it). */
    remove: (source: MemberSource, sourceId: number, userId: number) =>
      removeOne.run(source, sourceId, userId),
    /** Removes a user's direct memberships of the groups and projects below the group at `fullPath`. */
    removeBelow: (userId: number, fullPath: string) => {
      const below = `${escapeLike(fullPath)}/%`
      removeBelow.run(userId, below, below)
    },
    /** Unassigns a user from the issues of one project (`projectId`) or of the projects below a group. */
    unassign: (userId: number, scope: { projectId: number } | { groupPath: string }) =>
      'projectId' in scope
        ? unassign.run(userId, scope.projectId, '')
        : unassign.run(userId, 0, `${escapeLike(scope.groupPath)}/%`),
  }
}
