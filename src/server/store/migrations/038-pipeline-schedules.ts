/**
 * Migration 38: pipeline schedules (`lib/api/ci/pipeline_schedules.rb`), GitLab's `ci_pipeline_schedules`
 * and `ci_pipeline_schedule_variables` (values kept only sealed, as `ci_variables`' are), and which
 * pipelines each schedule made (GitLab's `ci_pipelines.pipeline_schedule_id`: a table of its own here, so
 * that the pipelines' rows stay as they are; deleting a schedule unlinks its pipelines, as GitLab nullifies
 * the column). A removed owner leaves the schedule without one (`owner_id` nullified). `IF NOT EXISTS`: a
 * store whose `user_version` was set back applies this again.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_pipeline_schedules (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    description TEXT NOT NULL,
    ref TEXT NOT NULL,
    cron TEXT NOT NULL,
    cron_timezone TEXT NOT NULL,
    next_run_at TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS ci_pipeline_schedules_by_project ON ci_pipeline_schedules(project_id, id);
  CREATE INDEX IF NOT EXISTS ci_pipeline_schedules_due ON ci_pipeline_schedules(active, next_run_at);
  CREATE TABLE IF NOT EXISTS ci_pipeline_schedule_variables (
    id INTEGER PRIMARY KEY,
    schedule_id INTEGER NOT NULL REFERENCES ci_pipeline_schedules(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value_encrypted TEXT NOT NULL,
    variable_type TEXT NOT NULL DEFAULT 'env_var',
    raw INTEGER NOT NULL DEFAULT 0,
    UNIQUE (schedule_id, key)
  );
  CREATE TABLE IF NOT EXISTS ci_pipeline_schedule_pipelines (
    pipeline_id INTEGER PRIMARY KEY REFERENCES pipelines(id) ON DELETE CASCADE,
    schedule_id INTEGER NOT NULL REFERENCES ci_pipeline_schedules(id) ON DELETE CASCADE
  );
  CREATE INDEX IF NOT EXISTS ci_pipeline_schedule_pipelines_by_schedule
    ON ci_pipeline_schedule_pipelines(schedule_id, pipeline_id);
`
