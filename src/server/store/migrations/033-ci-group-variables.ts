/**
 * Migration 33: group CI/CD variables (`lib/api/ci/group_variables.rb`), GitLab's `ci_group_variables`
 * table: the columns of `ci_variables` (migration 32) owned by a group, unique per group, key and scope.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_group_variables (
    id INTEGER PRIMARY KEY,
    group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value_encrypted TEXT NOT NULL,
    variable_type TEXT NOT NULL DEFAULT 'env_var',
    protected INTEGER NOT NULL DEFAULT 0,
    masked INTEGER NOT NULL DEFAULT 0,
    hidden INTEGER NOT NULL DEFAULT 0,
    raw INTEGER NOT NULL DEFAULT 0,
    environment_scope TEXT NOT NULL DEFAULT '*',
    description TEXT,
    UNIQUE (group_id, key, environment_scope)
  );
`
