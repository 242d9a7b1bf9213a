import { toQueryString, type QueryValue } from '../schema/query-string.js'

export { toQueryString, type QueryValue }

/** Appends a query string (Rails style, src/schema/query-string.ts) to a path that may already have one. */
export function withQuery(pathAndQuery: string, params?: Record<string, QueryValue>): string {
  const qs = toQueryString(params)
  if (!qs) return pathAndQuery
  return `${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}${qs}`
}
