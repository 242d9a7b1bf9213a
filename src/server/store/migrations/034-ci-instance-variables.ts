/**
 * Migration 34: instance CI/CD variables (`lib/api/admin/ci/variables.rb`), GitLab's
 * `ci_instance_variables`, with the columns of `ci_variables` (migration 32) and no owner: a key is
 * unique in the instance, `environment_scope` stays `*` and `hidden` 0 (GitLab's instance variables
 * have neither). And `ci_job_states.runner_variables`: the CI/CD variables a job was given when it
 * started running, sealed (GitLab hands them to the runner that picks the job). `ADD COLUMN` has no
 * `IF NOT EXISTS`: `done` finds the column when a store whose `user_version` was set back applies this again.
 */
export default {
  sql: `
    CREATE TABLE IF NOT EXISTS ci_instance_variables (
      id INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      value_encrypted TEXT NOT NULL,
      variable_type TEXT NOT NULL DEFAULT 'env_var',
      protected INTEGER NOT NULL DEFAULT 0,
      masked INTEGER NOT NULL DEFAULT 0,
      hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden = 0),
      raw INTEGER NOT NULL DEFAULT 0,
      environment_scope TEXT NOT NULL DEFAULT '*' CHECK (environment_scope = '*'),
      description TEXT
    );
    ALTER TABLE ci_job_states ADD COLUMN runner_variables TEXT;
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('ci_job_states') WHERE name = 'runner_variables'",
}
