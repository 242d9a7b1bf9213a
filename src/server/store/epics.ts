import type { Db } from './db.js'

export interface EpicRow {
  id: number
  iid: number
  group_id: number
  group_path: string
  title: string
  description: string | null
  author_id: number | null
  created_at: string
}

/** `[paid]` group epics: issues point at them, `/promote` creates them. */
export function epicTable(db: Db) {
  const byId = db.prepare(
    'SELECT e.*, n.full_path AS group_path FROM epics e JOIN namespaces n ON n.id = e.group_id WHERE e.id = ?',
  )
  const byIid = db.prepare(
    'SELECT e.*, n.full_path AS group_path FROM epics e JOIN namespaces n ON n.id = e.group_id WHERE e.group_id = ? AND e.iid = ?',
  )
  const insert = db.prepare(
    `INSERT INTO epics (iid, group_id, title, description, author_id, created_at)
     VALUES ((SELECT COALESCE(MAX(iid), 0) + 1 FROM epics WHERE group_id = ?), ?, ?, ?, ?, ?)`,
  )
  return {
    get: (id: number) => byId.get(id) as EpicRow | undefined,
    byIid: (groupId: number, iid: number) => byIid.get(groupId, iid) as EpicRow | undefined,
    insert: (groupId: number, title: string, description: string | null, authorId: number, now: string) =>
      Number(insert.run(groupId, groupId, title, description, authorId, now).lastInsertRowid),
  }
}
