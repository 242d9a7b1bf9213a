import type { Db } from './db.js'

export type RelationImportStatus = 'created' | 'started' | 'finished' | 'failed'

export interface RelationImportRow {
  id: number
  project_id: number
  user_id: number
  relation: string
  status: RelationImportStatus
  correlation_id: string
  created_at: string
  updated_at: string
}

/** The trackers of single relation imports (migration 25), one per `POST /projects/import-relation`. */
export function relationImportTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO relation_import_trackers (project_id, user_id, relation, status, correlation_id, created_at, updated_at)
     VALUES (@project_id, @user_id, @relation, 'created', @correlation_id, @now, @now)`,
  )
  const get = db.prepare('SELECT * FROM relation_import_trackers WHERE id = ?')
  const byProject = db.prepare('SELECT * FROM relation_import_trackers WHERE project_id = ? ORDER BY id')
  const running = db.prepare(
    `SELECT 1 FROM relation_import_trackers
     WHERE project_id = ? AND status IN ('created', 'started') AND created_at > ? LIMIT 1`,
  )
  const setStatus = db.prepare('UPDATE relation_import_trackers SET status = ?, updated_at = ? WHERE id = ?')
  const unfinished = db.prepare(
    "SELECT id FROM relation_import_trackers WHERE status IN ('created', 'started') ORDER BY id",
  )
  return {
    insert: (
      row: Pick<RelationImportRow, 'project_id' | 'user_id' | 'relation' | 'correlation_id'> & {
        now: string
      },
    ) => Number(insert.run(row).lastInsertRowid),
    get: (id: number) => get.get(id) as RelationImportRow | undefined,
    /** A project's trackers, oldest first (GitLab's `has_many` order: by id). */
    byProject: (projectId: number) => byProject.all(projectId) as RelationImportRow[],
    /** True when one of the project's trackers is created or started and newer than `since` (not stale). */
    running: (projectId: number, since: string) => running.get(projectId, since) !== undefined,
    setStatus: (id: number, status: RelationImportStatus, now: string) => setStatus.run(status, now, id),
    unfinished: () => (unfinished.all() as { id: number }[]).map((r) => r.id),
  }
}
export type RelationImportTable = ReturnType<typeof relationImportTable>
