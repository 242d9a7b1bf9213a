import type { Db } from './db.js'

/** Every table of the main database but the store's own key material and the seed it remembers. */
const TABLES =
  "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'emulator_meta'"
const dataTables = (db: Db) => db.prepare(TABLES).pluck().all() as string[]

/**
 * Empties every table but `emulator_meta` (`POST /-/emulator/reset`); inside a transaction. Tables
 * are read from the schema, so a new migration needs no change here; foreign keys are checked at
 * commit, when everything is gone.
 */
export function emptyDataTables(db: Db): void {
  const tables = dataTables(db)
  db.exec('PRAGMA defer_foreign_keys = ON')
  for (const table of tables) db.prepare(`DELETE FROM "${table}"`).run()
}

/**
 * The seeded state of the store, copied into an in-memory database attached to the same
 * connection (`ATTACH`, plain SQL, so it works on every SQLite driver), so that a reset copies rows
 * back instead of applying the seed again (bench/reset.ts). Rows go back in the order they were
 * seeded in, so ids are those of the first seeding. Lives as long as the connection.
 */
export function storeSnapshot(db: Db) {
  let tables: string[] | undefined
  let restores: (() => void)[] = []
  return {
    /** True once `take` has committed. */
    get taken() {
      return tables !== undefined
    },
    /** Attaches the snapshot database; outside a transaction (SQLite refuses `ATTACH` inside one). */
    attach() {
      const attached = db.prepare("SELECT 1 FROM pragma_database_list WHERE name = 'seeded'").get()
      if (!attached) db.exec("ATTACH DATABASE ':memory:' AS seeded")
    },
    /** Copies the main tables into the snapshot; inside the transaction that seeded them. */
    take(): () => void {
      const names = dataTables(db)
      for (const name of names) {
        db.exec(`DROP TABLE IF EXISTS seeded."${name}"`)
        db.exec(`CREATE TABLE seeded."${name}" AS SELECT * FROM main."${name}"`)
      }
      // Usable only once the transaction commits: a rollback drops the copies too.
      return () => {
        tables = names
        restores = names.map((name) => {
          const remove = db.prepare(`DELETE FROM main."${name}"`)
          // Most tables are empty in a seed (43 of them now): those are only emptied again.
          if (!db.prepare(`SELECT 1 FROM seeded."${name}" LIMIT 1`).get()) return () => void remove.run()
          const copy = db.prepare(`INSERT INTO main."${name}" SELECT * FROM seeded."${name}"`)
          return () => {
            remove.run()
            copy.run()
          }
        })
      }
    },
    /** Replaces every main table's rows by the snapshot's; inside a transaction. */
    restore() {
      db.exec('PRAGMA defer_foreign_keys = ON')
      for (const restoreTable of restores) restoreTable()
    },
  }
}
