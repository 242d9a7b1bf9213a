import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { inspectDb } from '../../src/server/store/inspect.js'

/**
 * Every table of a store's main database, read from its schema (tables other branches add are
 * dumped without a change here), each in rowid order with the rowid (a WITHOUT ROWID table in key
 * order), `sqlite_sequence` among them when the schema has one. `emulator_meta` is left out: the
 * store's own settings, which a reset keeps.
 */
export function storeDump(store: object): Record<string, unknown[]> {
  const db = inspectDb(store)
  const tables = db
    .prepare(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT IN ('emulator_meta', 'sqlite_schema') ORDER BY name",
    )
    .all() as { name: string; wr: number }[]
  const dump: Record<string, unknown[]> = {}
  for (const { name, wr } of tables) {
    const table = `main."${name.replace(/"/g, '""')}"`
    dump[name] = db
      .prepare(wr ? `SELECT * FROM ${table}` : `SELECT rowid AS "(rowid)", * FROM ${table} ORDER BY rowid`)
      .all()
  }
  return dump
}

/** The files under `dir` (paths relative to it, with a digest of each), but those `skip` names. */
export function filesDump(dir: string, skip: (path: string) => boolean): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (at: string) => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry)
      const name = relative(dir, path)
      if (skip(name)) continue
      if (statSync(path).isDirectory()) walk(path)
      else files[name] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }
  walk(dir)
  return files
}
