import type { Db } from './db.js'

export interface NoteRow {
  id: number
  issue_id: number
  author_id: number
  body: string
  system: number
  internal: number
  created_at: string
  updated_at: string
}

export type NewNote = Omit<NoteRow, 'id'>

/** Comments and system notes on issues; a user note also counts in `issues.user_notes_count`. */
export function noteTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO notes (issue_id, author_id, body, system, internal, created_at, updated_at)
     VALUES (@issue_id, @author_id, @body, @system, @internal, @created_at, @updated_at)`,
  )
  const bump = db.prepare('UPDATE issues SET user_notes_count = user_notes_count + 1 WHERE id = ?')
  const drop = db.prepare('UPDATE issues SET user_notes_count = user_notes_count - 1 WHERE id = ?')
  const setBody = db.prepare('UPDATE notes SET body = ?, updated_at = ? WHERE id = ?')
  const remove = db.prepare('DELETE FROM notes WHERE id = ?')
  const byId = db.prepare('SELECT * FROM notes WHERE id = ?')
  const ofIssue = db.prepare('SELECT * FROM notes WHERE issue_id = ? ORDER BY id')
  const authors = db.prepare(
    `SELECT author_id FROM notes WHERE issue_id = ? AND system = 0 AND (internal = 0 OR ?)
     GROUP BY author_id ORDER BY MIN(id)`,
  )
  return {
    /** Inserts a note; a user (non-system) note bumps the issue's `user_notes_count`. */
    insert: (note: NewNote) => {
      const id = Number(insert.run(note).lastInsertRowid)
      if (note.system === 0) bump.run(note.issue_id)
      return id
    },
    get: (id: number) => byId.get(id) as NoteRow | undefined,
    setBody: (id: number, body: string, now: string) => void setBody.run(body, now, id),
    /** Deletes a note; a user note leaves the issue's `user_notes_count`. */
    remove(note: NoteRow): void {
      remove.run(note.id)
      if (note.system === 0) drop.run(note.issue_id)
    },
    /** Every note of an issue, oldest first. */
    ofIssue: (issueId: number) => ofIssue.all(issueId) as NoteRow[],
    /** Authors of user notes, in the order they first commented; internal notes only when asked. */
    authorsOf: (issueId: number, withInternal: boolean) =>
      (authors.all(issueId, withInternal ? 1 : 0) as { author_id: number }[]).map((r) => r.author_id),
  }
}
