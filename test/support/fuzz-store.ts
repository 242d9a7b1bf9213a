import { createHash } from 'node:crypto'
import type { Db } from '../../src/server/store/db.js'

/** Table name -> `rows:hash` of its content, in rowid (or primary key) order: equal snapshots mean an unchanged store. */
export type Snapshot = Record<string, string>

/**
 * Snapshots every table of the store (row count and a hash of every row), for "a refused request
 * changes nothing". `ignore` names tables or `table.column`s that legitimately move on any request.
 */
export function snapshotStore(db: Db, ignore: string[] = []): Snapshot {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[]
  const out: Snapshot = {}
  for (const table of tables) {
    if (ignore.includes(table)) continue
    // A WITHOUT ROWID table (git objects) is read in its primary key's order.
    const withoutRowid = db.prepare('SELECT wr FROM pragma_table_list(?)').pluck().get(table) === 1
    const order = withoutRowid ? '' : ' ORDER BY rowid'
    const rows = db.prepare(`SELECT * FROM "${table}"${order}`).raw().all() as unknown[][]
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]
    const skip = new Set(columns.flatMap((c, i) => (ignore.includes(`${table}.${c}`) ? [i] : [])))
    const hash = createHash('sha1')
    for (const row of rows)
      hash.update(
        JSON.stringify(
          row.map((v, i) =>
            skip.has(i) ? null : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
          ),
        ),
      )
    out[table] = `${rows.length}:${hash.digest('hex').slice(0, 12)}`
  }
  return out
}

/** The tables whose snapshot differs, as `table: before -> after`. */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names].filter((n) => before[n] !== after[n]).map((n) => `${n}: ${before[n]} -> ${after[n]}`)
}
