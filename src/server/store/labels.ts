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
  const byId = db.prepare('SELECT * FROM labels WHERE id = ?')
  const update = db.prepare(
    'UPDATE labels SET title = @title, color = @color, description = @description WHERE id = @id',
  )
  const setPriority = db.prepare('UPDATE labels SET priority = ? WHERE id = ?')
  const remove = db.prepare('DELETE FROM labels WHERE id = ?')
  const subscribed = db.prepare('SELECT 1 FROM label_subscriptions WHERE label_id = ? AND user_id = ?')
  const subscribe = db.prepare('INSERT OR IGNORE INTO label_subscriptions (label_id, user_id) VALUES (?, ?)')
  const unsubscribe = db.prepare('DELETE FROM label_subscriptions WHERE label_id = ? AND user_id = ?')
  const subscribedOf = db.prepare(
    'SELECT s.label_id FROM label_subscriptions s JOIN labels l ON l.id = s.label_id WHERE l.project_id = ? AND s.user_id = ?',
  )
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
    get: (id: number) => byId.get(id) as LabelRow | undefined,
    update: (id: number, l: Pick<LabelRow, 'title' | 'color' | 'description'>) => update.run({ id, ...l }),
    setPriority: (id: number, priority: number | null) => setPriority.run(priority, id),
    remove: (id: number) => remove.run(id),
    subscribed: (labelId: number, userId: number) => subscribed.get(labelId, userId) !== undefined,
    subscribe: (labelId: number, userId: number) => subscribe.run(labelId, userId),
    unsubscribe: (labelId: number, userId: number) => unsubscribe.run(labelId, userId),
    /** Ids of the project's labels the user subscribed to. */
    subscribedIn: (projectId: number, userId: number) =>
      new Set((subscribedOf.all(projectId, userId) as { label_id: number }[]).map((r) => r.label_id)),
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
