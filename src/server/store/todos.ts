import type { Db } from './db.js'

export interface TodoRow {
  id: number
  user_id: number
  author_id: number
  project_id: number
  issue_id: number
  action: string
  state: string
  body: string
  created_at: string
  updated_at: string
}

/** To-do items of users on issues. */
export function todoTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO todos (user_id, author_id, project_id, issue_id, action, state, body, created_at, updated_at)
     VALUES (@user_id, @author_id, @project_id, @issue_id, @action, @state, @body, @created_at, @updated_at)`,
  )
  const pending = db.prepare(
    "SELECT * FROM todos WHERE user_id = ? AND issue_id = ? AND state = 'pending' ORDER BY id LIMIT 1",
  )
  const byId = db.prepare('SELECT * FROM todos WHERE id = ?')
  const ofUser = db.prepare('SELECT * FROM todos WHERE user_id = ? ORDER BY id')
  const resolve = db.prepare("UPDATE todos SET state = 'done', updated_at = ? WHERE id = ?")
  const resolveAll = db.prepare(
    "UPDATE todos SET state = 'done', updated_at = ? WHERE user_id = ? AND issue_id = ? AND state = 'pending'",
  )
  return {
    insert: (todo: Omit<TodoRow, 'id'>) => Number(insert.run(todo).lastInsertRowid),
    get: (id: number) => byId.get(id) as TodoRow | undefined,
    /** The user's pending to-do on the issue, if any. */
    pending: (userId: number, issueId: number) => pending.get(userId, issueId) as TodoRow | undefined,
    ofUser: (userId: number) => ofUser.all(userId) as TodoRow[],
    /** Marks one to-do done. */
    resolve: (id: number, now: string) => void resolve.run(now, id),
    /** Marks all the user's pending to-dos on the issue done. */
    resolveAll: (userId: number, issueId: number, now: string) => void resolveAll.run(now, userId, issueId),
  }
}
