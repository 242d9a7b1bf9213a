/**
 * Migration 11: links between issues (GitLab's `issue_links`, `IssueLinks::CreateService`). An
 * `is_blocked_by` link is stored as GitLab stores it: a `blocks` link from the other side. A link
 * goes with either of its issues.
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
`
