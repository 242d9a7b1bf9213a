/*
 * Lazy pagination over GitLab's `Link` header (`lib/gitlab/pagination/offset_header_builder.rb`):
 * the page being read in memory, and a few pages in flight ahead of it.
 */
import type { TSchema } from '@sinclair/typebox'
import { GitLabResponseError } from './errors.js'
import type { CallOptions } from './call-options.js'
import { PageItems } from './page-items.js'
import type { ApiResponse, HttpMethod } from './transport.js'
import { withQuery } from './query.js'

/** What pagination needs of the core (http.ts's Http): a raw GET read whole, its body read, an item checked. */
export interface PageSource {
  rawWhole(method: HttpMethod, path: string, options?: CallOptions): Promise<ApiResponse>
  read(method: HttpMethod, path: string, res: ApiResponse): Promise<unknown>
  check(method: HttpMethod, path: string, schema: TSchema, value: unknown): void
}

/** Options of a paginated read: those of a call (no body), the page size and the item schema. */
export interface PageOptions extends Omit<CallOptions, 'json' | 'body' | 'response'> {
  /** `per_page` of the first request (default 100, GitLab's maximum); `query.per_page` wins. */
  perPage?: number
  /** The schema each item must match; checked only when the client has `validate: true`. */
  item?: TSchema
}

/** One page and what GitLab said about the others (`X-Total`, `X-Next-Page`, `Link`). */
export interface Page<T> {
  items: T[]
  /** `X-Total`: rows in all pages. Absent on keyset pages and above 10,000 rows. */
  total?: number
  /** `X-Total-Pages`, absent as `total` is. */
  totalPages?: number
  /** `X-Page` and `X-Per-Page` (offset pagination only). */
  page?: number
  perPage?: number
  /** The next page's path and query below the API root, already re-based; undefined on the last. */
  next?: string
}

/** The `rel="next"` target of a Link header (entries in any order, any quoting), or undefined. */
export function nextLink(link: string | undefined): string | undefined {
  for (const part of (link ?? '').split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part)
    if (m && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(m[2] ?? '')) return m[1]
  }
  return undefined
}

/**
 * A Link target re-based onto our own API root: only the path after `/api/v4` and the query are
 * kept, and the client's base URL supplies scheme, host, port and any path prefix. GitLab builds
 * links from its own configured URL, which behind a proxy or in a container is often not the one we
 * reach it by, and a client must never follow a host the server names (it would send the token
 * there). A link with no `/api/v4` segment is taken as below the API root already.
 *
 * `https://elsewhere:8443/gitlab/api/v4/projects/1/issues?page=2` -> `/projects/1/issues?page=2`.
 * Throws Error for a target that is not a URL or a path (the message shows no query string).
 */
export function rebase(link: string): string {
  let url: URL
  try {
    url = new URL(link, 'http://relative.invalid/')
  } catch {
    throw new Error(`unusable pagination link: ${link.split('?')[0]}`)
  }
  const at = url.pathname.indexOf('/api/v4/')
  const rest = at >= 0 ? url.pathname.slice(at + '/api/v4'.length) : url.pathname
  return `${rest}${url.search}`
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const v = headers[name]
  const text = Array.isArray(v) ? v.join(', ') : v
  return text === undefined || text === '' ? undefined : text
}
const numberHeader = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const text = header(headers, name)
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined
}

/** Offset pages in flight at most, counting the one the current page's link names. */
const AHEAD = 4

/**
 * The link to page `n`, made from `next`, the link to page `current + 1`, by changing only its
 * `page` value: the link GitLab writes on page `n - 1`, as it keeps the other parameters and their
 * order. Undefined when `next` has no such `page` parameter (keyset links carry a cursor instead).
 */
export function pageLink(next: string, current: number, n: number): string | undefined {
  const [path = '', search] = next.split('?', 2)
  if (search === undefined) return undefined
  const params = search.split('&')
  const at = params.indexOf(`page=${current + 1}`)
  if (at < 0) return undefined
  params[at] = `page=${n}`
  return `${path}?${params.join('&')}`
}

/**
 * Pages of a GitLab list, lazily: `GET path?per_page=100&...query`, then each `rel="next"` link,
 * re-based (`rebase`), until a page has none. Works for offset pagination and for keyset
 * (`query: { pagination: 'keyset', order_by }`: the next link carries the `cursor`;
 * `lib/gitlab/pagination/keyset/header_builder.rb`).
 *
 * Reads ahead so that the server prepares pages while the caller works. The next page is requested
 * as soon as the current page's headers name it. When the caller resumes for it, offset pages after
 * it are requested by number too (`pageLink`), up to AHEAD in flight and never past `X-Total-Pages`;
 * above 10,000 rows, where GitLab sends no totals, up to AHEAD as well, so that at most AHEAD - 1
 * requests past the last page are wasted (keyset pages carry no page number and are never guessed).
 * A page requested by number is used only if it is exactly the link its predecessor names; otherwise
 * it and those after it are dropped and the real link is followed, so the pages are always the ones
 * the links lead to. Memory holds the page being read plus what undici buffers of those in flight.
 * Stopping early (`break`) asks for nothing more and aborts the pages still in flight: a caller who
 * has what it wants does not wait for pages it will never read (their sockets are closed, not reused).
 * Throws what `Http.request` throws, GitLabResponseError for a page that is not a JSON array, and
 * Error if a next link points at the page just read (a server bug that would loop forever).
 */
export async function* pages<T>(
  http: PageSource,
  path: string,
  options: PageOptions = {},
): AsyncGenerator<Page<T>> {
  const { query, perPage, item, ...call } = options
  const get = (url: string) => {
    const stop = new AbortController()
    const signal = call.signal ? AbortSignal.any([call.signal, stop.signal]) : stop.signal
    const res = http.rawWhole('GET', url, { ...call, signal })
    res.catch(() => undefined) // surfaced when awaited; never an unhandled rejection
    return { url, res, stop }
  }
  // Pages no longer wanted: what has not fully arrived is aborted (a page already read is untouched).
  const drop = (dropped: { res: Promise<ApiResponse>; stop: AbortController }[]) =>
    Promise.all(
      dropped.map(({ res, stop }) => {
        stop.abort(new Error('page no longer wanted'))
        return res.then((r) => r.body.dump()).catch(() => undefined)
      }),
    )
  // Requests in flight, in page order; only the first is known to be on the chain of links.
  const ahead = [get(withQuery(path, { per_page: perPage ?? 100, ...query }))]
  try {
    for (let head = ahead.shift(); head; head = ahead.shift()) {
      const { url } = head
      const res: ApiResponse = await head.res
      const link = nextLink(header(res.headers, 'link'))
      const next = link === undefined ? undefined : rebase(link)
      if (next === url) {
        await res.body.dump()
        throw new Error(`GET ${url.split('?')[0]}: the next-page link repeats the current page`)
      }
      // Keep what was requested ahead only while it follows the links; an error page ends the list.
      if (!next || res.status >= 300 || ahead[0]?.url !== next) void drop(ahead.splice(0))
      if (next && res.status < 300 && ahead.length === 0) ahead.push(get(next))
      const body = await http.read('GET', url, res)
      if (!Array.isArray(body))
        throw new GitLabResponseError('GET', url, `expected a JSON array, got ${typeof body}`)
      if (item) await http.check('GET', url, item, body)
      const page = numberHeader(res.headers, 'x-page')
      const totalPages = numberHeader(res.headers, 'x-total-pages')
      yield {
        items: body as T[],
        total: numberHeader(res.headers, 'x-total'),
        totalPages,
        page,
        perPage: numberHeader(res.headers, 'x-per-page'),
        next,
      }
      // The caller wants the next page: request offset pages after it by number.
      if (!next || page === undefined) continue
      for (
        let n = page + 1 + ahead.length;
        ahead.length < AHEAD && (totalPages === undefined || n <= totalPages);
        n++
      ) {
        const url = pageLink(next, page, n)
        if (url === undefined) break
        ahead.push(get(url))
      }
    }
  } finally {
    // The caller stopped early or a page failed: abort the pages read ahead.
    await drop(ahead.splice(0))
  }
}

/**
 * Every item of a GitLab list, one at a time, reading ahead as `pages` does (an AsyncGenerator,
 * page-items.ts). Stop early with `break` or `collect(..., { limit })`: what is in flight is
 * aborted and nothing more is requested.
 */
export function paginate<T>(http: PageSource, path: string, options: PageOptions = {}): AsyncGenerator<T> {
  return new PageItems<T>(pages<T>(http, path, options))
}

/**
 * Gathers the items of a lazy list into an array: all of them, or at most `limit` (then the
 * iterator is closed and no further page is fetched). Throws what the iterator throws.
 */
export async function collect<T>(items: AsyncIterable<T>, options: { limit?: number } = {}): Promise<T[]> {
  const out: T[] = []
  const { limit } = options
  if (limit !== undefined && limit <= 0) return out
  for await (const item of items) {
    out.push(item)
    if (limit !== undefined && out.length >= limit) break
  }
  return out
}
