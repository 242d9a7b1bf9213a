/**
 * Migration 3: project exports and imports. One export per project and user, as GitLab
 * keeps them; one import record per project; failed relations per import run (`correlation_id`).
 */
export default `
  CREATE TABLE project_exports (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('queued', 'started', 'finished', 'failed')),
    file TEXT,
    file_name TEXT,
    description TEXT,
    upload_url TEXT,
    upload_method TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_id, user_id)
  );
  CREATE TABLE project_imports (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'started', 'finished', 'failed')),
    import_type TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    source TEXT NOT NULL,
    override_params TEXT NOT NULL DEFAULT '{}',
    overwrite_path TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE import_failures (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    correlation_id TEXT NOT NULL,
    relation_key TEXT NOT NULL,
    relation_index INTEGER NOT NULL,
    exception_class TEXT NOT NULL,
    exception_message TEXT,
    source TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX import_failures_by_project ON import_failures(project_id, correlation_id, id);
  `
