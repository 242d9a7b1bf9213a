import type { Db, Statement } from './db.js'
import { restoreFlag } from './restoring.js'
import { isConstraintError, isSharedCacheLockError } from './sqlite.js'
import {
  attachLogDatabase,
  ident,
  parentsFirst,
  tableShape,
  undoLog,
  type TableShape,
  type UndoLog,
} from './undo-log.js'

/** Every table of the main database but the store's own key material and the seed it remembers. */
const TABLES =
  "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'emulator_meta'"
export const dataTables = (db: Db) => db.prepare(TABLES).pluck().all() as string[]

/**
 * Rows the undo log keeps (each row touched once, its first image) before it stops and the next
 * reset copies every table back instead: it bounds the log's memory after a large import. 10,000
 * API writes on the 1,000-issue seed log about 23,000 rows, which undo in about the copy's time
 * (bench/reset.ts): deleting a row costs the same either way, its indexes and foreign keys.
 */
export const UNDO_LOG_BOUND = 100_000

/**
 * Foreign key actions (`UndoLog.foreignKeyWorkAbove`: rows inserted since the snapshot, each weighed by
 * the foreign keys that refer to its table) past which a reset runs with foreign keys off. Each
 * deleted parent row is otherwise looked up in every child table and its action run: the 1,000
 * issues of bench/api-world (about 17,000 actions) took 6-25 ms of a 8-30 ms reset with them on,
 * 1.3-1.8 ms with them off. Turning them off expires every prepared statement of the connection
 * (SQLite does on any flag pragma): the requests after it prepare theirs again, about 6 ms for a
 * small test's eight requests, which is more than a small reset saves. The count of rows logged is
 * no measure of this: updates, and rows of tables nothing refers to, cost no lookup.
 */
const UNCHECKED_ABOVE = 10_000

/**
 * Rows a table's log must hold before a reset with foreign keys off truncates the table and copies
 * its snapshot back rather than undoing row by row. Dropping and making its delete trigger again
 * costs 0.2 ms whatever the table holds; deleting costs 0.6-2 us a row (subscriptions to issues:
 * their indexes), so below a few hundred rows the delete is cheaper. The statements the new trigger
 * expires were expired already by turning foreign keys off. After 10,000 API writes on the
 * 1,000-issue seed: 6,666 notes 0.6 ms truncated against 11 ms deleted, 4,334 issues 0.6 against 8.5
 * ms (bench/reset's world, on a loaded machine).
 */
const COPIED_ABOVE = 300

/**
 * Empties every table but `emulator_meta` (`POST /-/emulator/reset`); inside a transaction. Tables
 * are read from the schema, so a new migration needs no change here; foreign keys are checked at
 * commit, when everything is gone.
 */
export function emptyDataTables(db: Db): void {
  const tables = dataTables(db)
  db.deferForeignKeys()
  for (const table of tables) db.prepare(`DELETE FROM "${table}"`).run()
}

/** What `take` keeps once its transaction commits. */
interface Taken {
  /** The rows changed since (a store with a data directory); an in-memory store holds a transaction instead. */
  log?: UndoLog
  /** `PRAGMA schema_version` at the time: a table made or dropped since is not in the snapshot. */
  schemaVersion: number
  /** `sqlite_sequence` (AUTOINCREMENT counters), when the schema has one. */
  sequences?: [string, number][]
  /**
   * Per table, parents first: empties it, and copies its seeded rows back (the full restore), with
   * how many rows it had.
   */
  copies: Map<string, { remove: () => void; copy: () => void; rows: number }>
}

/**
 * The seeded state of the store, for resets. A copy of every table in an in-memory database
 * attached to the connection (`seeded`, with the rows' rowids), which a full restore copies back,
 * taken in the transaction that seeded; and a way back in time proportional to what changed
 * rather than to the seed:
 * - an in-memory store (`holds`) then holds a transaction open (sqlite.ts `hold`), and a reset
 *   rolls it back: SQLite's journal puts back the pages written since, and no trigger runs on the
 *   way (bench/reset.ts: after 100 API writes on the 1,000-issue seed 0.13-0.3 ms, against 0.8-1.3 ms
 *   for the undo log). The journal keeps a page's first image only, so it never outgrows the seed.
 *   What must run outside a transaction (`ATTACH`, `PRAGMA foreign_keys`: named snapshots) commits
 *   it first (`release`): the next reset copies the seed back whole, and holds again; so it does
 *   after SQLite ended the held transaction itself (sqlite.ts `#noticeEnded`);
 * - a store with a data directory, whose writes must reach the file, keeps an undo log of the rows
 *   changed since (undo-log.ts), which a reset applies (0.1 ms for examples/seed.yaml, from
 *   1.4-1.8 ms; 1.5-1.6 ms of CPU after the 100 writes above, foreign keys 0.24 ms and the COMMIT
 *   0.3 ms of it: BENCHMARKS.md, stop 45).
 * The full restore runs when the log overflowed (UNDO_LOG_BOUND) or the undo met a constraint.
 * Tables come from the schema when the snapshot is taken; when the schema changed since, the
 * snapshot is taken again. Lives as long as the connection.
 */
export function storeSnapshot(db: Db, { holds }: { holds: boolean }) {
  let taken: Taken | undefined
  let bound = UNDO_LOG_BOUND
  let lastRestore: 'none' | 'undo' | 'full' | 'rollback' = 'none'
  let uncheckedAbove = UNCHECKED_ABOVE
  let lastUnchecked = false
  let lastUndoConnection = false
  let lastCopied: string[] = []
  // True while foreign keys are off for a reset.
  let unchecked = false
  const schemaVersion = db.prepare('PRAGMA main.schema_version').pluck()
  // The undo's updates and the copy's inserts are no writes: no trigger runs on them (restoring.ts).
  const restoring = restoreFlag(db)
  /**
   * A store with a data directory undoes on a second connection (sqlite.ts `undoConnection`), with
   * foreign keys off from its open and none of the log's TEMP triggers: after 100 API writes on the
   * 1,000-issue seed, 29% of the undo's instructions were foreign key actions and 11% the triggers
   * (BENCHMARKS.md, stops 50 and 51). Opened with the log's database (`attach`).
   */
  let undoDb: Db | undefined
  let undoRestoring: ReturnType<typeof restoreFlag> | undefined
  const sequenceWriters = new Map<Db, { clear: Statement; put: Statement }>()

  const restoreSequences = (sequences: [string, number][], on: Db = db) => {
    let writers = sequenceWriters.get(on)
    if (!writers)
      sequenceWriters.set(
        on,
        (writers = {
          clear: on.prepare('DELETE FROM main.sqlite_sequence'),
          put: on.prepare('INSERT INTO main.sqlite_sequence (name, seq) VALUES (?, ?)'),
        }),
      )
    writers.clear.run()
    for (const [name, seq] of sequences) writers.put.run(name, seq)
  }

  /**
   * The undo on the undo connection, in a transaction of its own that holds the whole restore
   * (inside the caller's, whose statements so far only read: they take no table lock in the shared
   * cache, sqlite.ts). Without foreign keys no action cascades; the undo still ends in the
   * snapshot's valid state, for the reason a reset with them off does (`uncheckedWhenLarge`).
   * False, with nothing written, when the undo met a constraint, or when the caller's transaction
   * wrote already (the shared cache's lock): the caller then restores on its own connection.
   */
  const undoneElsewhere = (
    on: Db,
    log: UndoLog,
    touched: readonly TableShape[],
    sequences: [string, number][] | undefined,
  ): boolean => {
    undoRestoring ??= restoreFlag(on)
    const flagged = undoRestoring
    const gaveUp = new Error('undo: restored on the store connection instead')
    try {
      on.transaction(() => {
        if (!flagged(() => undone(log, touched, [], on))) throw gaveUp
        if (sequences) restoreSequences(sequences, on)
      })
    } catch (err) {
      if (err === gaveUp || isSharedCacheLockError(err)) return false
      throw err
    }
    db.changedElsewhere()
    return true
  }

  return {
    /** True once `take` has committed, and no table was made or dropped since. */
    get taken(): boolean {
      if (!taken) return false
      if (schemaVersion.get() === taken.schemaVersion) return true
      taken.log?.remove()
      taken = undefined
      return false
    },
    /**
     * How the last restore went: nothing to undo, the undo log, the full copy-back, or the held
     * transaction rolled back (tests, benchmarks).
     */
    get lastRestore() {
      return lastRestore
    },
    /** The tables the last undo emptied whole and copied back, with foreign keys off (tests). */
    get lastCopied(): readonly string[] {
      return lastCopied
    },
    /** True when the last reset undid on the undo connection (tests). */
    get lastUndoConnection() {
      return lastUndoConnection
    },
    /** True when the last reset ran with foreign keys off (tests). */
    get lastUnchecked() {
      return lastUnchecked
    },
    /**
     * True when a reset is the held transaction's rollback: an in-memory store with its snapshot
     * held, no other transaction open, and a log bound above 0 (0 asks for the full copy-back).
     */
    get rollsBack(): boolean {
      return db.held && taken !== undefined && bound > 0 && !db.inTransaction
    },
    /** The reset of an in-memory store: back to the snapshot by rolling the held transaction back. */
    rollBack() {
      db.rollBackHeld()
      lastRestore = 'rollback'
      lastCopied = []
      lastUndoConnection = false
      lastUnchecked = false
    },
    /** After the reset's transaction committed: an in-memory store holds a transaction from here. */
    hold() {
      if (holds && taken && !db.inTransaction) db.hold()
    },
    /**
     * Commits the held transaction, when one is held and nothing runs inside it: what changed since
     * the snapshot stays, and the next reset copies the seed back whole. For what SQLite refuses
     * inside a transaction (`ATTACH`) or ignores there (`PRAGMA foreign_keys`).
     */
    release() {
      if (db.held && !db.inTransaction) db.commitHeld()
    },
    /**
     * Attaches the snapshot database, and the log's (with the undo connection, for a store that
     * keeps a log); outside a transaction (SQLite refuses `ATTACH` inside one).
     */
    attach() {
      const attached = db.prepare("SELECT 1 FROM pragma_database_list WHERE name = 'seeded'").get()
      if (!attached) db.exec("ATTACH DATABASE ':memory:' AS seeded")
      if (holds) return
      undoDb ??= db.undoConnection()
      attachLogDatabase(undoDb ? [db, undoDb] : [db])
    },
    /** Copies the main tables into the snapshot and starts the log; inside the transaction that seeded them. */
    take(): () => void {
      const shapes = parentsFirst(
        db,
        dataTables(db).map((name) => tableShape(db, name)),
      )
      for (const shape of shapes) copyOut(db, shape, `seeded.${ident(shape.name)}`)
      const log = holds ? undefined : undoLog(db, shapes, bound)
      const hasSequences = db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get()
      const sequences = hasSequences
        ? (db.prepare('SELECT name, seq FROM main.sqlite_sequence').raw().all() as [string, number][])
        : undefined
      const version = schemaVersion.get() as number
      // Usable only once the transaction commits: a rollback drops the copies and the log too.
      return () => {
        taken = {
          log,
          schemaVersion: version,
          sequences,
          copies: new Map(
            shapes.map((shape) => {
              const from = `seeded.${ident(shape.name)}`
              const rows = db.prepare(`SELECT count(*) FROM ${from}`).pluck().get() as number
              return [shape.name, { ...copyBack(db, shape, from), rows }]
            }),
          ),
        }
      }
    },
    /**
     * Runs `fn`, the reset's transaction, with foreign keys off when the undo would run many of
     * their actions, or the log overflowed and the full restore deletes every row (outside any
     * transaction: SQLite ignores the pragma inside one). Either ends in the snapshot's valid state:
     * a row that refers to one inserted since was itself inserted since (and is deleted too) or
     * updated since (and is set back to its image), so no cascade is missed.
     */
    uncheckedWhenLarge<T>(fn: () => T): T {
      lastUnchecked = false
      if (!taken || db.inTransaction) return fn()
      const { log } = taken
      // No log (an in-memory store that let its held transaction go, or that SQLite ended) is a full
      // restore. A log bound of 0 (every reset a full restore, in tests and benchmarks) overflows empty.
      const large = !log || (log.overflowed() ? log.size() > 0 : log.foreignKeyWorkAbove(uncheckedAbove))
      if (!large) return fn()
      lastUnchecked = unchecked = true
      db.exec('PRAGMA foreign_keys = OFF')
      try {
        return fn()
      } finally {
        unchecked = false
        db.exec('PRAGMA foreign_keys = ON')
      }
    },
    /** Puts every main table back as the snapshot has it; inside a transaction. */
    restore() {
      if (!taken) throw new Error('restore: no snapshot taken')
      const { log, sequences, copies } = taken
      const touched = !log || log.overflowed() ? undefined : log.touched()
      lastRestore = touched?.length === 0 ? 'none' : 'undo'
      lastCopied = []
      lastUndoConnection = false
      if (touched?.length === 0) return
      // With foreign keys off, a table whose log holds more rows than its snapshot (and than
      // COPIED_ABOVE) is emptied whole (a truncation) and copied back instead: the rows made since
      // need not be deleted one by one.
      const copied =
        unchecked && log && touched
          ? touched.filter((t) => {
              const rows = log.rows(t)
              return rows > COPIED_ABOVE && rows > copies.get(t.name)!.rows
            })
          : []
      lastCopied = copied.map((t) => t.name)
      lastUndoConnection =
        undoDb !== undefined &&
        log !== undefined &&
        touched !== undefined &&
        !unchecked &&
        undoneElsewhere(undoDb, log, touched, sequences)
      if (lastUndoConnection) return
      const cleared = copied.map((table) => ({ table, refill: copies.get(table.name)!.copy }))
      const rest = touched?.filter((t) => !copied.includes(t))
      restoring(() => {
        if (!log || !rest || !undone(log, rest, cleared)) {
          lastRestore = 'full'
          log?.logging(false)
          // Children emptied first and parents filled first: no foreign key is broken on the way, and
          // no flag pragma (`defer_foreign_keys`) expires every prepared statement of the connection.
          for (const { remove } of [...copies.values()].reverse()) remove()
          for (const { copy } of copies.values()) copy()
          log?.empty()
        }
      })
      if (sequences) restoreSequences(sequences)
    },
    /**
     * Every main table was replaced (a named snapshot's restore, named-snapshots.ts): the next reset
     * copies the seed back whole; nothing is logged until then. Inside the replacing transaction,
     * before its writes (a rollback puts the log's state back too).
     */
    replacedAll() {
      if (taken && schemaVersion.get() === taken.schemaVersion) taken.log?.abandon()
    },
    /** Sets the foreign key actions past which a reset runs with them off (tests: 0 always, Infinity never). */
    setUncheckedAbove(actions: number) {
      uncheckedAbove = actions
    },
    /**
     * Sets how many rows the undo log keeps (tests and benchmarks: 0 makes every reset a full
     * restore, also of a store that holds a transaction instead of a log).
     */
    setLogBound(rows: number) {
      bound = rows
      taken?.log?.setBound(rows)
    },
  }
}

/**
 * Undoes the log: true when done, false when a constraint or a cascade outside the log stopped it.
 * No savepoint around it (each row it first wrote was copied into the savepoint's journal: 2-5% of
 * the reset after 100 API writes): what it changed before stopping is left for the full restore,
 * which empties every table and copies the snapshot back whatever they hold. A constraint error
 * rolls back its own statement only; an error that ends the transaction is thrown.
 */
function undone(
  log: UndoLog,
  touched: readonly TableShape[],
  cleared: Parameters<UndoLog['undo']>[1],
  on?: Db,
): boolean {
  try {
    return log.undo(touched, cleared, on)
  } catch (err) {
    if (isConstraintError(err)) return false
    throw err
  }
}

/** A table's stored columns, after its rowid (as `rowid`) when it has one. */
function stored({ columns, withoutRowid }: TableShape, rowid: string): string {
  return [...(withoutRowid ? [] : [rowid]), ...columns.map(ident)].join(', ')
}

/** Copies one main table's rows, with their rowids, into a new table `to` (schema-qualified, quoted). */
export function copyOut(db: Db, shape: TableShape, to: string): void {
  db.exec(`DROP TABLE IF EXISTS ${to}`)
  db.exec(
    `CREATE TABLE ${to} AS SELECT ${stored(shape, 'rowid AS "snapshot rowid"')} FROM main.${ident(shape.name)}`,
  )
}

/** Empties one main table, and copies the rows `copyOut` put in `from` back with their rowids. */
export function copyBack(db: Db, shape: TableShape, from: string): { remove: () => void; copy: () => void } {
  const table = ident(shape.name)
  const remove = db.prepare(`DELETE FROM main.${table}`)
  // Most tables are empty in a seed (43 of them now): those are only emptied again.
  if (!db.prepare(`SELECT 1 FROM ${from} LIMIT 1`).get())
    return { remove: () => void remove.run(), copy: () => undefined }
  const copy = db.prepare(`INSERT INTO main.${table} (${stored(shape, 'rowid')}) SELECT * FROM ${from}`)
  return { remove: () => void remove.run(), copy: () => void copy.run() }
}
