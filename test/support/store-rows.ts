import { inspectDb } from '../../src/server/store/inspect.js'

/** A namespace's id by its full path, read from the database itself (not through the store's caches). */
export const namespaceId = (store: object, fullPath: string): number =>
  (inspectDb(store).prepare('SELECT id FROM namespaces WHERE full_path = ?').get(fullPath) as { id: number })
    .id
