/**
 * Migration 40: what the runner management API needs beyond migration 5 (GitLab's `ci_runners` and
 * `ci_runner_projects`): `creator_id` (who made the runner with `POST /user/runners`), `contacted_at`
 * (the last contact: only `POST /runners/verify` with a registration-flow token sets it here, as no
 * runner polls this server) and `registration_type` (`authenticated_user` for `glrt-` tokens). A project
 * runner may be enabled in other projects (`POST /projects/:id/runners`): `ci_runner_projects` lists
 * every project of a project runner, its owner (`ci_runners.project_id`) among them; runners registered
 * before this migration get their owner's row. `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds the
 * change when a store whose `user_version` was set back applies this again.
 */
export default {
  sql: `
    ALTER TABLE ci_runners ADD COLUMN creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL;
    ALTER TABLE ci_runners ADD COLUMN contacted_at TEXT;
    ALTER TABLE ci_runners ADD COLUMN registration_type TEXT NOT NULL DEFAULT 'registration_token';
    CREATE TABLE ci_runner_projects (
      id INTEGER PRIMARY KEY,
      runner_id INTEGER NOT NULL REFERENCES ci_runners(id) ON DELETE CASCADE,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      UNIQUE (runner_id, project_id)
    );
    CREATE INDEX ci_runner_projects_by_project ON ci_runner_projects(project_id);
    INSERT INTO ci_runner_projects (runner_id, project_id, created_at)
      SELECT id, project_id, created_at FROM ci_runners WHERE project_id IS NOT NULL;
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('ci_runners') WHERE name = 'registration_type'",
}
