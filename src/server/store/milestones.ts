import type { Db } from './db.js'

export interface MilestoneRow {
  id: number
  iid: number
  project_id: number
  title: string
  description: string | null
  state: 'active' | 'closed'
  start_date: string | null
  due_date: string | null
  created_at: string
  updated_at: string
}

/** Project milestones. */
export function milestoneTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO milestones (iid, project_id, title, description, state, start_date, due_date, created_at, updated_at)
     VALUES (@iid, @project_id, @title, @description, @state, @start_date, @due_date, @created_at, @updated_at)`,
  )
  const nextIid = db.prepare('SELECT COALESCE(MAX(iid), 0) + 1 AS iid FROM milestones WHERE project_id = ?')
  const byId = db.prepare('SELECT * FROM milestones WHERE id = ?')
  const byTitle = db.prepare('SELECT * FROM milestones WHERE project_id = ? AND title = ?')
  const ofProject = db.prepare('SELECT * FROM milestones WHERE project_id = ? ORDER BY id')
  const update = db.prepare(
    `UPDATE milestones SET title = @title, description = @description, state = @state, start_date = @start_date,
       due_date = @due_date, updated_at = @updated_at WHERE id = @id`,
  )
  const remove = db.prepare('DELETE FROM milestones WHERE id = ?')
  return {
    /** A project's milestones, oldest first. */
    ofProject: (projectId: number) => ofProject.all(projectId) as MilestoneRow[],
    insert: (m: Omit<MilestoneRow, 'id' | 'iid'>) =>
      Number(insert.run({ ...m, iid: (nextIid.get(m.project_id) as { iid: number }).iid }).lastInsertRowid),
    get: (id: number) => byId.get(id) as MilestoneRow | undefined,
    byTitle: (projectId: number, title: string) => byTitle.get(projectId, title) as MilestoneRow | undefined,
    update: (m: Omit<MilestoneRow, 'iid' | 'project_id' | 'created_at'>) => update.run(m),
    /** Deletes the milestone; its issues keep no milestone (the foreign key sets theirs to null). */
    remove: (id: number) => remove.run(id),
  }
}
