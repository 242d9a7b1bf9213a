/*
 * The transport contract and its layers: a `Send` takes one call below the API
 * root and resolves with the response head and an unread body; a `Layer` wraps a `Send` in another.
 * The bottom `Send` is undici over one keep-alive Agent (undici-send.ts); tests put a fake `Send` there instead.
 */
import type { Readable } from 'node:stream'

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
  /**
   * `JSON.parse(await text())`, for a transport that can do it with less work (whole.ts parses a
   * large array in parts); rejects with SyntaxError as `JSON.parse` throws. Optional: `Http.read`
   * parses `text()` itself without it.
   */
  json?(): Promise<unknown>
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
  return `${serverRoot(baseUrl)}/api/v4`
}

/**
 * The server root of a GitLab URL, where its pages and the reference server's `/-/emulator/`
 * controls are: `https://host/gitlab/api/v4` -> `https://host/gitlab`. Throws as `apiRoot` does.
 */
export function serverRoot(baseUrl: string): string {
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
  return `${url.origin}${prefix}`
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
