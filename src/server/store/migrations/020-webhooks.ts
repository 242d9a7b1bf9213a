/**
 * Migration 20: project and group webhooks (GitLab's `web_hooks`, `app/models/hooks/web_hook.rb`) and
 * their delivery log (`web_hook_logs`). A hook belongs to exactly one project or group; its token is
 * kept sealed, never shown back. `recent_failures` and `disabled_until` are `WebHooks::AutoDisabling`'s.
 * `IF NOT EXISTS` so that a store whose `user_version` was set back applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS web_hooks (
    id INTEGER PRIMARY KEY,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    token_encrypted TEXT,
    name TEXT,
    description TEXT,
    push_events INTEGER NOT NULL DEFAULT 1,
    issues_events INTEGER NOT NULL DEFAULT 0,
    confidential_issues_events INTEGER NOT NULL DEFAULT 0,
    note_events INTEGER NOT NULL DEFAULT 0,
    confidential_note_events INTEGER NOT NULL DEFAULT 0,
    pipeline_events INTEGER NOT NULL DEFAULT 0,
    job_events INTEGER NOT NULL DEFAULT 0,
    enable_ssl_verification INTEGER NOT NULL DEFAULT 1,
    recent_failures INTEGER NOT NULL DEFAULT 0,
    disabled_until TEXT,
    created_at TEXT NOT NULL,
    CHECK ((project_id IS NULL) <> (group_id IS NULL))
  );
  CREATE INDEX IF NOT EXISTS web_hooks_project ON web_hooks (project_id);
  CREATE INDEX IF NOT EXISTS web_hooks_group ON web_hooks (group_id);
  CREATE TABLE IF NOT EXISTS web_hook_logs (
    id INTEGER PRIMARY KEY,
    web_hook_id INTEGER NOT NULL REFERENCES web_hooks(id) ON DELETE CASCADE,
    trigger TEXT NOT NULL,
    url TEXT NOT NULL,
    request_headers TEXT NOT NULL,
    request_data TEXT NOT NULL,
    response_headers TEXT NOT NULL,
    response_body TEXT NOT NULL,
    response_status TEXT NOT NULL,
    execution_duration REAL NOT NULL,
    internal_error_message TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS web_hook_logs_hook ON web_hook_logs (web_hook_id, id);
`
