/*
 * Query strings as GitLab (Rails/Grape) reads and writes them, shared by the client (the queries it
 * sends) and the server (the pagination links it hands out), so the encoding is written once.
 */

/** A value a query string can carry: scalars, lists (`k[]=`) and hashes (`k[sub]=`). */
export type QueryValue =
  string | number | boolean | null | undefined | QueryValue[] | { [key: string]: QueryValue }

/**
 * Serialises a request's parameters as Rails reads them: `key=value`, arrays as `key[]=a&key[]=b`,
 * hashes as `not[labels]=x`, all escaped, keys in the caller's order; undefined is skipped, null
 * sends an empty value, an empty list nothing (Grape would read `k[]=` as `[""]`).
 */
export function toQueryString(
  params: Readonly<Record<string, unknown>> | undefined,
  prefix?: string,
): string {
  if (!params) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    const name = prefix ? `${prefix}[${key}]` : key
    if (Array.isArray(value)) {
      const list = encodeURIComponent(`${name}[]`)
      for (const item of value) parts.push(`${list}=${encodeURIComponent(String(item ?? ''))}`)
    } else if (value !== null && typeof value === 'object') {
      const nested = toQueryString(value as Record<string, unknown>, name)
      if (nested) parts.push(nested)
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value === null ? '' : String(value))}`)
    }
  }
  return parts.join('&')
}

/** Ruby's `CGI.escape`: all but `a-zA-Z0-9_.-~` as %XX of the UTF-8 bytes, a space as `+`. */
export const cgiEscape = (text: string): string =>
  // Most keys and values need nothing: every list miss writes three or four links of a dozen pairs.
  UNRESERVED.test(text)
    ? text
    : encodeURIComponent(text)
        .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
        .replaceAll('%20', '+')

const UNRESERVED = /^[\w.~-]*$/

/**
 * Rails `Hash#to_query` (activesupport `core_ext/object/to_query.rb`), as GitLab writes its page
 * links: each pair `key=value` escaped with CGI.escape, then the pairs sorted as strings (a list's
 * pairs, a hash's joined, count as one), an empty list or hash left out (so a hash holding only
 * one gives an empty pair, the link's `?&`); null writes `key=`, a list `key[]=` per item.
 */
export function hashToQuery(params: Readonly<Record<string, unknown>>, namespace?: string): string {
  const pairs: string[] = []
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    if (isEmptyContainer(value)) continue
    pairs.push(valueToQuery(value, namespace === undefined ? key : `${namespace}[${key}]`))
  }
  // Rails leaves the pairs of a hash inside a list (`k[][a]=`) in their order.
  if (!namespace?.includes('[]')) pairs.sort()
  return pairs.join('&')
}

const isEmptyContainer = (value: unknown) =>
  Array.isArray(value) ? value.length === 0 : isHash(value) && Object.keys(value).length === 0

const isHash = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** `Object#to_query(key)`, `Array#to_query(key)` and `Hash#to_query(namespace)` of one value. */
function valueToQuery(value: unknown, key: string): string {
  if (Array.isArray(value)) {
    const prefix = `${key}[]`
    return value.length === 0
      ? valueToQuery(null, prefix)
      : value.map((item) => valueToQuery(item, prefix)).join('&')
  }
  if (isHash(value)) return hashToQuery(value, key)
  return `${cgiEscape(key)}=${cgiEscape(value === null || value === undefined ? '' : String(value))}`
}
