/**
 * Migration 47: the CI `inputs` a pipeline schedule passes to the pipelines it runs (GitLab's
 * `ci_pipeline_schedule_inputs`, `Ci::PipelineScheduleInput`). A value is any JSON (text, number,
 * boolean, list), kept only sealed, as the schedule's variables are: `value_encrypted` seals its JSON.
 * GitLab's table has no unique index on the name (the model's validations keep it unique); ours does.
 * `IF NOT EXISTS`: a store whose `user_version` was set back applies this again.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_pipeline_schedule_inputs (
    id INTEGER PRIMARY KEY,
    schedule_id INTEGER NOT NULL REFERENCES ci_pipeline_schedules(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value_encrypted TEXT NOT NULL,
    UNIQUE (schedule_id, name)
  );
`
