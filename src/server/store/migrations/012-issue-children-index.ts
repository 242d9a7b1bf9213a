/**
 * Migration 12: an issue's notes and award emoji indexed by id, and its notes by update (performance
 * only). The exporter reads an issue's notes a page at a time, by id: `notes_by_issue` is in
 * creation order, so each page sorted every note of the issue (an issue with a million notes made
 * that quadratic), and award emoji had no index by issue alone. A notes list ordered by
 * `updated_at` sorted them all for each page too. `IF NOT EXISTS`, as migration 10.
 */
export default `
  CREATE INDEX IF NOT EXISTS notes_by_issue_id ON notes(issue_id, id);
  CREATE INDEX IF NOT EXISTS notes_by_issue_updated ON notes(issue_id, updated_at, id);
  CREATE INDEX IF NOT EXISTS award_emoji_by_issue_id ON award_emoji(issue_id, id);
`
