import type { Db } from './db.js'

export interface LabelRow {
  id: number
  project_id: number
  title: string
  color: string
  description: string | null
  priority: number | null
  created_at: string
}

/** Project labels; titles are unique per project and matched exactly. */
export function labelTable(db: Db) {
  const insert = db.prepare(
    'INSERT INTO labels (project_id, title, color, description, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  const byTitle = db.prepare('SELECT * FROM labels WHERE project_id = ? AND title = ?')
  const ofProject = db.prepare('SELECT * FROM labels WHERE project_id = ?')
  const ofIssues = (n: number) =>
    db.prepare(
      `SELECT il.issue_id, l.* FROM issue_labels il JOIN labels l ON l.id = il.label_id
       WHERE il.issue_id IN (${Array(n).fill('?').join(',')}) ORDER BY l.title`,
    )
  const cache = new Map<number, ReturnType<typeof ofIssues>>()
  return {
    insert: (projectId: number, title: string, color: string, description: string | null, now: string) =>
      Number(insert.run(projectId, title, color, description, now).lastInsertRowid),
    byTitle: (projectId: number, title: string) => byTitle.get(projectId, title) as LabelRow | undefined,
    /** Ids of every label with this exact title, in any project (list filters match by title). */
    ofProject: (projectId: number) => ofProject.all(projectId) as LabelRow[],
    /** Labels of many issues at once, sorted by title (GitLab sorts issue labels alphabetically). */
    ofIssues: (issueIds: number[]) => {
      if (issueIds.length === 0) return [] as (LabelRow & { issue_id: number })[]
      let stmt = cache.get(issueIds.length)
      if (!stmt) cache.set(issueIds.length, (stmt = ofIssues(issueIds.length)))
      return stmt.all(...issueIds) as (LabelRow & { issue_id: number })[]
    },
  }
}
