/**
 * Migration 13: the issue sub-resources test suites create through the API.
 * - `issue_links` (`IssueLinks::CreateService`): an `is_blocked_by` link is stored as GitLab
 *   stores it, a `blocks` link from the other side; a link goes with either of its issues.
 * - `note_award_emoji`: emoji awarded to notes (issues' are in `award_emoji`); they go with the note.
 * - `note_discussions`: the thread of a note made through the discussions API (`DiscussionNote`,
 *   its 40-hex `discussion_id`); a note without a row is an individual note, its own discussion.
 * - `resource_label_events`, `resource_milestone_events`, `resource_state_events` and (EE)
 *   `resource_weight_events`: what changed an issue's labels, milestone, state and weight, by whom,
 *   with GitLab's column names (the export writes the first three as `import_export.yml` lists
 *   them). A deleted label or milestone leaves its events, naming none.
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
  CREATE TABLE IF NOT EXISTS resource_label_events (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER,
    label_id INTEGER,
    action TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS resource_label_events_by_issue ON resource_label_events(issue_id);
  CREATE TABLE IF NOT EXISTS resource_milestone_events (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER,
    milestone_id INTEGER,
    action TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS resource_milestone_events_by_issue ON resource_milestone_events(issue_id);
  CREATE TABLE IF NOT EXISTS resource_state_events (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER,
    state TEXT NOT NULL,
    created_at TEXT NOT NULL,
    source_commit TEXT,
    source_merge_request_id INTEGER,
    close_after_error_tracking_resolve INTEGER NOT NULL DEFAULT 0,
    close_auto_resolve_prometheus_alert INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS resource_state_events_by_issue ON resource_state_events(issue_id);
  CREATE TABLE IF NOT EXISTS resource_weight_events (
    id INTEGER PRIMARY KEY,
    issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
    user_id INTEGER,
    weight INTEGER,
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS resource_weight_events_by_issue ON resource_weight_events(issue_id);
`
