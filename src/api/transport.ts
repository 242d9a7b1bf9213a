import type { Readable } from 'node:stream'
import { Agent, request, type Dispatcher } from 'undici'
import { GitLabTimeoutError, pathOnly } from './errors.js'

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS'

/** One call, below the API root (`/projects/1/issues?page=2`). */
export interface ApiRequest {
  method: HttpMethod
  path: string
  headers: Record<string, string>
  body?: string | Buffer | Readable
  signal?: AbortSignal
  timeoutMs?: number
}

export interface ApiResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Dispatcher.ResponseData['body']
}

export type Send = (req: ApiRequest) => Promise<ApiResponse>
export type Layer = (next: Send) => Send

/** compose(base, a, b): `a` wraps `b` wraps `base`, so a retry (outer) re-runs auth (inner). */
export const compose = (base: Send, ...layers: Layer[]): Send =>
  layers.reduceRight<Send>((next, layer) => layer(next), base)

/** The API root for a GitLab URL: `https://host/gitlab` -> `https://host/gitlab/api/v4`. */
export const apiRoot = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '').replace(/\/api\/v4$/, '')}/api/v4`

/**
 * The bottom of the stack: undici over one keep-alive Agent. A per-request timeout aborts the
 * call and surfaces as GitLabTimeoutError; a caller's AbortSignal aborts it as well.
 */
export function undiciSend(
  baseUrl: string,
  dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 30_000 }),
): Send {
  const root = apiRoot(baseUrl)
  return async (req) => {
    const timeout = req.timeoutMs ? AbortSignal.timeout(req.timeoutMs) : undefined
    const signal = timeout && req.signal ? AbortSignal.any([timeout, req.signal]) : (timeout ?? req.signal)
    try {
      const res = await request(`${root}${req.path}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
        dispatcher,
      })
      return { status: res.statusCode, headers: res.headers, body: res.body }
    } catch (err) {
      if (timeout?.aborted && !req.signal?.aborted)
        throw new GitLabTimeoutError(req.method, pathOnly(req.path), req.timeoutMs ?? 0)
      throw err
    }
  }
}

export type TokenKind = 'private' | 'job' | 'oauth'

/** Puts the token in the header GitLab expects for its kind; never in the URL. */
export const auth =
  (token: string | undefined, kind: TokenKind = 'private'): Layer =>
  (next) =>
  (req) => {
    if (!token) return next(req)
    const header: Record<string, string> =
      kind === 'job'
        ? { 'job-token': token }
        : kind === 'oauth'
          ? { authorization: `Bearer ${token}` }
          : { 'private-token': token }
    return next({ ...req, headers: { ...req.headers, ...header } })
  }

export const userAgent =
  (ua: string): Layer =>
  (next) =>
  (req) =>
    next({ ...req, headers: { 'user-agent': ua, ...req.headers } })
