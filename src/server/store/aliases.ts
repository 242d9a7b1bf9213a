import type { Db } from './db.js'

export interface AliasRow {
  id: number
  project_id: number
  name: string
}

/** Project aliases (`ee/app/models/project_alias.rb`): names unique instance-wide. */
export function aliasTable(db: Db) {
  const insert = db.prepare('INSERT INTO project_aliases (project_id, name) VALUES (?, ?)')
  const page = db.prepare('SELECT * FROM project_aliases ORDER BY id LIMIT ? OFFSET ?')
  const count = db.prepare('SELECT COUNT(*) FROM project_aliases').pluck()
  const byName = db.prepare('SELECT * FROM project_aliases WHERE name = ?')
  const remove = db.prepare('DELETE FROM project_aliases WHERE id = ?')
  return {
    insert: (projectId: number, name: string) => Number(insert.run(projectId, name).lastInsertRowid),
    page: (limit: number, offset: number) => page.all(limit, offset) as AliasRow[],
    count: () => count.get() as number,
    byName: (name: string) => byName.get(name) as AliasRow | undefined,
    remove: (id: number) => remove.run(id),
  }
}
