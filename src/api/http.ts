/*
 * The core every resource module calls: JSON in and out below the API root,
 * GitLab's errors as GitLabApiError, optional schema checks, and lazy pagination (paginate.ts).
 */
import type { Readable } from 'node:stream'
import type { Static, TSchema } from '@sinclair/typebox'
import type { CallOptions } from './call-options.js'
import { GitLabApiError, GitLabResponseError, redact, WAIT_HEADERS } from './errors.js'
import { pages, paginate, type Page, type PageOptions } from './paginate.js'
import { withQuery } from './query.js'
import type { ApiResponse, HttpMethod, Send } from './transport.js'

export type { CallOptions, Query } from './call-options.js'

/** Settings of the core, from createClient. */
export interface HttpOptions {
  /** Default per-attempt timeout in ms (0 for none). */
  timeoutMs?: number
  /** Check 2xx bodies against the calls' schemas and throw GitLabResponseError on a mismatch. */
  validate?: boolean
  /** Strings (the token) scrubbed from error bodies in case something echoes them. */
  secrets?: readonly string[]
}

/**
 * What a 304 Not Modified resolves to (GitLab's doc/api/issues.md: unsubscribe when not subscribed, a to-do that
 * already exists). It is not an error: test with `result === NOT_MODIFIED`.
 */
export const NOT_MODIFIED: unique symbol = Symbol('304 Not Modified')
export type NotModified = typeof NOT_MODIFIED

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** The core client: calls below the API root, through the composed `Send` (transport.ts). */
export class Http {
  constructor(
    readonly send: Send,
    readonly options: HttpOptions = {},
  ) {}

  /**
   * Sends one call and returns the response as it came: status not checked, body unread (the
   * caller must read or `dump()` it). Sends `Accept: application/json`, and JSON bodies as
   * `Content-Type: application/json`.
   */
  raw(method: HttpMethod, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    return this.exchange(method, path, options, false)
  }

  /**
   * `raw` for a caller that reads the body whole (`text()` or `dump()`, never as a stream): the
   * transport collects it as it arrives (transport.ts `ApiRequest.whole`).
   */
  rawWhole(method: HttpMethod, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    return this.exchange(method, path, options, true)
  }

  private async exchange(
    method: HttpMethod,
    path: string,
    options: CallOptions,
    whole: boolean,
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
    if (options.sudo !== undefined) headers.sudo = String(options.sudo)
    let body: string | Buffer | Readable | undefined
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.json)
    } else if (options.body) {
      headers['content-type'] = options.body.contentType
      if (options.body.length !== undefined) headers['content-length'] = String(options.body.length)
      body = options.body.data
    }
    return this.send({
      method,
      path: withQuery(path, options.query),
      headers,
      body,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
      whole,
    })
  }

  /**
   * One call, read whole: the parsed JSON of a 2xx (text when GitLab did not answer JSON),
   * `undefined` for 204 and HEAD, NOT_MODIFIED for 304. With a `response` schema the result is typed
   * by it (so type and check cannot drift) and, with `validate` on, checked against it; without one
   * `T` is the caller's promise about the body. Throws GitLabApiError for 4xx/5xx (after retries,
   * retry.ts), GitLabTimeoutError, GitLabResponseError, or the caller's abort reason.
   */
  request<S extends TSchema>(
    method: HttpMethod,
    path: string,
    options: Omit<CallOptions, 'response'> & { response: S },
  ): Promise<Static<S>>
  request<T = unknown>(method: HttpMethod, path: string, options?: Omit<CallOptions, 'response'>): Promise<T>
  async request(method: HttpMethod, path: string, options: CallOptions = {}): Promise<unknown> {
    const res = await this.rawWhole(method, path, options)
    return this.read(method, path, res, options.response)
  }

  /** Reads a response as `request` does (for callers of `raw`). */
  async read(method: HttpMethod, path: string, res: ApiResponse, schema?: TSchema): Promise<unknown> {
    if (res.status === 304 || res.status === 204 || method === 'HEAD') {
      await res.body.dump()
      return res.status === 304 ? NOT_MODIFIED : undefined
    }
    const parsed = await parseBody(res)
    if (res.status >= 400) {
      const retryAfter = first(res.headers['retry-after'])
      const timing: Record<string, string> = {}
      for (const name of WAIT_HEADERS) {
        const value = first(res.headers[name])
        if (value !== undefined) timing[name] = value
      }
      throw new GitLabApiError(
        res.status,
        method,
        path,
        redact(parsed, this.options.secrets ?? []),
        retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
        timing,
      )
    }
    if (schema) await this.check(method, path, schema, [parsed])
    return parsed
  }

  /**
   * Throws GitLabResponseError when `validate` is on and one of `values` does not match `schema`.
   * TypeBox's value checker loads only for a client made with `validate` (no action uses it).
   */
  async check(method: HttpMethod, path: string, schema: TSchema, values: readonly unknown[]): Promise<void> {
    if (!this.options.validate) return
    const { Value } = await import('@sinclair/typebox/value')
    for (const value of values) {
      if (Value.Check(schema, value)) continue
      const error = Value.Errors(schema, value).First()
      throw new GitLabResponseError(method, path, error ? `${error.path || '/'} ${error.message}` : 'invalid')
    }
  }

  /** One page at a time (paginate.ts `pages`). */
  pages<T>(path: string, options: PageOptions = {}): AsyncGenerator<Page<T>> {
    return pages<T>(this, path, options)
  }

  /** Every item, lazily, one page in memory (paginate.ts `paginate`). */
  paginate<T>(path: string, options: PageOptions = {}): AsyncGenerator<T> {
    return paginate<T>(this, path, options)
  }
}

/** A body's JSON when its type says JSON and it parses, else its text (undefined when empty). */
async function parseBody(res: ApiResponse): Promise<unknown> {
  const isJson = /[/+]json\b/i.test(first(res.headers['content-type']) ?? '')
  if (isJson && res.body.json)
    try {
      return await res.body.json()
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err // the transport's error, not the body's
    }
  const text = await res.body.text()
  return text && isJson ? safeJson(text) : text || undefined
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
