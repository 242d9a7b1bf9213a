import type { Readable } from 'node:stream'
import { GitLabApiError, pathOnly } from './errors.js'
import { withQuery, type QueryValue } from './query.js'
import type { ApiResponse, HttpMethod, Send } from './transport.js'

export type Query = Record<string, QueryValue>

export interface CallOptions {
  query?: Query
  /** A JSON body (sent as `application/json`). */
  json?: unknown
  /** A raw body with its content type (multipart uploads, archives). */
  body?: { data: string | Buffer | Readable; contentType: string; length?: number }
  headers?: Record<string, string>
  signal?: AbortSignal
  timeoutMs?: number
}

export interface Page<T> {
  items: T[]
  /** X-Total etc. as GitLab sent them; absent above 10,000 rows and on keyset pages. */
  total?: number
  totalPages?: number
  next?: string
}

/** The value GitLab's 304 Not Modified answers stand for (already subscribed, to-do exists). */
export const NOT_MODIFIED = Symbol('304 Not Modified')
export type NotModified = typeof NOT_MODIFIED

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** The `rel="next"` target of a Link header, or undefined. */
export function nextLink(link: string | undefined): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part)
    if (m) return m[1]
  }
  return undefined
}

/**
 * A Link target re-based onto our API root: only the part after `/api/v4` is kept, so the
 * client never follows a host (or scheme, or port) the server names (GitLab builds links from
 * its own configured host, which behind proxies is often not the one we reach it by).
 */
export function rebase(link: string): string {
  let url: URL
  try {
    url = new URL(link, 'http://placeholder')
  } catch {
    throw new Error(`unusable pagination link: ${pathOnly(link)}`)
  }
  const at = url.pathname.indexOf('/api/v4/')
  const rest = at >= 0 ? url.pathname.slice(at + '/api/v4'.length) : url.pathname
  return `${rest}${url.search}`
}

/** Calls below the API root: JSON in and out, GitLab's errors as GitLabApiError, lazy pagination. */
export class Http {
  constructor(readonly send: Send) {}

  /** The response as it came: status not checked, body not read. The caller must consume or dump it. */
  async raw(method: HttpMethod, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
    let body: string | Buffer | Readable | undefined
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.json)
    } else if (options.body) {
      headers['content-type'] = options.body.contentType
      if (options.body.length !== undefined) headers['content-length'] = String(options.body.length)
      body = options.body.data
    }
    return this.send({
      method,
      path: withQuery(path, options.query),
      headers,
      body,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    })
  }

  /** Parsed JSON of a 2xx; `undefined` for 204; NOT_MODIFIED for 304; GitLabApiError otherwise. */
  async request<T>(method: HttpMethod, path: string, options: CallOptions = {}): Promise<T> {
    const res = await this.raw(method, path, options)
    return (await this.read(method, path, res)) as T
  }

  async read(method: HttpMethod, path: string, res: ApiResponse): Promise<unknown> {
    if (res.status === 304) {
      await res.body.dump()
      return NOT_MODIFIED
    }
    const text = await res.body.text()
    const type = first(res.headers['content-type']) ?? ''
    const parsed = text && type.includes('json') ? safeJson(text) : text || undefined
    if (res.status >= 400) {
      const retryAfter = Number(first(res.headers['retry-after']))
      throw new GitLabApiError(
        res.status,
        method,
        pathOnly(path),
        parsed,
        Number.isFinite(retryAfter) ? retryAfter : undefined,
      )
    }
    return res.status === 204 ? undefined : parsed
  }

  /** One page at a time, following `rel="next"` (offset or keyset) re-based onto our root. */
  async *pages<T>(path: string, options: CallOptions & { perPage?: number } = {}): AsyncGenerator<Page<T>> {
    let next: string | undefined = withQuery(path, { per_page: options.perPage ?? 100, ...options.query })
    while (next) {
      const res = await this.raw('GET', next, { ...options, query: undefined })
      const items = (await this.read('GET', next, res)) as T[]
      const total = first(res.headers['x-total'])
      const totalPages = first(res.headers['x-total-pages'])
      const link = nextLink(first(res.headers.link))
      yield {
        items: Array.isArray(items) ? items : [],
        total: total ? Number(total) : undefined,
        totalPages: totalPages ? Number(totalPages) : undefined,
        next: link,
      }
      next = link ? rebase(link) : undefined
    }
  }

  /** Every item, lazily: one page in memory at a time (100 per page unless `perPage` says otherwise). */
  async *paginate<T>(path: string, options: CallOptions & { perPage?: number } = {}): AsyncGenerator<T> {
    for await (const page of this.pages<T>(path, options)) yield* page.items
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Gathers at most `limit` items of a lazy list (all of them without a limit). */
export async function collect<T>(items: AsyncIterable<T>, options: { limit?: number } = {}): Promise<T[]> {
  const out: T[] = []
  if (options.limit === 0) return out
  for await (const item of items) {
    out.push(item)
    if (options.limit !== undefined && out.length >= options.limit) break
  }
  return out
}
