/**
 * Migration 49: the CI/CD job token scope of projects (GitLab's `project_ci_cd_settings.
 * inbound_job_token_scope_enabled`, `ci_job_token_project_scope_links` in the inbound direction and
 * `ci_job_token_group_scope_links`). A project without a `ci_job_token_scopes` row has the scope
 * enabled, GitLab's default since 15.9 (db/structure.sql: `DEFAULT true`), which keeps what stores made
 * before this answered: no other project's job token gets in. A link goes with either of its ends.
 * `IF NOT EXISTS`: a store whose `user_version` was set back applies this again.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_job_token_scopes (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    inbound_enabled INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS ci_job_token_project_scope_links (
    id INTEGER PRIMARY KEY,
    source_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    target_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    added_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    UNIQUE (source_project_id, target_project_id)
  );
  CREATE INDEX IF NOT EXISTS ci_job_token_project_scope_links_target
    ON ci_job_token_project_scope_links (target_project_id);
  CREATE TABLE IF NOT EXISTS ci_job_token_group_scope_links (
    id INTEGER PRIMARY KEY,
    source_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    target_group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
    added_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    UNIQUE (source_project_id, target_group_id)
  );
  CREATE INDEX IF NOT EXISTS ci_job_token_group_scope_links_target
    ON ci_job_token_group_scope_links (target_group_id);
`
