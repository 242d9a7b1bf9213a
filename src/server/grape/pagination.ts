import { hashToQuery } from '../../schema/query-string.js'
import { GitLabError, paramError } from './gitlab-errors.js'
import { rubyToI } from './params.js'

/**
 * Above this many rows GitLab stops counting: no X-Total, X-Total-Pages or rel="last"
 * (`lib/gitlab/pagination/offset_header_builder.rb`).
 */
export const MAX_COUNT = 10_000

export interface Page {
  page: number
  perPage: number
  offset: number
}

/**
 * page defaults to 1, per_page to 20 and is capped at 100; other non-positive values take the
 * defaults, as Kaminari's `page`/`per` do. `per_page=0` is 400 `per_page is invalid`: Kaminari's
 * `per(0)` is a limit of 0 and GitLab answers 500 (`Kaminari::ZeroPerPageOperation`), which this
 * server answers no bad input with (as an unreadable cursor, below).
 * Keyset pages take the same `per_page`: GitLab's keyset paginator has no maximum of its own (its
 * documented maximum is 100), but an uncapped page would be a whole list built in memory here.
 */
export function pageOf(query: { page?: number | null; per_page?: number | null }): Page {
  if (query.per_page === 0) throw paramError('per_page is invalid')
  const page = query.page && query.page > 0 ? query.page : 1
  const perPage = query.per_page && query.per_page > 0 ? Math.min(query.per_page, 100) : 20
  return { page, perPage, offset: (page - 1) * perPage }
}

/**
 * The page of a list whose route declares neither `page` nor `per_page` (lib/api/issues.rb's
 * participants, closed_by and related_merge_requests): Grape refuses nothing and Kaminari reads
 * them as given, `page(num)` as `num.to_i` (below 1 the first) and `per(num)` as the default unless
 * it starts with a digit. A repeated parameter (an array) takes the default here (GitLab: 500).
 */
export function undeclaredPageOf(query: unknown): Page {
  const given = (query ?? {}) as Record<string, unknown>
  const text = (v: unknown) => (typeof v === 'string' ? v : '')
  const perPage = text(given.per_page)
  return pageOf({ page: rubyToI(text(given.page)), per_page: /^\d/.test(perPage) ? rubyToI(perPage) : null })
}

/**
 * GitLab's default `offset_pagination_limit` (doc/administration/instance_limits.md): where a list
 * GitLab enforces keyset paging for stops serving offset pages.
 */
export const OFFSET_LIMIT = 50_000

/** `offset_limit_exceeded?` (pagination_strategies.rb): `page * per_page` as given, before the cap of 100. */
export const pastOffsetLimit = (query: { page?: number | null; per_page?: number | null }): boolean =>
  (query.page ?? 1) * (query.per_page ?? 20) > OFFSET_LIMIT

/** GitLab's refusal of an offset page past the limit, naming the class of the list's records. */
export const offsetLimitExceeded = (type: string) =>
  new GitLabError(405, {
    error:
      `Offset pagination has a maximum allowed offset of ${OFFSET_LIMIT} for requests that return objects ` +
      `of type ${type}. Remaining records can be retrieved using keyset pagination.`,
  })

/** `pagination=keyset` where the list, or its order, has no keyset paging (pagination_strategies.rb). */
export const keysetUnavailable = () =>
  new GitLabError(405, { error: 'Keyset pagination is not yet available for this type of request' })

/** Tokens never travel into the links we hand out, even when a caller put one in the query. */
const SECRET_PARAMS = new Set(['private_token', 'access_token', 'job_token', 'token'])

/** A link's query: Rails `Hash#to_query` of the parameters, tokens left out (query-string.ts). */
function linkQuery(params: Record<string, unknown>): string {
  const shown = Object.fromEntries(Object.entries(params).filter(([key]) => !SECRET_PARAMS.has(key)))
  return hashToQuery(shown)
}

export interface LinkContext {
  /** `--base-url` (scheme, host, port and any path prefix), without a trailing slash. */
  baseUrl: string
  /** The request path below the base URL, e.g. `/api/v4/projects/1/issues`. */
  path: string
  /**
   * Grape's `params` of the request: the path's parameters and the declared ones, as coerced, with
   * their defaults (src/server/grape/grape-params.ts); never an undeclared one.
   */
  params: Record<string, unknown>
}

/**
 * One page of a list as a route hands it out: an offset page (`items` already cut to `page`, `total`
 * and `hasMore` as `setPageHeaders` reads them), or a keyset page whose `next` holds what the
 * rel="next" link adds (the cursor or the id bound, `per_page`, `pagination`), null on the last page.
 */
export type PageOut<T> = (
  | { items: T[]; page: Page; total: number | undefined; hasMore?: boolean }
  | { items: T[]; next: Record<string, unknown> | null }
) & {
  /** Declared parameters the route dropped from Grape's params (`params.except!`): its links lack them. */
  unlinked?: string[]
}

/**
 * Where a keyset page ends: the last row's place in the list's order (the values of its order
 * columns in the form the store compares, and its id, the tie-breaker), handed out as the `cursor`
 * of the rel="next" link.
 */
export interface Cursor {
  values: string[]
  id: number
}

/** The order a cursor belongs to, its columns named as GitLab's keyset order names them. */
export interface CursorOrder {
  /** The order columns before the tie-breaking id: none when the list is ordered by id alone. */
  columns: string[]
  /** Those of `columns` that hold a time. */
  times?: string[]
  /** The tie-breaker's name: `id`, unless the order calls it otherwise (`users_id` in a user search). */
  id?: string
}

/** GitLab's direction key in a cursor (`Paginator` `direction_key: :_kd`): forward pages are `n`. */
const DIRECTION_KEY = '_kd'

/**
 * The cursor GitLab writes (`Gitlab::Pagination::Keyset::Paginator::Base64CursorConverter`): padded
 * URL-safe Base64 of the JSON of the last row's order columns, then its id, each as text, then `_kd`.
 * Times are Ruby's `to_fs(:inspect)`: `2026-11-02 10:00:00.000000000 +0000`.
 */
export function encodeCursor(order: CursorOrder, c: Cursor): string {
  const attributes: Record<string, string> = {}
  order.columns.forEach((column, i) => {
    const value = c.values[i] ?? ''
    attributes[column] = order.times?.includes(column) ? rubyInspectTime(value) : value
  })
  attributes[order.id ?? 'id'] = String(c.id)
  attributes[DIRECTION_KEY] = 'n'
  return Buffer.from(JSON.stringify(attributes)).toString('base64').replaceAll('+', '-').replaceAll('/', '_')
}

const rubyInspectTime = (iso: string) =>
  `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23).padEnd(9, '0')} +0000`

/**
 * A cursor GitLab cannot read (bad Base64, not a JSON object, other columns than the order's, a time
 * PostgreSQL cannot parse). GitLab's exception reaches `rescue_from :all` (lib/api/api.rb
 * `handle_api_exception`) and answers 500; this server answers no bad input with a 500 (a client
 * would take it for an outage and retry), so it answers as Grape does a parameter it refuses.
 */
const unreadableCursor = () => paramError('cursor is invalid')

/** Ruby's `Base64.urlsafe_decode64`: padding optional, `-_` or `+/`, otherwise strict. */
function urlsafeDecode64(text: string): Buffer {
  let b64 = text.replaceAll('-', '+').replaceAll('_', '/')
  if (!b64.endsWith('=') && b64.length % 4 !== 0) b64 = b64.padEnd((b64.length + 3) & ~3, '=')
  const bytes = Buffer.from(b64, 'base64')
  // strict_decode64 refuses what does not re-encode to itself: stray characters, bad padding or bits.
  if (b64.length % 4 !== 0 || bytes.toString('base64') !== b64) throw unreadableCursor()
  return bytes
}

/** A cursor's time as the store writes times; PostgreSQL reads the inspect form, ISO 8601 and a bare date. */
function storedTime(text: string): string {
  const parts =
    /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))? ?(UTC|Z|[+-]\d{2}:?\d{2})?)?$/.exec(text)
  if (!parts) throw unreadableCursor()
  const [, date, time = '00:00:00', fraction = '', zone = 'Z'] = parts
  const offset = zone === 'UTC' || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`
  const parsed = new Date(`${date}T${time}.${fraction.slice(0, 3).padEnd(3, '0')}${offset}`)
  if (Number.isNaN(parsed.getTime())) throw unreadableCursor()
  return parsed.toISOString()
}

/**
 * The cursor a client sent back, read as GitLab reads it (`Paginator#decode_cursor_attributes`,
 * `Order#build_where_values`): null (the first page) when blank or when it names no row; a
 * GitLabError 400 `cursor is invalid` where GitLab's reading raises (its 500; see unreadableCursor).
 */
export function decodeCursor(text: string | undefined, order: CursorOrder): Cursor | null {
  if (!text?.trim()) return null
  let attributes: unknown
  try {
    attributes = JSON.parse(urlsafeDecode64(text).toString('utf8'))
  } catch {
    throw unreadableCursor()
  }
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes))
    throw unreadableCursor()
  const { [DIRECTION_KEY]: _direction, ...values } = attributes as Record<string, unknown>
  const keys = Object.keys(values)
  if (keys.length === 0) return null
  const idColumn = order.id ?? 'id'
  const expected = [...order.columns, idColumn]
  if (keys.length !== expected.length || !expected.every((k) => keys.includes(k))) throw unreadableCursor()
  return {
    values: order.columns.map((column) => {
      const value = String(values[column] ?? '')
      return order.times?.includes(column) ? storedTime(value) : value
    }),
    id: Number(values[idColumn]),
  }
}

/** Compares two places in an order: order key, then id (GitLab's `order_options_with_tie_breaker`). */
export const comparePlaces = (x: string | number, xId: number, y: string | number, yId: number): number =>
  (x < y ? -1 : x > y ? 1 : 0) || xId - yId

/**
 * A list held in memory, sorted by `key` then id in direction `dir` (1 ascending, -1 descending),
 * from just after the cursor's place (`afterKey`, its id): what `cursorPage` pages.
 */
export function rowsAfter<T extends { id: number }>(
  rows: T[],
  after: Cursor | null,
  key: (row: T) => string | number,
  afterKey: (cursor: Cursor) => string | number,
  dir: 1 | -1,
): T[] {
  if (!after) return rows
  const start = rows.findIndex((r) => comparePlaces(key(r), r.id, afterKey(after), after.id) * dir > 0)
  return start < 0 ? [] : rows.slice(start)
}

/** What a cursor page's rel="next" link adds to the request's parameters. */
export const cursorNext = (cursor: string, perPage: number): Record<string, unknown> => ({
  cursor,
  per_page: perPage,
  pagination: 'keyset',
})

/**
 * A cursor page of a list held in memory: `rest` is the list in its order from just after the
 * caller's cursor. The row after the page decides whether a next cursor is given.
 */
export function cursorPage<T>(
  rest: T[],
  perPage: number,
  order: CursorOrder,
  cursorOf: (row: T) => Cursor,
): PageOut<T> {
  const items = rest.slice(0, perPage)
  const last = items.at(-1)
  return {
    items,
    next:
      rest.length > perPage && last !== undefined
        ? cursorNext(encodeCursor(order, cursorOf(last)), perPage)
        : null,
  }
}

/** The page `page` of a whole list held in memory, its total counted. */
export function slicePage<T>(all: T[], page: Page): PageOut<T> {
  return { items: all.slice(page.offset, page.offset + page.perPage), page, total: all.length }
}

/** Where a page's headers go: the reply, as the route table hands it over. */
export interface HeaderSink {
  header(name: string, value: string): unknown
}

/** The same page with its items mapped (presented). */
export const mapPage = <T, U>(page: PageOut<T>, fn: (item: T) => U): PageOut<U> => ({
  ...page,
  items: page.items.map(fn),
})

/** `page=0` as a key of its own in a link query (not `per_page=`, not `x[page]=`). */
const PAGE_ZERO = /(^|&)page=0(?=&|$)/

/** The link's params without those the route dropped. */
const linkedParams = (link: LinkContext, unlinked: string[] | undefined) => {
  if (!unlinked?.length) return link.params
  const dropped = new Set(unlinked)
  return Object.fromEntries(Object.entries(link.params).filter(([key]) => !dropped.has(key)))
}

/**
 * Each link context's offset-page query around its `page=` (see `setPageHeaders`), by `per_page` and
 * the parameters the route dropped: a route keeps one context per URL (routes/define.ts), so a list
 * read again writes its links from these instead of coercing and sorting its parameters again.
 */
const pageQueries = new WeakMap<LinkContext, Map<string, [string, string]>>()

function pageQuery(link: LinkContext, unlinked: string[] | undefined, perPage: number): [string, string] {
  let byKey = pageQueries.get(link)
  if (!byKey) pageQueries.set(link, (byKey = new Map()))
  const key = `${perPage} ${unlinked?.join(',') ?? ''}`
  let parts = byKey.get(key)
  if (!parts) {
    // One query for every link: its `page=` (a key of its own, escaped keys and values hold no `=`)
    // is the only part that differs.
    const query = linkQuery({ ...linkedParams(link, unlinked), page: 0, per_page: perPage })
    const at = PAGE_ZERO.exec(query) as RegExpExecArray
    const start = at.index + at[1]!.length
    byKey.set(key, (parts = [query.slice(0, start), query.slice(start + 'page=0'.length)]))
  }
  return parts
}

/** Sets the headers of a page, offset or keyset, with links of Grape's params; returns its items. */
export function setPageLinks<T>(reply: HeaderSink, link: LinkContext, out: PageOut<T>): T[] {
  if ('next' in out) {
    if (out.next)
      reply.header(
        'link',
        `<${link.baseUrl}${link.path}?${linkQuery({ ...linkedParams(link, out.unlinked), ...out.next })}>; rel="next"`,
      )
  } else setPageHeaders(reply, link, pageQuery(link, out.unlinked, out.page.perPage), out)
  return out.items
}

/**
 * Sets GitLab's offset pagination headers (`lib/gitlab/pagination/offset_header_builder.rb`): X-Per-Page,
 * X-Page, X-Next-Page, X-Prev-Page, Link (prev, next, first, last), and X-Total/X-Total-Pages while total <=
 * 10,000. Past that GitLab counts nothing but still names the next page while one exists: `hasMore` says so
 * where `total` is capped (or undefined, not counted); otherwise an exact `total` does.
 */
function setPageHeaders(
  reply: HeaderSink,
  link: LinkContext,
  [beforePage, afterPage]: [string, string],
  { page, total, hasMore }: { page: Page; total: number | undefined; hasMore?: boolean },
): void {
  const counted = total !== undefined && total <= MAX_COUNT
  const totalPages = counted ? Math.max(1, Math.ceil(total / page.perPage)) : undefined
  const next =
    totalPages !== undefined
      ? page.page < totalPages
        ? page.page + 1
        : null
      : (hasMore ?? (total !== undefined && page.offset + page.perPage < total))
        ? page.page + 1
        : null
  const prev = page.page > 1 ? page.page - 1 : null
  const href = (p: number) => `<${link.baseUrl}${link.path}?${beforePage}page=${p}${afterPage}>`
  const links: string[] = []
  if (prev !== null) links.push(`${href(prev)}; rel="prev"`)
  if (next !== null) links.push(`${href(next)}; rel="next"`)
  links.push(`${href(1)}; rel="first"`)
  if (totalPages !== undefined) links.push(`${href(totalPages)}; rel="last"`)
  reply.header('x-per-page', String(page.perPage))
  reply.header('x-page', String(page.page))
  reply.header('x-next-page', next === null ? '' : String(next))
  reply.header('x-prev-page', prev === null ? '' : String(prev))
  reply.header('link', links.join(', '))
  if (counted) {
    reply.header('x-total', String(total))
    reply.header('x-total-pages', String(totalPages))
  }
}
