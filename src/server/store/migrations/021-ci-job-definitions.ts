/**
 * Migration 21: what each job was told to do by its `.gitlab-ci.yml` (src/server/ci/job-definition.ts),
 * as JSON; GitLab keeps the same in `ci_builds_metadata.config_options`. Jobs from a seed's `ci_jobs`
 * have no row. `IF NOT EXISTS` so that a store whose `user_version` was set back applies it again.
 */
export default `
  CREATE TABLE IF NOT EXISTS ci_job_definitions (
    build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
    definition TEXT NOT NULL
  );
`
