/**
 * Migration 29: protected tags (`lib/api/protected_tags.rb`), GitLab's `protected_tags` table with
 * its one `create_access_levels` row folded in, as migration 22 folds a protected branch's levels.
 * A name may hold `*` wildcards. `IF NOT EXISTS`, as migration 10.
 */
export default `
  CREATE TABLE IF NOT EXISTS protected_tags (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    create_access_level INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_id, name)
  );
`
