import type { Db } from './db.js'

export interface AwardRow {
  id: number
  user_id: number
  name: string
  created_at: string
}

/** The awards of one kind of awardable: `table`'s rows keyed by `column`; `after` runs after each write. */
function awards(
  db: Db,
  table: 'award_emoji' | 'note_award_emoji',
  column: string,
  after: (id: number) => void,
) {
  const list = db.prepare(
    `SELECT id, user_id, name, created_at FROM ${table} WHERE ${column} = ? ORDER BY id`,
  )
  const one = db.prepare(`SELECT id, user_id, name, created_at FROM ${table} WHERE ${column} = ? AND id = ?`)
  const taken = db.prepare(`SELECT 1 FROM ${table} WHERE ${column} = ? AND user_id = ? AND name = ?`)
  const insert = db.prepare(`INSERT INTO ${table} (${column}, user_id, name, created_at) VALUES (?, ?, ?, ?)`)
  const remove = db.prepare(`DELETE FROM ${table} WHERE id = ?`)
  return {
    /** Every award of the awardable, oldest first. */
    of: (ownerId: number) => list.all(ownerId) as unknown as AwardRow[],
    /** The award `id` when it is the awardable's. */
    get: (ownerId: number, id: number) => one.get(ownerId, id) as AwardRow | undefined,
    taken: (ownerId: number, userId: number, name: string) => taken.get(ownerId, userId, name) !== undefined,
    add(ownerId: number, userId: number, name: string, now: string): number {
      const id = Number(insert.run(ownerId, userId, name, now).lastInsertRowid)
      after(ownerId)
      return id
    },
    remove(ownerId: number, id: number): void {
      remove.run(id)
      after(ownerId)
    },
  }
}

/** The emoji users award to issues, with the issue's `upvotes`/`downvotes` counters kept in step, and to notes. */
export function awardEmojiTable(db: Db) {
  const exists = db.prepare('SELECT 1 FROM award_emoji WHERE issue_id = ? AND user_id = ? AND name = ?')
  const insert = db.prepare(
    'INSERT INTO award_emoji (issue_id, user_id, name, created_at) VALUES (?, ?, ?, ?)',
  )
  const remove = db.prepare('DELETE FROM award_emoji WHERE issue_id = ? AND user_id = ? AND name = ?')
  const votes = db.prepare(
    `UPDATE issues SET
       upvotes = (SELECT COUNT(*) FROM award_emoji WHERE issue_id = @id AND name = 'thumbsup'),
       downvotes = (SELECT COUNT(*) FROM award_emoji WHERE issue_id = @id AND name = 'thumbsdown')
     WHERE id = @id`,
  )
  const ofIssue = db.prepare('SELECT user_id, name FROM award_emoji WHERE issue_id = ? ORDER BY id')
  return {
    /** Adds the award, or removes it when the user already gave it; true when added. */
    toggle(issueId: number, userId: number, name: string, now: string): boolean {
      const had = exists.get(issueId, userId, name) !== undefined
      if (had) remove.run(issueId, userId, name)
      else insert.run(issueId, userId, name, now)
      votes.run({ id: issueId })
      return !had
    },
    ofIssue: (issueId: number) => ofIssue.all(issueId) as { user_id: number; name: string }[],
    /** An issue's awards by id (the API's), its votes recounted after each write. */
    issues: awards(db, 'award_emoji', 'issue_id', (id) => void votes.run({ id })),
    /** A note's awards by id. */
    notes: awards(db, 'note_award_emoji', 'note_id', () => {}),
  }
}
