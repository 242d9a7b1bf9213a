/**
 * Migration 11: the issue sub-resources test suites create through the API.
 * - `issue_links` (`IssueLinks::CreateService`): an `is_blocked_by` link is stored as GitLab
 *   stores it, a `blocks` link from the other side; a link goes with either of its issues.
 * - `note_award_emoji`: emoji awarded to notes (issues' are in `award_emoji`); they go with the note.
 * - `note_discussions`: the thread of a note made through the discussions API (`DiscussionNote`,
 *   its 40-hex `discussion_id`); a note without a row is an individual note, its own discussion.
 */
export default `
  CREATE TABLE IF NOT EXISTS issue_links (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    target_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    link_type TEXT NOT NULL DEFAULT 'relates_to',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (source_id, target_id)
  );
  CREATE INDEX IF NOT EXISTS issue_links_by_target ON issue_links(target_id, source_id);
  CREATE TABLE IF NOT EXISTS note_award_emoji (
    id INTEGER PRIMARY KEY,
    note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (note_id, user_id, name)
  );
  CREATE TABLE IF NOT EXISTS note_discussions (
    note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
    discussion_id TEXT NOT NULL,
    type TEXT NOT NULL DEFAULT 'DiscussionNote'
  );
  CREATE INDEX IF NOT EXISTS note_discussions_by_id ON note_discussions(discussion_id);
`
