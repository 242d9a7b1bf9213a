/**
 * Migration 39: `ci_builds.coverage`, the coverage a job's trace reported through its `coverage:`
 * expression (`Ci::Build#update_coverage`), null until it finishes with a match. `ADD COLUMN` has no
 * `IF NOT EXISTS`: `done` finds the column when a store whose `user_version` was set back applies this again.
 */
export default {
  sql: `ALTER TABLE ci_builds ADD COLUMN coverage REAL;`,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('ci_builds') WHERE name = 'coverage'",
}
