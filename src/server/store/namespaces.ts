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
  const ofUser = db.prepare("SELECT * FROM namespaces WHERE kind = 'user' AND owner_id = ?")
  const renameOne = db.prepare('UPDATE namespaces SET path = ?, full_path = ?, name = ? WHERE id = ?')
  const renameProjects = db.prepare("UPDATE projects SET full_path = ? || '/' || path WHERE namespace_id = ?")
  const projectCount = db.prepare('SELECT COUNT(*) FROM projects WHERE namespace_id = ?').pluck()
  const remove = db.prepare('DELETE FROM namespaces WHERE id = ?')
  return {
    insert: (n: Omit<NamespaceRow, 'id'>) => Number(insert.run(n).lastInsertRowid),
    get: rowCache(version, (id: number) => byId.get(id) as NamespaceRow | undefined),
    byPath: rowCache(version, (fullPath: string) => byPath.get(fullPath) as NamespaceRow | undefined),
    all: () => all.all() as NamespaceRow[],
    /** A user's personal namespace. */
    ofUser: (userId: number) => ofUser.get(userId) as NamespaceRow | undefined,
    /** Renames a user's personal namespace, and the paths of its projects with it. */
    renameUserNamespace: (id: number, path: string, name: string) => {
      renameOne.run(path, path, name, id)
      renameProjects.run(path, id)
    },
    projectCount: (id: number) => Number(projectCount.get(id)),
    remove: (id: number) => remove.run(id),
  }
}
