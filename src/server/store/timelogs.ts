import type { Db } from './db.js'

export interface TimelogRow {
  id: number
  issue_id: number
  user_id: number
  time_spent: number
  summary: string | null
  spent_at: string
  created_at: string
}

/** Time spent on issues, one row per `add_spent_time` (negative rows subtract). */
export function timelogTable(db: Db) {
  // Bound by position, as notes.ts binds its insert.
  const insert = db.prepare(
    `INSERT INTO timelogs (issue_id, user_id, time_spent, summary, spent_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  )
  const ofIssue = db.prepare('SELECT * FROM timelogs WHERE issue_id = ? ORDER BY id')
  return {
    insert: (log: Omit<TimelogRow, 'id'>) =>
      Number(
        insert.run(log.issue_id, log.user_id, log.time_spent, log.summary, log.spent_at, log.created_at)
          .lastInsertRowid,
      ),
    ofIssue: (issueId: number) => ofIssue.all(issueId) as TimelogRow[],
  }
}
