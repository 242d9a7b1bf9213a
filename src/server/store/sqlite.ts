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

/** True for a UNIQUE, FOREIGN KEY, NOT NULL or CHECK violation (node:sqlite's `errcode` is the extended code). */
export function isConstraintError(err: unknown): boolean {
  const code = (err as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' && (code & 0xff) === SQLITE_CONSTRAINT
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
  /** `onWrite` is called before each run of a statement that may change rows (all but a SELECT). */
  constructor(
    private readonly compile: () => StatementSync,
    private readonly onWrite?: () => void,
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
    this.onWrite?.()
    const row = this.#prepared.get(...bindable(params))
    return this.#plucked ? (row as unknown as unknown[] | undefined)?.[0] : row
  }

  all(...params: unknown[]): unknown[] {
    this.onWrite?.()
    const rows = this.#prepared.all(...bindable(params))
    return this.#plucked ? rows.map((row) => (row as unknown as unknown[])[0]) : rows
  }

  /**
   * The rows one at a time, for a read that may stop early (leaving the loop resets the statement).
   * Finish with it before anything else runs on the connection: no `await` inside the loop.
   */
  *iterate(...params: unknown[]): Generator<unknown> {
    this.onWrite?.()
    for (const row of this.#prepared.iterate(...bindable(params)))
      yield this.#plucked ? (row as unknown as unknown[])[0] : row
  }

  run(...params: unknown[]): RunResult {
    this.onWrite?.()
    return this.#prepared.run(...bindable(params))
  }
}

/**
 * The store's one connection, over Node's built-in `node:sqlite`: prepared statements, plain SQL,
 * and transactions that nest as savepoints (an import saves each line in its own savepoint, so a
 * bad line is rolled back alone inside its batch's transaction).
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
  readonly #wrote = () => void this.#writes++

  /** `image`: an in-memory database's content to start from, from `serialize()`. */
  constructor(file: string, image?: Uint8Array) {
    this.#db = new DatabaseSync(file)
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
      READ_ONLY.test(sql) ? undefined : this.#wrote,
    )
  }

  /** The main database as SQLite's file image (for an in-memory one, its whole content). */
  serialize(): Uint8Array {
    return this.#db.serialize()
  }

  /** Runs SQL without results (DDL, PRAGMA settings); several statements may be given at once. */
  exec(sql: string): void {
    this.#wrote()
    this.#db.exec(sql)
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
    const nested = this.#db.isTransaction
    if (nested) this.#savepoint.run()
    else this.#begin.run()
    try {
      const result = fn()
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
      for (const hook of this.#rolledBack) hook()
      throw err
    }
  }

  /**
   * Calls `hook` after each rollback, of a transaction or a savepoint: rows written and then
   * undone leave `total_changes()` where they took it, so a cache cannot see the undo by itself.
   */
  onRollback(hook: () => void): void {
    this.#rolledBack.push(hook)
  }

  /** True while a transaction (or savepoint) is open on the connection. */
  get inTransaction(): boolean {
    return this.#db.isTransaction
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close()
  }
}
