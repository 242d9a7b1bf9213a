import { closeSync, openSync, readSync } from 'node:fs'
import { endianness } from 'node:os'
import { pathToFileURL } from 'node:url'
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import { opaqueParameters } from './opaque-parameters.js'
import { shapedRows, type RowSource } from './row-shape.js'

/** `run()`'s result: rows changed and the last inserted rowid. */
export interface RunResult {
  changes: number | bigint
  lastInsertRowid: number | bigint
}

/** SQLite's primary result code of a constraint violation (`SQLITE_CONSTRAINT`). */
const SQLITE_CONSTRAINT = 19
/** Its extended code for a foreign key (`SQLITE_CONSTRAINT_FOREIGNKEY`). */
const SQLITE_CONSTRAINT_FOREIGNKEY = 787

/** True for a UNIQUE, FOREIGN KEY, NOT NULL or CHECK violation (node:sqlite's `errcode` is the extended code). */
export function isConstraintError(err: unknown): boolean {
  const code = (err as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' && (code & 0xff) === SQLITE_CONSTRAINT
}

/** SQLite's primary result code of a lock held by another connection of the same shared cache (`SQLITE_LOCKED`). */
const SQLITE_LOCKED = 6

/** True when a table or database lock of another connection sharing the page cache stopped a statement. */
export function isSharedCacheLockError(err: unknown): boolean {
  const code = (err as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' && (code & 0xff) === SQLITE_LOCKED
}

/**
 * node:sqlite refuses `undefined`, which the store has always bound as NULL (optional fields of a
 * row); mapped here, copying only when one is present, so most calls pass their arguments as they are.
 */
function bindable(params: unknown[]): SQLInputValue[] {
  // One plain object is a row of named parameters (node:sqlite's overloads take it first).
  if (
    params.length === 1 &&
    typeof params[0] === 'object' &&
    params[0] !== null &&
    !ArrayBuffer.isView(params[0])
  ) {
    const named = params[0] as Record<string, unknown>
    for (const key in named)
      if (named[key] === undefined) return [withNulls(named) as unknown as SQLInputValue]
    return params as SQLInputValue[]
  }
  return (
    params.includes(undefined) ? params.map((p) => (p === undefined ? null : p)) : params
  ) as SQLInputValue[]
}

function withNulls(named: Record<string, unknown>): Record<string, SQLInputValue> {
  const out: Record<string, SQLInputValue> = {}
  for (const key in named) out[key] = (named[key] ?? null) as SQLInputValue
  return out
}

/** A statement that can only read: a plain SELECT (a `WITH` may hide a write, so it counts as one). */
const READ_ONLY = /^\s*SELECT\b/i

/** What the connection hears of each run of a statement that may change rows (all but a SELECT). */
interface WriteHooks {
  /** Before the run. */
  before(): void
  /** After a run that threw: SQLite may have rolled the whole transaction back. */
  failed(): void
}

/**
 * A prepared statement. Rows come as objects, or as arrays after `raw()`, or as their first column
 * after `pluck()` (both switch the statement for good, as they did with better-sqlite3).
 * Start-up time: SQLite compiles the SQL on the statement's first run, not when the store's table
 * modules make it: a new store made some 350 statements, most of which a server never runs, and
 * compiling them was a fifth of a warm `startServer()`. (An error in the SQL shows on that first run.)
 */
export class Statement {
  #plucked = false
  #arrays = false
  #stmt: StatementSync | undefined
  /** `writes` hears each run of a statement that may change rows (all but a SELECT). */
  constructor(
    private readonly compile: () => StatementSync,
    private readonly writes?: WriteHooks,
  ) {}

  /** What the statement's runs go through: `#stmt` itself for arrays, else its rows as plain objects (row-shape.ts). */
  #rows: RowSource | undefined

  get #prepared(): RowSource {
    if (this.#rows) return this.#rows
    const stmt = this.compile()
    // Named parameters are written `@name` and bound from `{ name }` (bare names are node:sqlite's
    // default); the row may carry fields the statement does not use.
    stmt.setAllowUnknownNamedParameters(true)
    stmt.setReturnArrays(true)
    this.#stmt = stmt
    return (this.#rows = this.#arrays ? stmt : shapedRows(stmt))
  }

  /** Each row as an array of column values, in SELECT order. */
  raw(): this {
    this.#arrays = true
    this.#rows = this.#stmt
    return this
  }

  /** Each row as its first column's value. */
  pluck(): this {
    this.#plucked = true
    return this.raw()
  }

  get(...params: unknown[]): unknown {
    this.writes?.before()
    try {
      const row = this.#prepared.get(...bindable(params))
      return this.#plucked ? (row as unknown as unknown[] | undefined)?.[0] : row
    } catch (err) {
      this.writes?.failed()
      throw err
    }
  }

  all(...params: unknown[]): unknown[] {
    this.writes?.before()
    try {
      const rows = this.#prepared.all(...bindable(params))
      return this.#plucked ? rows.map((row) => (row as unknown as unknown[])[0]) : rows
    } catch (err) {
      this.writes?.failed()
      throw err
    }
  }

  /**
   * The rows one at a time, for a read that may stop early (leaving the loop resets the statement).
   * Finish with it before anything else runs on the connection: no `await` inside the loop.
   */
  *iterate(...params: unknown[]): Generator<unknown> {
    this.writes?.before()
    try {
      for (const row of this.#prepared.iterate(...bindable(params)))
        yield this.#plucked ? (row as unknown as unknown[])[0] : row
    } catch (err) {
      this.writes?.failed()
      throw err
    }
  }

  run(...params: unknown[]): RunResult {
    this.writes?.before()
    try {
      return this.#prepared.run(...bindable(params))
    } catch (err) {
      this.writes?.failed()
      throw err
    }
  }
}

/**
 * The store's one connection, over Node's built-in `node:sqlite`: prepared statements, plain SQL,
 * and transactions that nest as savepoints (an import saves each line in its own savepoint, so a
 * bad line is rolled back alone inside its batch's transaction). An in-memory store's reset holds
 * one transaction open under all the others (`hold`, store/snapshot.ts): a reset rolls it back.
 */
export class Connection {
  readonly #db: DatabaseSync
  readonly #begin: StatementSync
  readonly #commit: StatementSync
  readonly #rollback: StatementSync
  readonly #savepoint: StatementSync
  readonly #release: StatementSync
  readonly #rollbackTo: StatementSync
  readonly #rolledBack: (() => void)[] = []
  #writes = 0
  /** Transactions and savepoints `transaction` has open. */
  #depth = 0
  /** True while a transaction is held open under every other (`hold`). */
  #held = false
  /** True when the open transaction deferred its foreign keys inside a held one (`deferForeignKeys`). */
  #deferred = false
  /** The database file (`:memory:` for an in-memory one): its WAL index is `${file}-shm`. */
  readonly #file: string
  /** The checkpoint `checkpointLater` left for idle time, until it runs. */
  #idleCheckpoint: NodeJS.Immediate | undefined
  #autocheckpoint: StatementSync | undefined
  /** The `-shm` file, open from the first reset until `close` (an open and a close cost 0.01 ms a reset). */
  #shm: number | undefined
  readonly #shmHeader = Buffer.alloc(20)
  readonly #writeHooks: WriteHooks = {
    before: () => {
      this.#writes++
      this.#noticeEnded()
      this.#checkpointOff?.()
    },
    failed: () => this.#noticeEnded(),
  }

  /** Inside `checkpointLater`, until this connection's first write there: turns its checkpoint off. */
  #checkpointOff: (() => void) | undefined
  /** The second connection `undoConnection` opened, closed with this one. */
  #undoConnection: Connection | undefined
  readonly #sharedCache: boolean

  /**
   * `image`: an in-memory database's content to start from, from `serialize()`. `sharedCache`: a
   * file opened in SQLite's shared-cache mode, so that `undoConnection` shares its page cache.
   * `foreignKeys: false`: foreign keys off from the open (a pragma later expires every statement).
   */
  constructor(
    file: string,
    image?: Uint8Array,
    { sharedCache = false, foreignKeys = true }: { sharedCache?: boolean; foreignKeys?: boolean } = {},
  ) {
    this.#file = file
    this.#sharedCache = sharedCache && file !== ':memory:'
    this.#db = new DatabaseSync(this.#sharedCache ? `${pathToFileURL(file).href}?cache=shared` : file, {
      enableForeignKeyConstraints: foreignKeys,
    })
    // Reads take no table locks in the shared cache: the undo connection may write a table this
    // one read in a transaction still open (a reset's, whose writes are all the undo connection's).
    if (this.#sharedCache) this.#db.exec('PRAGMA read_uncommitted = 1')
    // Before any statement: node:sqlite finalizes those prepared before a deserialize.
    if (image) this.#db.deserialize(image)
    this.#begin = this.#db.prepare('BEGIN')
    this.#commit = this.#db.prepare('COMMIT')
    this.#rollback = this.#db.prepare('ROLLBACK')
    this.#savepoint = this.#db.prepare('SAVEPOINT nested')
    this.#release = this.#db.prepare('RELEASE nested')
    this.#rollbackTo = this.#db.prepare('ROLLBACK TO nested')
  }

  prepare(sql: string): Statement {
    return new Statement(
      () => this.#db.prepare(opaqueParameters(sql)),
      READ_ONLY.test(sql) ? undefined : this.#writeHooks,
    )
  }

  /** The main database as SQLite's file image (for an in-memory one, its whole content). */
  serialize(): Uint8Array {
    return this.#db.serialize()
  }

  /** Runs SQL without results (DDL, PRAGMA settings); several statements may be given at once. */
  exec(sql: string): void {
    this.#writeHooks.before()
    try {
      this.#db.exec(sql)
    } catch (err) {
      this.#writeHooks.failed()
      throw err
    }
  }

  /**
   * Calls so far that may have changed rows: every statement run but a SELECT's, every `exec`.
   * While it stands still `total_changes()` cannot have moved (BEGIN and COMMIT change no rows, and
   * a rollback does not move it back: `onRollback` is told), so a cache that checks the store on
   * every request need not ask SQLite again.
   */
  get writes(): number {
    return this.#writes
  }

  /**
   * Runs `fn` in a transaction, or in a savepoint when one is already open: it all lands or none of
   * it does, and the error is rethrown. A COMMIT that fails (a deferred foreign key) rolls back too.
   */
  transaction<T>(fn: () => T): T {
    this.#noticeEnded()
    const nested = this.#db.isTransaction
    if (nested) this.#savepoint.run()
    else this.#begin.run()
    this.#depth++
    try {
      const result = fn()
      if (this.#deferred && this.#depth === 1) this.#checkDeferred()
      if (nested) this.#release.run()
      else this.#commit.run()
      return result
    } catch (err) {
      // SQLite may have rolled the whole transaction back itself (out of disk, say).
      if (this.#db.isTransaction) {
        if (nested) {
          this.#rollbackTo.run()
          this.#release.run()
        } else this.#rollback.run()
      }
      this.#told()
      throw err
    } finally {
      if (--this.#depth === 0) {
        if (this.#deferred) {
          this.#deferred = false
          this.#db.exec('PRAGMA defer_foreign_keys = OFF')
        }
        this.#noticeEnded()
      }
    }
  }

  /**
   * Foreign keys of the open transaction are checked when it ends, not at each statement; inside a
   * transaction. SQLite checks them at COMMIT, which a transaction inside a held one never reaches:
   * there the outermost `transaction` checks them itself (`PRAGMA foreign_key_check`) and turns the
   * deferral off again, or every later write would go unchecked until the reset.
   */
  deferForeignKeys(): void {
    this.exec('PRAGMA defer_foreign_keys = ON')
    if (this.#held) this.#deferred = true
  }

  /** Throws SQLite's own error when a deferred foreign key is broken (what its COMMIT would throw). */
  #checkDeferred(): void {
    if (this.#db.prepare('PRAGMA main.foreign_key_check').get() === undefined) return
    throw Object.assign(new Error('FOREIGN KEY constraint failed'), {
      code: 'ERR_SQLITE_ERROR',
      errcode: SQLITE_CONSTRAINT_FOREIGNKEY,
      errstr: 'constraint failed',
    })
  }

  /**
   * Opens a transaction held under every other until `rollBackHeld` takes the database back to
   * this moment or `commitHeld` keeps what changed since; outside any transaction. Every
   * `transaction` inside it is a savepoint, and `inTransaction` leaves it out. SQLite's journal
   * keeps the first image of each page changed since, so a rollback puts back in time proportional
   * to the pages written, whatever the database holds, and writes run no trigger to log rows.
   */
  hold(): void {
    this.#noticeEnded()
    if (this.#held) return
    if (this.#db.isTransaction) throw new Error('hold: a transaction is open')
    this.#begin.run()
    this.#held = true
  }

  /** True while `hold`'s transaction is open: false once SQLite ended it (`#noticeEnded`). */
  get held(): boolean {
    this.#noticeEnded()
    return this.#held
  }

  /** Back to where `hold` began, which holds again; outside any other transaction. */
  rollBackHeld(): void {
    this.#noticeEnded()
    if (!this.#held || this.#depth > 0)
      throw new Error('rollBackHeld: nothing held, or a transaction is open')
    this.#rollback.run()
    this.#begin.run()
    this.#told()
  }

  /** Commits `hold`'s transaction: what changed since stays; outside any other transaction. */
  commitHeld(): void {
    this.#noticeEnded()
    if (!this.#held) return
    if (this.#depth > 0) throw new Error('commitHeld: a transaction is open')
    this.#held = false
    this.#commit.run()
  }

  /**
   * SQLite may end the held transaction itself: roll it back (SQLITE_FULL, SQLITE_NOMEM, a conflict
   * resolved by ROLLBACK) or commit it (a COMMIT or END run as a statement). Which of the two is not
   * known here, and after a commit the database keeps what was written since `hold`: so it is held
   * no more, the next reset copies the snapshot back whole (store/snapshot.ts `rollsBack`), and the
   * caches are told (a rollback moves rows but not `total_changes()`). Noticed before anything else
   * is written, where the outermost transaction ends, and whenever the hold is asked about.
   */
  #noticeEnded(): void {
    if (!this.#held || this.#depth > 0 || this.#db.isTransaction) return
    this.#held = false
    this.#told()
  }

  #told(): void {
    for (const hook of this.#rolledBack) hook()
  }

  /**
   * Calls `hook` after each rollback, of a transaction, a savepoint or a held transaction: rows
   * written and then undone leave `total_changes()` where they took it, so a cache cannot see the
   * undo by itself.
   */
  onRollback(hook: () => void): void {
    this.#rolledBack.push(hook)
  }

  /**
   * Rows changed through another connection (`undoConnection`'s reset): `total_changes()` here did
   * not move, so caches hear it as they hear a rollback, and start over.
   */
  changedElsewhere(): void {
    this.#writes++
    this.#told()
  }

  /** True while a transaction (or savepoint) is open on the connection, a held one left out. */
  get inTransaction(): boolean {
    return this.#held ? this.#depth > 0 : this.#db.isTransaction
  }

  /**
   * Runs `fn` (a reset) with SQLite's automatic checkpoint off, and runs the checkpoint its commit
   * would have run once the event loop is idle (after the reset's answer went out). The automatic
   * one copies the WAL into the database in the commit that takes the WAL past `wal_autocheckpoint`
   * frames, with two fsyncs: 4-12 ms in a reset of 1.5 ms (BENCHMARKS.md, stop 47). Durability is
   * unchanged: what a commit wrote is in the WAL, which SQLite replays after a kill.
   * Turned off at this connection's first write inside `fn` only (SQLite checkpoints in a commit
   * that wrote): a reset undone on `undoConnection`, whose own is off, writes nothing here, and saves
   * the two pragmas' compilations (0.1 ms). Its frames count all the same below.
   */
  checkpointLater<T>(fn: () => T): T {
    if (this.#file === ':memory:' || this.#db.isTransaction) return fn()
    this.#autocheckpoint ??= this.#db.prepare('PRAGMA wal_autocheckpoint')
    const { wal_autocheckpoint: due } = this.#autocheckpoint.get() as { wal_autocheckpoint: number }
    let off = false
    this.#checkpointOff = () => {
      this.#checkpointOff = undefined
      this.#db.exec('PRAGMA wal_autocheckpoint = 0')
      off = true
    }
    try {
      return fn()
    } finally {
      this.#checkpointOff = undefined
      if (off) this.#db.exec(`PRAGMA wal_autocheckpoint = ${due}`)
      if (due > 0 && this.#walFrames() >= due)
        this.#idleCheckpoint ??= setImmediate(() => {
          this.#idleCheckpoint = undefined
          // A transaction open at idle time (none should be) leaves it to the next commit's.
          if (this.#db.isOpen && !this.#db.isTransaction) this.#db.exec('PRAGMA wal_checkpoint(PASSIVE)')
        }).unref()
    }
  }

  /**
   * Frames in the WAL: `mxFrame` of the WAL index's header (sqlite.org/walformat.html: a 32-bit
   * integer at byte 16 of the `-shm` file, in the machine's byte order). node:sqlite has no WAL hook.
   */
  #walFrames(): number {
    const header = this.#shmHeader
    try {
      this.#shm ??= openSync(`${this.#file}-shm`, 'r')
      if (readSync(this.#shm, header, 0, 20, 0) < 20) return 0
    } catch {
      this.#closeShm()
      return 0
    }
    return endianness() === 'LE' ? header.readUInt32LE(16) : header.readUInt32BE(16)
  }

  #closeShm(): void {
    if (this.#shm !== undefined) closeSync(this.#shm)
    this.#shm = undefined
  }

  /**
   * A second connection to a file opened with `sharedCache`, with foreign keys off from its open and
   * no automatic checkpoint (this one's `checkpointLater` runs it): a data directory's reset undoes
   * on it (store/snapshot.ts). Its statements compile without the foreign key actions and without
   * this connection's TEMP triggers; sharing the page cache, neither connection reads the other's
   * writes again from the file. Undefined for an in-memory database.
   */
  undoConnection(): Connection | undefined {
    if (!this.#sharedCache) return undefined
    if (!this.#undoConnection) {
      const other = new Connection(this.#file, undefined, { sharedCache: true, foreignKeys: false })
      other.exec(
        'PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = 0',
      )
      this.#undoConnection = other
    }
    return this.#undoConnection
  }

  close(): void {
    this.#undoConnection?.close()
    this.#undoConnection = undefined
    clearImmediate(this.#idleCheckpoint)
    this.#idleCheckpoint = undefined
    this.#closeShm()
    if (this.#db.isOpen) this.#db.close()
  }
}
