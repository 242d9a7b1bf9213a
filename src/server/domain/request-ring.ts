import { pathOf, pathPattern } from './path-pattern.js'

/** One request as the ring keeps it: cheap to make on every request (no string is built). */
export interface RequestEntry {
  /** Set by the ring: 1, 2, 3... since the server started (never reused, also across clears). */
  id: number
  /** Epoch milliseconds, from the server's clock. */
  time: number
  method: string
  /** The URL as received (its query's secrets already redacted). */
  url: string
  /** Null when no answer was sent (a `reset` fault). */
  status: number | null
  durationMs: number
  actor: string | null
  route: string | null
  requestId: string
  fault: { id: number; action: string } | null
  /** With `--log-bodies` only; else null. */
  requestBody: string | null
  responseBody: string | null
}

/** The request log's filters (`GET /-/emulator/requests`); all optional. */
export interface RequestFilter {
  method?: string
  /** A path pattern (domain/path-pattern.ts). */
  path?: string
  /** A status (`404`) or a class (`4xx`). */
  status?: string
  /** Only requests after this id. */
  since_id?: number
  /** The route pattern as the route table names it (`/api/v4/projects/:id/issues`). */
  route?: string
  /** The username of the caller. */
  actor?: string
  /** At most this many (the oldest of those that match); default 100. */
  limit?: number
}

export const DEFAULT_REQUEST_LOG_SIZE = 1000
export const DEFAULT_REQUEST_PAGE = 100
export const MAX_REQUEST_PAGE = 1000

/**
 * The request log: the last `size` requests in a fixed ring (0 keeps none). Memory is bounded by
 * `size` entries, each one small object (about 250 bytes with its URL; with bodies, at most two
 * bodies of `BODY_LIMIT` characters more).
 */
export class RequestRing {
  private readonly slots: (RequestEntry | undefined)[]
  private next = 0
  private lastId = 0

  constructor(readonly size: number) {
    this.slots = new Array<RequestEntry | undefined>(size)
  }

  push(entry: RequestEntry): void {
    if (this.size === 0) return
    entry.id = ++this.lastId
    this.slots[this.next] = entry
    this.next = (this.next + 1) % this.size
  }

  clear(): void {
    this.slots.fill(undefined)
    this.next = 0
  }

  /**
   * The entries that match, oldest first, at most `limit`; `more` when others after the last one
   * match too (the next page is `since_id` = the last one's id).
   */
  find(filter: RequestFilter = {}): { entries: RequestEntry[]; more: boolean } {
    const matches = matcher(filter)
    const limit = Math.min(filter.limit ?? DEFAULT_REQUEST_PAGE, MAX_REQUEST_PAGE)
    const entries: RequestEntry[] = []
    for (let i = 0; i < this.size; i++) {
      const entry = this.slots[(this.next + i) % this.size]
      if (!entry || !matches(entry)) continue
      if (entries.length === limit) return { entries, more: true }
      entries.push(entry)
    }
    return { entries, more: false }
  }

  /**
   * The `since_id` whose page of `limit` (`find`) ends just before `beforeId` (or, without it, is
   * the latest page): the id of the match `limit + 1` back, 0 when fewer match, null when none does.
   * The emulator page's "older" link: the log pages by `since_id` only.
   */
  sinceIdBefore(filter: RequestFilter, limit: number, beforeId = Number.MAX_SAFE_INTEGER): number | null {
    const matches = matcher({ ...filter, since_id: 0 })
    let seen = 0
    for (let i = this.size - 1; i >= 0; i--) {
      const entry = this.slots[(this.next + i) % this.size]
      if (!entry || entry.id >= beforeId || !matches(entry)) continue
      if (seen === limit) return entry.id
      seen++
    }
    return seen === 0 ? null : 0
  }
}

function matcher(filter: RequestFilter): (entry: RequestEntry) => boolean {
  const method = filter.method?.toUpperCase()
  const path = filter.path === undefined ? undefined : pathPattern(filter.path)
  const status = filter.status
  const statusClass = status?.endsWith('xx') ? Number(status[0]) : undefined
  const since = filter.since_id ?? 0
  return (e) =>
    e.id > since &&
    (method === undefined || e.method === method) &&
    (filter.route === undefined || e.route === filter.route) &&
    (filter.actor === undefined || e.actor === filter.actor) &&
    (status === undefined ||
      (statusClass !== undefined
        ? e.status !== null && Math.floor(e.status / 100) === statusClass
        : e.status === Number(status))) &&
    (path === undefined || path(pathOf(e.url)))
}
