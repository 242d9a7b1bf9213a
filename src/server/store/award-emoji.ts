import type { Db } from './db.js'

/** The emoji users award to issues, with the issue's `upvotes`/`downvotes` counters kept in step. */
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
  }
}
