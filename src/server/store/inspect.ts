import type { Db } from './db.js'

const connections = new WeakMap<object, Db>()

/** Called by `openStore` only: remembers the connection behind a store for `inspectDb`. */
export function keepConnection(store: object, db: Db): void {
  connections.set(store, db)
}

/**
 * Test-only: the raw connection behind a store, for tests that arrange or read rows the API does
 * not reach. The server itself goes through the store's tables; the lint rule keeps this module
 * (and the connection) out of src/ outside src/server/store/.
 */
export function inspectDb(store: object): Db {
  const db = connections.get(store)
  if (!db) throw new Error('inspectDb: not a store opened by openStore')
  return db
}
