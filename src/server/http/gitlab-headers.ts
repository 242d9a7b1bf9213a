import { httpDate, type Clock } from '../domain/clock.js'

/** Where headers are set: Fastify's reply, or an early hit's list of names and values (http/early-hits.ts). */
export interface HeaderSink {
  header(name: string, value: string): unknown
}

/**
 * The headers GitLab sends on every answer, set after the route's own, in this order: `Date`
 * from the injected clock (rate-limit windows are read from it), `X-Frame-Options`,
 * `X-Content-Type-Options` (Rails' default headers) and `X-Request-Id` (http/request-ids.ts).
 */
export function gitlabHeaders(out: HeaderSink, clock: Clock, requestId: string): void {
  out.header('date', httpDate(clock))
  out.header('x-frame-options', 'SAMEORIGIN')
  out.header('x-content-type-options', 'nosniff')
  out.header('x-request-id', requestId)
}

/**
 * GitLab answers `application/json` with no charset parameter (Grape's JSON formatter in
 * `lib/api/api.rb`); some clients compare it exactly.
 */
export const JSON_TYPE = 'application/json'
