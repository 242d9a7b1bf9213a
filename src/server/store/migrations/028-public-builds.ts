/**
 * Migration 28: `project_settings.public_builds`, the project's "Project-based pipeline visibility"
 * (`projects.public_builds` in GitLab's `db/structure.sql`, shown as `public_jobs`; default true). A
 * project without a settings row keeps the default. `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds
 * the column when a store whose `user_version` was set back applies this again.
 */
export default {
  sql: 'ALTER TABLE project_settings ADD COLUMN public_builds INTEGER NOT NULL DEFAULT 1;',
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('project_settings') WHERE name = 'public_builds'",
}
