/**
 * Migration 4: pipelines, their jobs (`ci_builds`, GitLab's table name) and variables.
 * A job's `due_at` is when the emulator moves it next on its own (src/server/jobs/); NULL when it
 * waits for nothing (finished, manual, or held where `PUT /-/emulator/...` put it).
 */
export default `
  CREATE TABLE pipelines (
    id INTEGER PRIMARY KEY,
    iid INTEGER NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    ref TEXT NOT NULL,
    sha TEXT NOT NULL,
    tag INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    source TEXT NOT NULL,
    user_id INTEGER REFERENCES users(id),
    trigger_id INTEGER REFERENCES triggers(id) ON DELETE SET NULL,
    upstream_pipeline_id INTEGER REFERENCES pipelines(id) ON DELETE SET NULL,
    upstream_job_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    UNIQUE (project_id, iid)
  );
  CREATE INDEX pipelines_by_trigger ON pipelines(trigger_id, created_at);
  CREATE TABLE pipeline_variables (
    pipeline_id INTEGER NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    variable_type TEXT NOT NULL DEFAULT 'env_var',
    PRIMARY KEY (pipeline_id, position)
  );
  CREATE TABLE ci_builds (
    id INTEGER PRIMARY KEY,
    pipeline_id INTEGER NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    stage TEXT NOT NULL,
    position INTEGER NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    token_digest TEXT NOT NULL UNIQUE,
    token_encrypted TEXT NOT NULL,
    retried INTEGER NOT NULL DEFAULT 0,
    failure_reason TEXT,
    created_at TEXT NOT NULL,
    queued_at TEXT,
    started_at TEXT,
    finished_at TEXT,
    due_at TEXT
  );
  CREATE INDEX ci_builds_by_pipeline ON ci_builds(pipeline_id, position, id);
  CREATE INDEX ci_builds_due ON ci_builds(due_at) WHERE due_at IS NOT NULL;
  `
