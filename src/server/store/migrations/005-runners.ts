/**
 * Migration 5: runner registration tokens and the runners registered with them.
 * A registration token belongs to the instance (both ids NULL), a project or a group; only its
 * digest is kept, since GitLab shows it once, in the reset answer. Rows of projects and groups go
 * with them; instance rows are kept by `POST /-/emulator/reset` (src/server/services/seed.ts lists
 * the tables it empties).
 */
export default `
  CREATE TABLE runner_registration_tokens (
    scope TEXT PRIMARY KEY,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    namespace_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
    token_digest TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE ci_runners (
    id INTEGER PRIMARY KEY,
    runner_type TEXT NOT NULL,
    project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
    namespace_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
    token_digest TEXT NOT NULL UNIQUE,
    description TEXT,
    name TEXT,
    maintenance_note TEXT,
    active INTEGER NOT NULL DEFAULT 1,
    locked INTEGER NOT NULL DEFAULT 0,
    run_untagged INTEGER NOT NULL DEFAULT 1,
    access_level TEXT NOT NULL DEFAULT 'not_protected',
    maximum_timeout INTEGER,
    tag_list TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL
  );
  `
