import type { Db } from './db.js'

/**
 * The condition every trigger of the main schema ends its `WHEN` with (migration 48): false while a
 * restore runs. A trigger a new migration makes carries it too (test/server/restore-triggers.test.ts
 * checks each one in `sqlite_master`).
 */
export const NOT_RESTORING = "NOT EXISTS (SELECT 1 FROM emulator_meta WHERE key = 'restoring')"

/**
 * Runs `fn`, which puts rows back as a snapshot had them, with every trigger of the main schema
 * still: the rows copied back are the snapshot's own, side effects included, so a trigger firing on
 * them would add what the snapshot never held. SQLite has no switch for triggers; the flag is a row
 * of `emulator_meta` (the store's own, which no snapshot holds nor undo logs), written and removed
 * inside the caller's transaction, so a rollback or a crash never leaves it behind.
 */
export function restoreFlag(db: Db) {
  const raise = db.prepare("INSERT OR REPLACE INTO emulator_meta (key, value) VALUES ('restoring', '1')")
  const lower = db.prepare("DELETE FROM emulator_meta WHERE key = 'restoring'")
  return <T>(fn: () => T): T => {
    raise.run()
    try {
      return fn()
    } finally {
      lower.run()
    }
  }
}
