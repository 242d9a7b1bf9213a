/*
 * Query strings as GitLab (Rails/Grape) reads and writes them, shared by the client (the queries it
 * sends) and the server (the pagination links it hands out), so the encoding is written once.
 */

/** A value a query string can carry: scalars, lists (`k[]=`) and hashes (`k[sub]=`). */
export type QueryValue =
  string | number | boolean | null | undefined | QueryValue[] | { [key: string]: QueryValue }

export interface QueryEncoding {
  /**
   * Exactly Rails `Hash#to_query` (activesupport `core_ext/object/to_query.rb`), as GitLab writes its
   * own links: keys sorted, an empty list kept as `k[]=`. Off (the client's requests), the caller's
   * order is kept and an empty list sends nothing, since Grape would read `k[]=` as `[""]`.
   */
  hashToQuery?: boolean
}

/**
 * Serialises parameters as Rails does: `key=value`, arrays as `key[]=a&key[]=b`, hashes as
 * `not[labels]=x`, all escaped; undefined is skipped, null sends an empty value.
 */
export function toQueryString(
  params: Readonly<Record<string, unknown>> | undefined,
  encoding: QueryEncoding = {},
  prefix?: string,
): string {
  if (!params) return ''
  const keys = encoding.hashToQuery ? Object.keys(params).sort() : Object.keys(params)
  const parts: string[] = []
  for (const key of keys) {
    const value = params[key]
    if (value === undefined) continue
    const name = prefix ? `${prefix}[${key}]` : key
    if (Array.isArray(value)) {
      const list = encodeURIComponent(`${name}[]`)
      if (value.length === 0 && encoding.hashToQuery) parts.push(`${list}=`)
      for (const item of value) parts.push(`${list}=${encodeURIComponent(String(item ?? ''))}`)
    } else if (value !== null && typeof value === 'object') {
      const nested = toQueryString(value as Record<string, unknown>, encoding, name)
      if (nested) parts.push(nested)
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value === null ? '' : String(value))}`)
    }
  }
  return parts.join('&')
}
