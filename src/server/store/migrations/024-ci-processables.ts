/**
 * Migration 24: what the CI engine keeps of each job a `.gitlab-ci.yml` made (GitLab's
 * `Ci::Processable`, the parent of builds and bridges): its stage's position, whether it is a
 * trigger job (`Ci::Bridge`, absent from `/pipelines/:id/jobs`) and the downstream pipeline a bridge
 * started. Jobs from a seed's `ci_jobs` shortcut have no row. `ci_pipeline_errors` holds the YAML
 * error of a pipeline GitLab persisted as failed (`yaml_errors`). `IF NOT EXISTS` so that a store whose
 * `user_version` was set back applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_processables (
    build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
    pipeline_id INTEGER NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
    stage_idx INTEGER NOT NULL,
    bridge INTEGER NOT NULL DEFAULT 0,
    downstream_pipeline_id INTEGER REFERENCES pipelines(id) ON DELETE SET NULL
  );
  CREATE INDEX IF NOT EXISTS ci_processables_by_pipeline ON ci_processables(pipeline_id, bridge);
  CREATE TABLE IF NOT EXISTS ci_pipeline_errors (
    pipeline_id INTEGER PRIMARY KEY REFERENCES pipelines(id) ON DELETE CASCADE,
    message TEXT NOT NULL
  );
`
