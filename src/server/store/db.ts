import { join } from 'node:path'
import { applyMigration, type Migration } from './migration.js'
import { migrations } from './migrations.js'
import { keepMigratedImage, migratedImage } from './migrated-image.js'
import { privateDir, privateFile } from './private-files.js'
import { Connection } from './sqlite.js'

export type Db = Connection
export type { Statement } from './sqlite.js'

/**
 * Opens the store: `:memory:` keeps nothing, a directory keeps `gitlab.sqlite3` in it.
 * WAL journal, foreign keys on, TEMP tables in memory, and every pending migration applied. A file is
 * opened in SQLite's shared cache, which a reset's second connection shares (sqlite.ts `undoConnection`). The page cache stays at
 * SQLite's 2 MB: the file's pages are in the OS page cache already, so a larger private cache
 * holds them twice in the server's memory (an export and import of 100,000 issues peaked 20 MB
 * higher with 16 MB) and saved no measurable time. `:memory:` stores are not bounded by it.
 * The directory is made 0700 and the database, WAL and shared-memory files 0600.
 */
export function openDb(data: string): Db {
  if (data === ':memory:') return openMemory()
  const file = join(privateDir(data), 'gitlab.sqlite3')
  privateFile(file, [`${file}-wal`, `${file}-shm`])
  return migrated(new Connection(file, undefined, { sharedCache: true }))
}

/** A new in-memory store, a copy of a migrated image where there is one (migrated-image.ts). */
function openMemory(): Db {
  const image = migratedImage(migrations)
  const copy = image && openMemoryImage(image)
  if (copy) return copy
  // No image, or not one SQLite can read: this store is migrated, and its image replaces that one.
  const db = migrated(new Connection(':memory:'))
  keepMigratedImage(migrations, db.serialize())
  return db
}

/** A new in-memory store holding `image` (a migrated or seeded store's); undefined when SQLite cannot read it. */
export function openMemoryImage(image: Uint8Array): Db | undefined {
  let copy: Db | undefined
  try {
    copy = new Connection(':memory:', image)
    return migrated(copy)
  } catch {
    copy?.close()
    return undefined
  }
}

/*
 * `temp_store = MEMORY`: the undo log of a store with a data directory (undo-log.ts) is TEMP tables,
 * which SQLite otherwise keeps in a temporary file with a rollback journal of its own: every write's
 * trigger and every reset paid its file writes. In memory, a reset after 100 API writes on the
 * 1,000-issue seed took 1.4-1.75 ms of CPU against 1.85-2.15 (bench/reset.ts). The log is bounded
 * (snapshot.ts UNDO_LOG_BOUND) and the snapshot it undoes to is an in-memory database already.
 */
function migrated(db: Db): Db {
  db.exec(`PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON;
    PRAGMA temp_store = MEMORY;
    PRAGMA busy_timeout = 5000;`)
  migrate(db)
  return db
}

function migrate(db: Db): void {
  const current = db.prepare('PRAGMA user_version').pluck().get() as number
  for (let version = current; version < migrations.length; version++)
    applyMigration(db, migrations[version] as Migration, version + 1)
}

/** True when the store holds no users yet (so a seed may be applied). */
export function isEmpty(db: Db): boolean {
  return !db.prepare('SELECT 1 FROM users LIMIT 1').get()
}
