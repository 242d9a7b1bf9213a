import Database from 'better-sqlite3'
import { join } from 'node:path'
import { migrations } from './migrations.js'
import { privateDir, privateFile } from './private-files.js'

export type Db = Database.Database

/**
 * Opens the store: `:memory:` keeps nothing, a directory keeps `gitlab.sqlite3` in it.
 * WAL journal, foreign keys on, and every pending migration applied. The directory is made 0700
 * and the database, WAL and shared-memory files 0600.
 */
export function openDb(data: string): Db {
  let file = ':memory:'
  if (data !== ':memory:') {
    file = join(privateDir(data), 'gitlab.sqlite3')
    privateFile(file, [`${file}-wal`, `${file}-shm`])
  }
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  migrate(db)
  return db
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version] as string)
      db.pragma(`user_version = ${version + 1}`)
    })()
  }
}

/** True when the store holds no users yet (so a seed may be applied). */
export function isEmpty(db: Db): boolean {
  return !db.prepare('SELECT 1 FROM users LIMIT 1').get()
}
