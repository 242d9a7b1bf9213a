/*
 * The transport contract and its layers: a `Send` takes one call below the API
 * root and resolves with the response head and an unread body; a `Layer` wraps a `Send` in another.
 * The bottom `Send` is undici over one keep-alive Agent; tests put a fake `Send` there instead.
 */
import type { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import { GitLabConnectionError, GitLabTimeoutError } from './errors.js'
import { Agent, originAndPath, request } from './undici.js'
import { dispatchWhole } from './whole.js'

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS'

/** One call below the API root: `path` is `/projects/1/issues?page=2`, already encoded. */
export interface ApiRequest {
  method: HttpMethod
  path: string
  headers: Record<string, string>
  /** A string or Buffer can be sent again on retry; a stream cannot (retry.ts never resends it). */
  body?: string | Buffer | Readable
  /** The caller's signal: aborting rejects the call with `signal.reason`. */
  signal?: AbortSignal
  /** Per-attempt timeout in milliseconds (0 or absent for none); see GitLabTimeoutError. */
  timeoutMs?: number
  /**
   * The caller reads the body whole (`text()` or `dump()`, never a stream): undiciSend then
   * collects it as it arrives (whole.ts). Set by http.ts for `request` and for list pages.
   */
  whole?: boolean
}

/** What a layer needs of a body: read it as text, stream it, or throw it away to free the socket. */
export interface ResponseBody extends AsyncIterable<Uint8Array | string> {
  text(): Promise<string>
  dump(): Promise<void>
}

/** The response head as it came (header names lower-case) and the unread body. */
export interface ApiResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: ResponseBody
}

export type Send = (req: ApiRequest) => Promise<ApiResponse>
export type Layer = (next: Send) => Send

/**
 * `compose(base, a, b)`: `a` wraps `b` wraps `base`, so an outer retry re-runs the inner layers
 * (auth) on every attempt. Throws TypeError for a layer that is not a function, as undici does.
 */
export function compose(base: Send, ...layers: Layer[]): Send {
  for (const layer of layers)
    if (typeof layer !== 'function')
      throw new TypeError(`invalid layer, expected function received ${typeof layer}`)
  return layers.reduceRight<Send>((next, layer) => layer(next), base)
}

/**
 * The API root of a GitLab URL: `https://host/gitlab` -> `https://host/gitlab/api/v4` (a trailing
 * slash or an `/api/v4` already there is accepted). Throws TypeError unless it is an http(s) URL
 * without credentials, query or fragment; the message never repeats the URL (it may hold secrets).
 */
export function apiRoot(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new TypeError('baseUrl must be an absolute http(s) URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl must be an http(s) URL, not ${url.protocol}`)
  if (url.username || url.password) throw new TypeError('baseUrl must not carry credentials; use token')
  if (url.search || url.hash) throw new TypeError('baseUrl must not have a query string or fragment')
  const prefix = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '')
  return `${url.origin}${prefix}/api/v4`
}

/**
 * The bottom of the stack: undici over one keep-alive Agent, against `apiRoot(baseUrl)`: `request`,
 * or for a body read whole (`req.whole`) the `dispatch` API (whole.ts).
 * `req.timeoutMs` covers the whole exchange, body included, and rejects with GitLabTimeoutError;
 * the caller's `req.signal` rejects with its own reason. Network errors become GitLabConnectionError,
 * keeping their `code` (`UND_ERR_SOCKET`, `ECONNRESET`, ...) for retry.ts to classify.
 */
export function undiciSend(
  baseUrl: string,
  dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 30_000 }),
): Send {
  const root = apiRoot(baseUrl)
  return async (req) => {
    const mapError = (err: unknown, timedOut: boolean) => {
      if (timedOut && !req.signal?.aborted)
        return new GitLabTimeoutError(req.method, req.path, req.timeoutMs ?? 0)
      const code = networkCode(err)
      if (code === undefined || req.signal?.aborted) return err
      return new GitLabConnectionError(req.method, req.path, root, code, { cause: err })
    }
    if (req.whole) {
      const { method, headers, body, signal, timeoutMs } = req
      return dispatchWhole(
        dispatcher,
        { ...originAndPath(`${root}${req.path}`), method, headers, body },
        { signal, timeoutMs },
        mapError,
      )
    }
    const timeout = req.timeoutMs ? AbortSignal.timeout(req.timeoutMs) : undefined
    const signal = timeout && req.signal ? AbortSignal.any([timeout, req.signal]) : (timeout ?? req.signal)
    const asTimeout = (err: unknown) => mapError(err, timeout?.aborted === true)
    try {
      const res = await request(`${root}${req.path}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
        dispatcher,
      })
      const body = res.body
      return {
        status: res.statusCode,
        headers: res.headers,
        body: {
          text: () => body.text().catch((err: unknown) => Promise.reject(asTimeout(err))),
          dump: () => body.dump(),
          [Symbol.asyncIterator]: () => body[Symbol.asyncIterator](),
        },
      }
    } catch (err) {
      throw asTimeout(err)
    }
  }
}

/** The system or undici error code of a network failure (on the error or its cause), else undefined. */
function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const code = (e as { code?: unknown }).code
    if (
      typeof code === 'string' &&
      /^(E[A-Z_]+|UND_ERR_(SOCKET|CLOSED|CONNECT_TIMEOUT)|ERR_TLS_\w+|ERR_SSL_\w+|[A-Z_]*CERT[A-Z_]*|UNABLE_TO_\w+)$/.test(
        code,
      )
    )
      return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/** How the token is sent: `private` -> `PRIVATE-TOKEN`, `job` -> `JOB-TOKEN`, `oauth` -> `Bearer`. */
export type TokenType = 'private' | 'job' | 'oauth'

/**
 * Puts the token in the header GitLab reads for its kind (`lib/gitlab/auth/auth_finders.rb`),
 * never in the URL. Without a token the call goes out anonymous.
 */
export const auth =
  (token: string | undefined, type: TokenType = 'private'): Layer =>
  (next) =>
  (req) => {
    if (!token) return next(req)
    const header: Record<string, string> =
      type === 'job'
        ? { 'job-token': token }
        : type === 'oauth'
          ? { authorization: `Bearer ${token}` }
          : { 'private-token': token }
    return next({ ...req, headers: { ...req.headers, ...header } })
  }

/** Sets `User-Agent` (a caller's own header wins). */
export const userAgent =
  (ua: string): Layer =>
  (next) =>
  (req) =>
    next({ ...req, headers: { 'user-agent': ua, ...req.headers } })
