/**
 * Migration 32: project CI/CD variables (`lib/api/ci/variables.rb`), GitLab's `ci_variables` table.
 * The value is kept only sealed (GitLab's `encrypted_value`); a key is unique per project and
 * environment scope (`Ci::Variable`'s uniqueness validation). `IF NOT EXISTS`, as migration 10.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_variables (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value_encrypted TEXT NOT NULL,
    variable_type TEXT NOT NULL DEFAULT 'env_var',
    protected INTEGER NOT NULL DEFAULT 0,
    masked INTEGER NOT NULL DEFAULT 0,
    hidden INTEGER NOT NULL DEFAULT 0,
    raw INTEGER NOT NULL DEFAULT 0,
    environment_scope TEXT NOT NULL DEFAULT '*',
    description TEXT,
    UNIQUE (project_id, key, environment_scope)
  );
`
