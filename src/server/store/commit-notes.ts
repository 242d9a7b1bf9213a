import type { Db } from './db.js'

/** A comment on a commit (migration 37); `path`, `line` and `line_type` only on a line of its diff. */
export interface CommitNoteRow {
  id: number
  project_id: number
  commit_sha: string
  author_id: number
  note: string
  path: string | null
  line: number | null
  line_type: string | null
  created_at: string
  updated_at: string
}

/** Comments on commits (`commit_notes`): rows in and out, no rules. */
export function commitNoteTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO commit_notes (project_id, commit_sha, author_id, note, path, line, line_type, created_at, updated_at)
     VALUES (@project_id, @commit_sha, @author_id, @note, @path, @line, @line_type, @created_at, @updated_at)`,
  )
  const byId = db.prepare('SELECT * FROM commit_notes WHERE id = ?')
  const page = db.prepare(
    `SELECT * FROM commit_notes WHERE project_id = ? AND commit_sha = ?
     ORDER BY created_at, id LIMIT ? OFFSET ?`,
  )
  const count = db
    .prepare('SELECT COUNT(*) FROM commit_notes WHERE project_id = ? AND commit_sha = ?')
    .pluck()
  return {
    insert: (row: Omit<CommitNoteRow, 'id'>) => Number(insert.run(row).lastInsertRowid),
    get: (id: number) => byId.get(id) as CommitNoteRow | undefined,
    /** A page of the commit's notes in the project, oldest first (`fresh`). */
    page: (projectId: number, sha: string, limit: number, offset: number) =>
      page.all(projectId, sha, limit, offset) as unknown as CommitNoteRow[],
    count: (projectId: number, sha: string) => count.get(projectId, sha) as number,
  }
}
