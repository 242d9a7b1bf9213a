import type { Db, Statement } from './db.js'

export interface NoteRow {
  id: number
  issue_id: number
  author_id: number
  body: string
  system: number
  internal: number
  created_at: string
  updated_at: string
  /** The thread a note was made in through the discussions API (`note_discussions`); else none. */
  discussion_id?: string | null
  /** `DiscussionNote` for a note of a thread; null for an individual note. */
  type?: string | null
}

export type NewNote = Omit<NoteRow, 'id' | 'discussion_id' | 'type'> & {
  /** The thread the note starts or joins (`DiscussionNote`). */
  discussion_id?: string
}

/** Which notes of an issue a list shows, and in what order (the tie-breaker is id, the same way). */
export interface NoteFilter {
  orderBy: 'created_at' | 'updated_at'
  desc: boolean
  /** Internal notes too. */
  withInternal: boolean
  /** Only system notes (1) or only comments (0); both when undefined. */
  system?: 0 | 1
}

/** Comments and system notes on issues; a user note also counts in `issues.user_notes_count`. */
export function noteTable(db: Db) {
  // Bound by position: node:sqlite matches named parameters by name on every run (a system note
  // goes with most issue writes).
  const insert = db.prepare(
    `INSERT INTO notes (issue_id, author_id, body, system, internal, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
  const bump = db.prepare('UPDATE issues SET user_notes_count = user_notes_count + 1 WHERE id = ?')
  const drop = db.prepare('UPDATE issues SET user_notes_count = user_notes_count - 1 WHERE id = ?')
  const setBody = db.prepare('UPDATE notes SET body = ?, updated_at = ? WHERE id = ?')
  const remove = db.prepare('DELETE FROM notes WHERE id = ?')
  const withThread =
    'SELECT n.*, d.discussion_id, d.type FROM notes n LEFT JOIN note_discussions d ON d.note_id = n.id'
  const byId = db.prepare(`${withThread} WHERE n.id = ?`)
  const ofIssue = db.prepare(`${withThread} WHERE n.issue_id = ? ORDER BY n.id`)
  const thread = db.prepare(
    `INSERT INTO note_discussions (note_id, discussion_id) VALUES (?, ?)
     ON CONFLICT (note_id) DO UPDATE SET discussion_id = excluded.discussion_id`,
  )
  const WHERE = 'issue_id = @issue AND (internal = 0 OR @internal) AND (@system IS NULL OR system = @system)'
  const counter = db.prepare(`SELECT COUNT(*) FROM (SELECT 1 FROM notes WHERE ${WHERE} LIMIT @cap)`).pluck()
  // One statement per order, each served by an index without sorting (`notes_by_issue`, `notes_by_issue_updated`).
  const pages = new Map<string, Statement>()
  const pageStatement = ({ orderBy, desc }: NoteFilter) => {
    const order = `${orderBy} ${desc ? 'DESC' : 'ASC'}, id ${desc ? 'DESC' : 'ASC'}`
    let stmt = pages.get(order)
    if (!stmt)
      pages.set(
        order,
        (stmt = db.prepare(`${withThread} WHERE ${WHERE} ORDER BY ${order} LIMIT @limit OFFSET @offset`)),
      )
    return stmt
  }
  const bind = (issueId: number, f: NoteFilter) => ({
    issue: issueId,
    internal: f.withInternal ? 1 : 0,
    system: f.system ?? null,
  })
  const authors = db.prepare(
    `SELECT author_id FROM notes WHERE issue_id = ? AND system = 0 AND (internal = 0 OR ?)
     GROUP BY author_id ORDER BY MIN(id)`,
  )
  return {
    /** Inserts a note; a user (non-system) note bumps the issue's `user_notes_count`. */
    insert: ({ discussion_id, ...note }: NewNote) => {
      const { issue_id, author_id, body, system, internal, created_at, updated_at } = note
      const id = Number(
        insert.run(issue_id, author_id, body, system, internal, created_at, updated_at).lastInsertRowid,
      )
      if (note.system === 0) bump.run(note.issue_id)
      if (discussion_id !== undefined) thread.run(id, discussion_id)
      return id
    },
    /** Makes a note part of the thread `discussionId` (`DiscussionNote`): a reply converts an individual note. */
    joinThread: (noteId: number, discussionId: string) => void thread.run(noteId, discussionId),
    get: (id: number) => byId.get(id) as NoteRow | undefined,
    /** The issue's notes `filter` shows, up to `cap` + 1: a list counts no further than it reports. */
    count: (issueId: number, filter: NoteFilter, cap: number) =>
      counter.get({ ...bind(issueId, filter), cap: cap + 1 }) as number,
    /** `limit` of the issue's notes `filter` shows, after `offset` of them, in its order. */
    page: (issueId: number, filter: NoteFilter, limit: number, offset: number) =>
      pageStatement(filter).all({ ...bind(issueId, filter), limit, offset }) as NoteRow[],
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
