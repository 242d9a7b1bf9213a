import { join } from 'node:path'
import { applyMigration, type Migration } from './migration.js'
import { migrations } from './migrations.js'
import { privateDir, privateFile } from './private-files.js'
import { Connection } from './sqlite.js'

export type Db = Connection
export type { Statement } from './sqlite.js'

/**
 * Opens the store: `:memory:` keeps nothing, a directory keeps `gitlab.sqlite3` in it.
 * WAL journal, foreign keys on, and every pending migration applied. The page cache stays at
 * SQLite's 2 MB: the file's pages are in the OS page cache already, so a larger private cache
 * holds them twice in the server's memory (an export and import of 100,000 issues peaked 20 MB
 * higher with 16 MB) and saved no measurable time. `:memory:` stores are not bounded by it.
 * The directory is made 0700 and the database, WAL and shared-memory files 0600.
 */
export function openDb(data: string): Db {
  let file = ':memory:'
  if (data !== ':memory:') {
    file = join(privateDir(data), 'gitlab.sqlite3')
    privateFile(file, [`${file}-wal`, `${file}-shm`])
  }
  // A new in-memory store starts from the image of one migrated earlier in this process.
  const db = new Connection(file, file === ':memory:' ? migratedImage : undefined)
  db.exec(`PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON;
    PRAGMA busy_timeout = 5000;`)
  migrate(db)
  if (file === ':memory:') migratedImage ??= db.serialize()
  return db
}

/**
 * Start-up time: a new store's schema, 21 migrations of DDL, took SQLite longer to build than
 * anything else in a warm `startServer()` (half of it, with the statements then prepared at once).
 * The first `:memory:` store of a process is migrated and its file image kept; later ones are
 * copied from it in a fraction of a millisecond, `user_version` included, so `migrate` finds
 * nothing left to do. (A directory's store is a file: it migrates as before.)
 */
let migratedImage: Uint8Array | undefined

function migrate(db: Db): void {
  const current = db.prepare('PRAGMA user_version').pluck().get() as number
  for (let version = current; version < migrations.length; version++)
    applyMigration(db, migrations[version] as Migration, version + 1)
}

/** True when the store holds no users yet (so a seed may be applied). */
export function isEmpty(db: Db): boolean {
  return !db.prepare('SELECT 1 FROM users LIMIT 1').get()
}
