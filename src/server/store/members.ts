import type { Db } from './db.js'

export type MemberSource = 'namespace' | 'project'

/** Direct memberships of users in groups and projects; inheritance is the access service's rule. */
export function memberTable(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO members (source_type, source_id, user_id, access_level, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source_type, source_id, user_id) DO UPDATE SET access_level = excluded.access_level`,
  )
  const ofUser = db.prepare('SELECT source_type, source_id, access_level FROM members WHERE user_id = ?')
  return {
    set: (source: MemberSource, sourceId: number, userId: number, level: number, now: string) =>
      upsert.run(source, sourceId, userId, level, now),
    ofUser: (userId: number) =>
      ofUser.all(userId) as { source_type: MemberSource; source_id: number; access_level: number }[],
  }
}
