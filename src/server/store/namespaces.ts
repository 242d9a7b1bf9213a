import type { Db } from './db.js'
import { rowCache } from './row-cache.js'

export interface NamespaceRow {
  id: number
  kind: 'group' | 'user'
  path: string
  full_path: string
  name: string
  description: string
  parent_id: number | null
  owner_id: number | null
  visibility: string
  created_at: string
}

/** Groups (nested) and users' personal namespaces share one table, as in GitLab. */
/** `version`: changes.ts `structureVersion`; reads by id and path are remembered while it stays. */
export function namespaceTable(db: Db, version: () => number) {
  const insert = db.prepare(
    `INSERT INTO namespaces (kind, path, full_path, name, description, parent_id, owner_id, visibility, created_at)
     VALUES (@kind, @path, @full_path, @name, @description, @parent_id, @owner_id, @visibility, @created_at)`,
  )
  const byId = db.prepare('SELECT * FROM namespaces WHERE id = ?')
  const byPath = db.prepare('SELECT * FROM namespaces WHERE full_path = ?')
  const all = db.prepare('SELECT * FROM namespaces')
  return {
    insert: (n: Omit<NamespaceRow, 'id'>) => Number(insert.run(n).lastInsertRowid),
    get: rowCache(version, (id: number) => byId.get(id) as NamespaceRow | undefined),
    byPath: rowCache(version, (fullPath: string) => byPath.get(fullPath) as NamespaceRow | undefined),
    all: () => all.all() as NamespaceRow[],
  }
}
