/**
 * Migration 36: `commit_statuses`, the statuses external CI systems post on a commit
 * (`GenericCommitStatus`, `POST /projects/:id/statuses/:sha`). GitLab keeps them in `ci_builds` beside
 * the jobs; here they have a table of their own, as they carry no token, script, outcome or schedule,
 * so the job listings and the pipeline runner never see them. Each belongs to a pipeline (an
 * `external` one when the commit had none) and sits in its stage `external`. `IF NOT EXISTS`: a store whose
 * `user_version` was set back applies this again.
 */
export default `
  CREATE TABLE IF NOT EXISTS commit_statuses (
    id INTEGER PRIMARY KEY,
    pipeline_id INTEGER NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    ref TEXT NOT NULL,
    status TEXT NOT NULL,
    target_url TEXT,
    description TEXT,
    coverage REAL,
    user_id INTEGER REFERENCES users(id),
    retried INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
  );
  CREATE INDEX IF NOT EXISTS commit_statuses_by_pipeline ON commit_statuses(pipeline_id, name, id);
  `
