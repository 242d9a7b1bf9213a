/*
 * The options of one call, apart from the core (http.ts) so that pagination (paginate.ts) can take
 * them without importing the core that imports it.
 */
import type { Readable } from 'node:stream'
import type { TSchema } from '@sinclair/typebox'
import type { QueryValue } from './query.js'

/** Query parameters, serialised as Rails reads them (query.ts). */
export type Query = Record<string, QueryValue>

/** Options of one call. Every field is optional. */
export interface CallOptions {
  /** Query parameters (query.ts); never put a token here. */
  query?: Query
  /** A JSON body, sent as `application/json` (POST/PUT). */
  json?: unknown
  /** A raw body with its content type (uploads); a stream body is never retried. */
  body?: { data: string | Buffer | Readable; contentType: string; length?: number }
  headers?: Record<string, string>
  /**
   * Run the call as this user (an id or a username): the `Sudo` header, for an administrator's
   * token with the `sudo` scope (GitLab's 403 otherwise).
   */
  sudo?: string | number
  /** The caller's cancellation: the call rejects with `signal.reason`. */
  signal?: AbortSignal
  /** This call's timeout in ms, per attempt (default: the client's `timeoutMs`). */
  timeoutMs?: number
  /** The schema a 2xx body must match; checked only when the client has `validate: true`. */
  response?: TSchema
}
