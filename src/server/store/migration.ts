import type { Connection as Db } from './sqlite.js'

/**
 * One schema migration: SQL run in a transaction of its own, or, for a table rebuild (SQLite's
 * "12 steps": create the new table, copy, drop the old, rename), an object run with foreign keys off.
 * `PRAGMA foreign_keys` does nothing inside a transaction, so the runner turns them off before BEGIN,
 * runs `PRAGMA foreign_key_check` before COMMIT (a violation rolls the migration back), and turns them
 * on again (https://www.sqlite.org/lang_altertable.html#otheralter). A rebuild cannot be written
 * `IF NOT EXISTS`, so `done` is a query that returns a row when the change is in the store already:
 * the runner then skips the SQL (a store whose `user_version` was set back applies it again).
 */
export type Migration = string | { sql: string; foreignKeysOff: true; done: string }

/** Applies `migration` as version `version`, as `Migration` describes. */
export function applyMigration(db: Db, migration: Migration, version: number): void {
  const stamp = () => db.exec(`PRAGMA user_version = ${version}`)
  if (typeof migration === 'string') {
    db.transaction(() => {
      db.exec(migration)
      stamp()
    })
    return
  }
  if (db.prepare(migration.done).get() !== undefined) return stamp()
  db.exec('PRAGMA foreign_keys = OFF')
  try {
    db.transaction(() => {
      db.exec(migration.sql)
      const broken = db.prepare('PRAGMA foreign_key_check').all()
      if (broken.length > 0)
        throw new Error(`migration ${version} breaks foreign keys: ${JSON.stringify(broken.slice(0, 5))}`)
      stamp()
    })
  } finally {
    db.exec('PRAGMA foreign_keys = ON')
  }
}
