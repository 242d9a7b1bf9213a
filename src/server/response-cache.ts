import type { Db } from './store/db.js'

export interface CachedResponse {
  body: string
  headers: Record<string, string>
}

/**
 * Remembers serialised list responses until the store changes. The store's generation is
 * SQLite's `total_changes()` on our one connection: every insert, update or delete (API,
 * jobs, seed) moves it, so a cached answer can never outlive the data it was made from.
 * Keys must hold everything else an answer depends on (caller, URL, day).
 */
export function responseCache(db: Db, maxEntries = 256, maxBytes = 1_048_576) {
  const generation = db.prepare('SELECT total_changes() AS n').pluck()
  const entries = new Map<string, { generation: number; response: CachedResponse }>()
  return {
    generation: () => generation.get() as number,
    get(key: string, current: number): CachedResponse | undefined {
      const hit = entries.get(key)
      if (!hit) return undefined
      if (hit.generation !== current) {
        entries.delete(key)
        return undefined
      }
      entries.delete(key) // re-insert: the Map's order is our LRU order
      entries.set(key, hit)
      return hit.response
    },
    set(key: string, current: number, response: CachedResponse): void {
      if (response.body.length > maxBytes) return
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
      entries.set(key, { generation: current, response })
    },
  }
}
export type ResponseCache = ReturnType<typeof responseCache>
