/**
 * Migration 26: what push and tag push webhooks need on `web_hooks` (`app/models/hooks/web_hook.rb`):
 * `tag_push_events`, and `push_events_branch_filter` with its `branch_filter_strategy` (`wildcard`,
 * `regex`, `all_branches`). `ADD COLUMN` has no `IF NOT EXISTS`: `done` finds the column when a store
 * whose `user_version` was set back applies this again.
 */
export default {
  sql: `
    ALTER TABLE web_hooks ADD COLUMN tag_push_events INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE web_hooks ADD COLUMN push_events_branch_filter TEXT;
    ALTER TABLE web_hooks ADD COLUMN branch_filter_strategy TEXT NOT NULL DEFAULT 'wildcard';
  `,
  foreignKeysOff: true as const,
  done: "SELECT 1 FROM pragma_table_info('web_hooks') WHERE name = 'tag_push_events'",
}
