/** A value a query string can carry: scalars, lists (`k[]=`) and hashes (`k[sub]=`). */
export type QueryValue =
  string | number | boolean | null | undefined | QueryValue[] | { [key: string]: QueryValue }

/**
 * Serialises parameters as GitLab (Rails/Grape) reads them: `key=value`, arrays as
 * `key[]=a&key[]=b`, hashes as `not[labels]=x`; undefined is skipped, null sends an empty value.
 */
export function toQueryString(params: Record<string, QueryValue> | undefined, prefix?: string): string {
  if (!params) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    const name = prefix ? `${prefix}[${key}]` : key
    if (Array.isArray(value)) {
      for (const item of value)
        parts.push(`${encodeURIComponent(`${name}[]`)}=${encodeURIComponent(String(item ?? ''))}`)
    } else if (value !== null && typeof value === 'object') {
      const nested = toQueryString(value, name)
      if (nested) parts.push(nested)
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value === null ? '' : String(value))}`)
    }
  }
  return parts.join('&')
}

/** Appends a query string to a path that may already have one. */
export function withQuery(pathAndQuery: string, params?: Record<string, QueryValue>): string {
  const qs = toQueryString(params)
  if (!qs) return pathAndQuery
  return `${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}${qs}`
}
