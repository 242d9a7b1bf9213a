import type { Db } from './db.js'

/** An issue's place in the relative order of its root namespace. */
export interface PositionRow {
  id: number
  relative_position: number | null
}

/** SQL for reordering, moving and promoting issues: positions, and copying an issue's children. */
export function issueMoveTable(db: Db) {
  const inProjects = (ids: number[]) =>
    db
      .prepare(
        `SELECT id, relative_position FROM issues WHERE project_id IN (${ids.map(() => '?').join(',')}) ORDER BY relative_position, id`,
      )
      .all(...ids) as PositionRow[]
  const setPosition = db.prepare('UPDATE issues SET relative_position = ? WHERE id = ?')
  const promoted = db.prepare('SELECT promoted_to_epic_id AS id FROM issues WHERE id = ?')
  const setPromoted = db.prepare('UPDATE issues SET promoted_to_epic_id = ? WHERE id = ?')
  const copyNotes = db.prepare(
    `INSERT INTO notes (issue_id, author_id, body, system, internal, created_at, updated_at)
     SELECT ?, author_id, body, system, internal, created_at, updated_at FROM notes WHERE issue_id = ? ORDER BY id`,
  )
  const copyAwards = db.prepare(
    `INSERT OR IGNORE INTO award_emoji (issue_id, user_id, name, created_at)
     SELECT ?, user_id, name, created_at FROM award_emoji WHERE issue_id = ?`,
  )
  const copySubscriptions = db.prepare(
    `INSERT OR IGNORE INTO subscriptions (issue_id, user_id, subscribed)
     SELECT ?, user_id, subscribed FROM subscriptions WHERE issue_id = ?`,
  )
  const copyTimelogs = db.prepare(
    `INSERT INTO timelogs (issue_id, user_id, time_spent, summary, spent_at, created_at)
     SELECT ?, user_id, time_spent, summary, spent_at, created_at FROM timelogs WHERE issue_id = ? ORDER BY id`,
  )
  const counters = db.prepare(
    `UPDATE issues SET (upvotes, downvotes, user_notes_count) =
       (SELECT upvotes, downvotes, user_notes_count FROM issues WHERE id = ?) WHERE id = ?`,
  )
  return {
    /** Issues of the given projects in relative order (NULL positions first, as SQLite sorts them). */
    positionsIn: (projectIds: number[]) => (projectIds.length === 0 ? [] : inProjects(projectIds)),
    setPosition: (issueId: number, position: number) => setPosition.run(position, issueId),
    promotedTo: (issueId: number) => (promoted.get(issueId) as { id: number | null } | undefined)?.id ?? null,
    setPromoted: (issueId: number, epicId: number) => setPromoted.run(epicId, issueId),
    /** Copies notes, award emoji, subscriptions, timelogs and the counters of `from` onto `to`. */
    copyChildren: (from: number, to: number) => {
      copyNotes.run(to, from)
      copyAwards.run(to, from)
      copySubscriptions.run(to, from)
      copyTimelogs.run(to, from)
      counters.run(from, to)
    },
  }
}
