import type { Db } from './store/db.js'

export interface CachedResponse {
  /** UTF-8 bytes: a socket takes a Buffer as it is, while a string is encoded again on every write. */
  body: Buffer
  headers: Record<string, string>
}

/**
 * Remembers serialised list responses until the store changes. The store's generation is
 * SQLite's `total_changes()` on our one connection: every insert, update or delete (API,
 * jobs, seed) moves it, so a cached answer can never outlive the data it was made from.
 * Keys must hold everything else an answer depends on (caller, URL, day). Bounded by total
 * size, least recently used out first.
 */
export function responseCache(db: Db, maxBytes = 64 * 1024 * 1024, maxEntryBytes = 4 * 1024 * 1024) {
  const generation = db.prepare('SELECT total_changes() AS n').pluck()
  const entries = new Map<string, { generation: number; response: CachedResponse }>()
  let bytes = 0
  const drop = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    bytes -= entry.response.body.length
    entries.delete(key)
  }
  return {
    generation: () => generation.get() as number,
    get(key: string, current: number): CachedResponse | undefined {
      const hit = entries.get(key)
      if (!hit) return undefined
      if (hit.generation !== current) {
        drop(key)
        return undefined
      }
      entries.delete(key) // re-insert: the Map's order is our LRU order
      entries.set(key, hit)
      return hit.response
    },
    set(key: string, current: number, response: CachedResponse): void {
      if (response.body.length > maxEntryBytes) return
      drop(key)
      while (bytes + response.body.length > maxBytes && entries.size > 0)
        drop(entries.keys().next().value as string)
      entries.set(key, { generation: current, response })
      bytes += response.body.length
    },
  }
}
export type ResponseCache = ReturnType<typeof responseCache>
