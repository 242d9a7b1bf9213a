import type { StoreChanges } from './store/changes.js'

export interface CachedResponse {
  /** UTF-8 bytes: a socket takes a Buffer as it is, while a string is encoded again on every write. */
  body: Buffer
  headers: Record<string, string>
}

/**
 * Remembers serialised list responses until what they were made from changes. Each entry keeps
 * the store's version it was made at and the scopes it reads (`project:<id>`, `group:<path>`,
 * `*`; src/server/store/changes.ts): a write to one project drops that project's lists and the
 * group and global lists above it, nothing else; a change no write describes drops everything.
 * Keys must hold everything else an answer depends on (caller, URL, day). Bounded by total size,
 * least recently used out first.
 */
export function responseCache(
  changes: StoreChanges,
  maxBytes = 64 * 1024 * 1024,
  maxEntryBytes = 4 * 1024 * 1024,
) {
  const entries = new Map<string, { generation: number; scopes: string[]; response: CachedResponse }>()
  let bytes = 0
  const drop = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    bytes -= entry.response.body.length
    entries.delete(key)
  }
  return {
    /** The store's version: take it before the handler reads the store. */
    generation: () => changes.version(),
    get(key: string): CachedResponse | undefined {
      const hit = entries.get(key)
      if (!hit) return undefined
      if (!changes.unchangedSince(hit.generation, hit.scopes)) {
        drop(key)
        return undefined
      }
      entries.delete(key) // re-insert: the Map's order is our LRU order
      entries.set(key, hit)
      return hit.response
    },
    /** `scopes`: what the answer read; `*` (any project) when the route did not say. */
    set(key: string, current: number, response: CachedResponse, scopes: string[] = ['*']): void {
      if (response.body.length > maxEntryBytes) return
      drop(key)
      while (bytes + response.body.length > maxBytes && entries.size > 0)
        drop(entries.keys().next().value as string)
      entries.set(key, { generation: current, scopes, response })
      bytes += response.body.length
    },
  }
}
export type ResponseCache = ReturnType<typeof responseCache>
