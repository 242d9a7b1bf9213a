/**
 * Migration 35: `project_settings.import_correlation_id`, a fork's `import_state.correlation_id`:
 * the `X-Request-Id` of the `POST /projects/:id/fork` that made it (`Projects::ForkService` schedules
 * the fork's import inside that request, and its import state records the request's correlation
 * id). Null for every other project, for forks made before this migration and for the seed's forks
 * (no request made them). `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds the column when a store
 * whose `user_version` was set back applies this again.
 */
export default {
  sql: `ALTER TABLE project_settings ADD COLUMN import_correlation_id TEXT;`,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('project_settings') WHERE name = 'import_correlation_id'",
}
