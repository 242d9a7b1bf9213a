import { join } from 'node:path'
import type { Db } from './db.js'
import { privateDir, privateFile } from './private-files.js'
import { restoreFlag } from './restoring.js'
import { copyBack, copyOut, dataTables } from './snapshot.js'
import { ident, parentsFirst, tableShape } from './undo-log.js'

/** One named snapshot as `GET /-/emulator/snapshots` lists it. */
export interface NamedSnapshot {
  name: string
  created_at: string
  /** Rows of every table it holds (`sqlite_sequence` left out). */
  rows: number
}

/** What a snapshot may be called (it names tables, never a file). */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_.-]{1,64}$/
/** A name outside `SNAPSHOT_NAME` (400). */
export class SnapshotNameInvalid extends Error {}
/** A snapshot name that is not there (404). */
export class SnapshotMissing extends Error {}
/** A snapshot name already taken (409 unless replaced). */
export class SnapshotTaken extends Error {}
/** A snapshot saved before a migration of the store, which its tables no longer fit (409). */
export class SnapshotStale extends Error {}

const SCHEMA = 'snapshots'
const LIST = `${SCHEMA}."snapshot list"`
const SEQUENCES = `${SCHEMA}."snapshot sequences"`
/** A snapshot's copy of one main table. */
const copyOf = (name: string, table: string) => `${SCHEMA}.${ident(`${name}/${table}`)}`

/**
 * Named snapshots of the whole store (`/-/emulator/snapshots`): every main table but
 * `emulator_meta`, with rowids, and `sqlite_sequence`. All of them live in one database attached to
 * the connection as `snapshots`, their tables named `<snapshot>/<table>` (one attached database,
 * not one per snapshot: SQLite attaches at most ten): in memory for a `:memory:` store, the file
 * `snapshots.sqlite3` of the data directory otherwise, so they survive a restart. The copies are
 * snapshot.ts's, those of the reset's seed snapshot. A restore replaces every table, and tells
 * `seedSnapshot` so, for the next reset to copy the seed back whole. An in-memory store holds a
 * transaction open since its seed snapshot, which a reset rolls back (snapshot.ts): what a named
 * snapshot writes would go with it, so save, restore and remove commit it first (`release`).
 */
export function namedSnapshots(db: Db, data: string, seedSnapshot: { replacedAll(): void; release(): void }) {
  const checked = (name: string) => {
    if (!SNAPSHOT_NAME.test(name)) throw new SnapshotNameInvalid(name)
    return name
  }
  const userVersion = db.prepare('PRAGMA main.user_version').pluck()
  // The rows copied back are the snapshot's: no trigger runs on them (restoring.ts).
  const restoring = restoreFlag(db)

  const attached = () => !!db.prepare('SELECT 1 FROM pragma_database_list WHERE name = ?').get(SCHEMA)
  /**
   * False when there can be no snapshot to read: an in-memory store that never saved one (reading
   * needs no attaching, which would commit the held transaction).
   */
  const readable = () => data !== ':memory:' || attached()
  /** Attaches (and sets up) the snapshots' database, outside a transaction: a held one is committed. */
  const attach = () => {
    if (attached()) return
    seedSnapshot.release()
    let file = ':memory:'
    if (data !== ':memory:') {
      file = join(privateDir(data), 'snapshots.sqlite3')
      privateFile(file, [`${file}-journal`])
    }
    db.prepare(`ATTACH DATABASE ? AS ${SCHEMA}`).run(file)
    db.exec(`CREATE TABLE IF NOT EXISTS ${LIST} (name TEXT PRIMARY KEY, created_at TEXT NOT NULL,
      rows INTEGER NOT NULL, user_version INTEGER NOT NULL, tables TEXT NOT NULL)`)
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${SEQUENCES} (snapshot TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER)`,
    )
  }
  const entry = (name: string) =>
    db
      .prepare(`SELECT name, created_at, rows, user_version, tables FROM ${LIST} WHERE name = ?`)
      .get(name) as (NamedSnapshot & { user_version: number; tables: string }) | undefined
  const schemaVersion = db.prepare('PRAGMA main.schema_version').pluck()
  type Copies = { schema: number; steps: ReturnType<typeof copyBack>[] }
  /** Each restored snapshot's statements, kept while the main schema stays (reading shapes costs most of a restore). */
  const restorers = new Map<string, Copies>()
  const restorer = (name: string, saved: Set<string>) => {
    const schema = schemaVersion.get() as number
    let found = restorers.get(name)
    if (found?.schema !== schema) {
      const steps = shapes().map((shape) =>
        saved.has(shape.name)
          ? copyBack(db, shape, copyOf(name, shape.name))
          : { remove: () => void db.exec(`DELETE FROM main.${ident(shape.name)}`), copy: () => undefined },
      )
      restorers.set(name, (found = { schema, steps }))
    }
    return found.steps
  }
  const drop = (name: string, tables: string) => {
    restorers.delete(name)
    for (const table of JSON.parse(tables) as string[]) db.exec(`DROP TABLE IF EXISTS ${copyOf(name, table)}`)
    db.prepare(`DELETE FROM ${SEQUENCES} WHERE snapshot = ?`).run(name)
    db.prepare(`DELETE FROM ${LIST} WHERE name = ?`).run(name)
  }
  const hasSequences = () =>
    !!db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get()
  const shapes = () =>
    parentsFirst(
      db,
      dataTables(db).map((table) => tableShape(db, table)),
    )

  return {
    /** The snapshots, by name. */
    list(): NamedSnapshot[] {
      if (!readable()) return []
      attach()
      return db.prepare(`SELECT name, created_at, rows FROM ${LIST} ORDER BY name`).all() as NamedSnapshot[]
    },
    /** Saves the store as `name`; a taken name throws `SnapshotTaken` unless `replace`. */
    save(name: string, createdAt: string, replace: boolean): NamedSnapshot {
      checked(name)
      attach()
      seedSnapshot.release()
      return db.transaction(() => {
        const old = entry(name)
        if (old && !replace) throw new SnapshotTaken(name)
        if (old) drop(name, old.tables)
        const tables = shapes()
        let rows = 0
        for (const shape of tables) {
          const to = copyOf(name, shape.name)
          copyOut(db, shape, to)
          rows += db.prepare(`SELECT COUNT(*) FROM ${to}`).pluck().get() as number
        }
        if (hasSequences())
          db.prepare(`INSERT INTO ${SEQUENCES} SELECT ?, name, seq FROM main.sqlite_sequence`).run(name)
        const names = JSON.stringify(tables.map((t) => t.name))
        db.prepare(`INSERT INTO ${LIST} VALUES (?, ?, ?, ?, ?)`).run(
          name,
          createdAt,
          rows,
          userVersion.get(),
          names,
        )
        return { name, created_at: createdAt, rows }
      })
    },
    /**
     * Puts every main table back as snapshot `name` has it, in one transaction with foreign keys
     * off (children emptied first, parents filled first; the snapshot was a consistent state).
     */
    restore(name: string): NamedSnapshot {
      checked(name)
      if (!readable()) throw new SnapshotMissing(name)
      attach()
      const found = entry(name)
      if (!found) throw new SnapshotMissing(name)
      if (found.user_version !== userVersion.get()) throw new SnapshotStale(name)
      const saved = new Set(JSON.parse(found.tables) as string[])
      // Outside any transaction: SQLite ignores the pragma inside one.
      seedSnapshot.release()
      db.exec('PRAGMA foreign_keys = OFF')
      try {
        db.transaction(() => {
          seedSnapshot.replacedAll()
          const copies = restorer(name, saved)
          restoring(() => {
            for (const { remove } of [...copies].reverse()) remove()
            for (const { copy } of copies) copy()
          })
          if (hasSequences()) {
            db.exec('DELETE FROM main.sqlite_sequence')
            db.prepare(
              `INSERT INTO main.sqlite_sequence SELECT name, seq FROM ${SEQUENCES} WHERE snapshot = ?`,
            ).run(name)
          }
        })
      } finally {
        db.exec('PRAGMA foreign_keys = ON')
      }
      return { name: found.name, created_at: found.created_at, rows: found.rows }
    },
    /** Removes snapshot `name`; `SnapshotMissing` when there is none. */
    remove(name: string): void {
      checked(name)
      if (!readable()) throw new SnapshotMissing(name)
      attach()
      const found = entry(name)
      if (!found) throw new SnapshotMissing(name)
      seedSnapshot.release()
      db.transaction(() => drop(name, found.tables))
    },
  }
}
export type NamedSnapshots = ReturnType<typeof namedSnapshots>
