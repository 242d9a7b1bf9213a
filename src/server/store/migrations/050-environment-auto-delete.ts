/**
 * Migration 50: environments' `auto_delete_at` (null: none), the time `DELETE .../environments/review_apps`
 * schedules a stopped review app to be deleted at (`Environment.schedule_to_delete`, a week ahead), which
 * the clock's moves then delete (`Environments::AutoDeleteCronWorker`). Stores made before it schedule
 * nothing. `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds the column when a store whose `user_version`
 * was set back applies this again.
 */
export default {
  sql: `
    ALTER TABLE environments ADD COLUMN auto_delete_at TEXT;
    CREATE INDEX IF NOT EXISTS environments_auto_delete ON environments(auto_delete_at)
      WHERE auto_delete_at IS NOT NULL;
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('environments') WHERE name = 'auto_delete_at'",
}
