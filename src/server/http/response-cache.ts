import { oldestKeys } from '../domain/oldest-keys.js'
import type { ListWatch } from '../services/watched-issue-lists.js'

/** What the cache reads of the store's change log (store/changes.ts `StoreChanges`). */
export interface ChangeLog {
  /** The store's state now. */
  version(): number
  /** Whether no write to `scopes`, nor one that reaches everything, came after `since`. */
  unchangedSince(since: number, scopes: readonly string[]): boolean
}

export interface CachedResponse {
  /** UTF-8 bytes: a socket takes a Buffer as it is, while a string is encoded again on every write. */
  body: Buffer
  headers: Record<string, string>
  /** Its headers as an early hit sends them, made at its first early hit (http/early-hits.ts). */
  early?: EarlyHead
}

/** A kept answer's header names and values in order, and where the per-request values go. */
export interface EarlyHead {
  pairs: string[]
  /** The indexes of the `Date` header's value and of the request id's. */
  dateAt: number
  idAt: number
}

/** A cached route as the router found it for a URL: what the early hits need to answer it again. */
export interface CachedRoute {
  /** The route's pattern (`/api/v4/projects/:id/issues`), for the token's scopes and the request log. */
  pattern: string
  /** The route takes CI/CD job tokens (`jobToken` on its spec). */
  jobToken: boolean
}

const NO_SCOPES: readonly string[] = []

/** URLs whose route is remembered; past it the memo starts again (a client asks few distinct URLs). */
const MAX_ROUTED_URLS = 10_000

/**
 * The key of an answer: it holds everything the answer depends on besides the store (the caller,
 * the day of the server's clock, the URL as received). `actor` null is an anonymous caller.
 */
export const cacheKey = (actor: number | null, day: string, url: string) => `${actor ?? 0}|${day}|${url}`

/**
 * Remembers serialised list responses until what they were made from changes. Each entry keeps
 * the store's version it was made at and the scopes it reads (`project:<id>`, `group:<path>`,
 * `*`; src/server/store/changes.ts): a write to one project (or to the few it names) drops those
 * lists and the group and global lists above them, nothing else; a change no write describes drops everything.
 * A page of an issue list may come with a watch instead (src/server/services/watched-issue-lists.ts),
 * which turns stale only when a write can have changed that page. Keys must hold everything else an
 * answer depends on (caller, URL, day). Bounded by total size, least recently used out first.
 */
export function responseCache(
  changes: ChangeLog,
  maxBytes = 64 * 1024 * 1024,
  maxEntryBytes = 4 * 1024 * 1024,
) {
  type Entry = { generation: number; scopes: string[]; watch?: ListWatch; response: CachedResponse }
  const entries = new Map<string, Entry>()
  const oldestOf = oldestKeys<string>()
  const routes = new Map<string, CachedRoute>()
  /** The entry last set or hit, the last in the Map's order while it stays. */
  let newest: Entry | undefined
  let bytes = 0
  const drop = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    bytes -= entry.response.body.length
    entry.watch?.release()
    entries.delete(key)
  }
  const fresh = (entry: Entry) =>
    entry.watch
      ? !entry.watch.stale && changes.unchangedSince(entry.generation, NO_SCOPES)
      : changes.unchangedSince(entry.generation, entry.scopes)
  return {
    /**
     * The route the router found for `url` when an answer to it was kept (`routed`): routing
     * depends on the URL alone, so the same URL finds the same route again.
     */
    routeOf: (url: string): CachedRoute | undefined => routes.get(url),
    routed(url: string, route: CachedRoute): void {
      if (routes.size >= MAX_ROUTED_URLS) routes.clear()
      routes.set(url, route)
    },
    /** The store's version: take it before the handler reads the store. */
    generation: () => changes.version(),
    get(key: string): CachedResponse | undefined {
      const hit = entries.get(key)
      if (!hit) return undefined
      if (!fresh(hit)) {
        drop(key)
        return undefined
      }
      // Re-inserted: the Map's order is our LRU order (a repeated hit on the newest is there already).
      if (hit !== newest) {
        entries.delete(key)
        entries.set(key, hit)
        newest = hit
      }
      return hit.response
    },
    /**
     * `scopes`: what the answer read; `*` (any project) when the route did not say. `watch`: the
     * issue list page it shows, kept only if it began at `current` (a write between the two was
     * not checked against it); writes after it were, even those that land before this call. A
     * page a write has changed already is not kept. A watch not kept is released.
     */
    set(
      key: string,
      current: number,
      response: CachedResponse,
      scopes: string[] = ['*'],
      watch?: ListWatch,
    ): void {
      if (watch?.stale) return watch.release()
      if (watch && watch.since !== current) {
        watch.release()
        watch = undefined
      }
      if (response.body.length > maxEntryBytes) return watch?.release()
      drop(key)
      while (bytes + response.body.length > maxBytes && entries.size > 0) drop(oldestOf(entries) as string)
      newest = { generation: current, scopes, ...(watch ? { watch } : {}), response }
      entries.set(key, newest)
      bytes += response.body.length
    },
  }
}
export type ResponseCache = ReturnType<typeof responseCache>
