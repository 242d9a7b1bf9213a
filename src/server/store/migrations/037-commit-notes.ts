/**
 * Migration 37: `commit_notes`, the comments on a commit (`POST /projects/:id/repository/commits/:sha/comments`).
 * GitLab keeps them in `notes` with `noteable_type` `Commit` and a `commit_id`; ours hangs every note
 * off an issue (`notes.issue_id` NOT NULL, with the counters and threads), so a commit's notes
 * have a table of their own. `path`, `line` and `line_type` are set only for a note on a line of the
 * commit's diff (GitLab's `LegacyDiffNote`). They go with their project; a deleted author's pass to
 * the ghost user. `IF NOT EXISTS`: a store whose `user_version` was set back applies this again.
 */
export default `
  CREATE TABLE IF NOT EXISTS commit_notes (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    commit_sha TEXT NOT NULL,
    author_id INTEGER NOT NULL REFERENCES users(id),
    note TEXT NOT NULL,
    path TEXT,
    line INTEGER,
    line_type TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS commit_notes_by_commit ON commit_notes(project_id, commit_sha, created_at, id);
  CREATE INDEX IF NOT EXISTS commit_notes_by_author ON commit_notes(author_id);
  `
