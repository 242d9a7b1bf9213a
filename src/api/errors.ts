/*
 * The client's errors, rendered in one place. Each carries the method and the
 * path of the call, never a token and never a query string (where access logs and GitLab's own
 * links would put secrets).
 */

/**
 * A GitLab API call answered with a status of 400 or above: the HTTP status, the method and path
 * (without the query string), and GitLab's body as it was sent (reference/gitlab-behaviour.md §1.1:
 * `{message}` whose value is a string or a hash, `{error[, error_description]}`, or Rack::Attack's
 * plain text). `retryAfterSeconds` is GitLab's `Retry-After` when it sent a number of seconds.
 */
export class GitLabApiError extends Error {
  override readonly name = 'GitLabApiError'
  /** The path below `/api/v4`, without its query string. */
  readonly path: string
  constructor(
    readonly status: number,
    readonly method: string,
    path: string,
    readonly body: unknown,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${method} ${pathOnly(path)} -> ${status}: ${describeBody(body)}`)
    this.path = pathOnly(path)
  }

  /** GitLab's message text, however it was shaped (see describeBody). */
  get gitlabMessage(): string {
    return describeBody(this.body)
  }
}

/**
 * The request did not finish within the client's per-request timeout (`timeoutMs`). A caller's
 * own AbortSignal is not turned into this error: the call rejects with the signal's `reason`, as
 * `fetch` does, so callers can tell their own cancellation from a slow server.
 */
export class GitLabTimeoutError extends Error {
  override readonly name = 'GitLabTimeoutError'
  readonly code = 'GITLAB_TIMEOUT'
  readonly path: string
  constructor(
    readonly method: string,
    path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${pathOnly(path)} timed out after ${timeoutMs} ms`)
    this.path = pathOnly(path)
  }
}

/**
 * A 2xx answer whose body does not match the schema the call expects; raised only when the client
 * was created with `validate: true` (the contract tests turn it on: unknown
 * data is checked against a schema at the boundary). `problem` names the first failing field.
 */
export class GitLabResponseError extends Error {
  override readonly name = 'GitLabResponseError'
  readonly path: string
  constructor(
    readonly method: string,
    path: string,
    readonly problem: string,
  ) {
    super(`${method} ${pathOnly(path)}: unexpected response: ${problem}`)
    this.path = pathOnly(path)
  }
}

/**
 * GitLab's error body as one line of text (`lib/api/helpers.rb`): `{"message":"404 Project Not Found"}` ->
 * `404 Project Not Found`; `{"message":{"title":["can't be blank"]}}` -> `title can't be blank`;
 * `{"message":{"error":"..."}}` -> `...`; `{"error":"invalid_token","error_description":"..."}` ->
 * `invalid_token: ...`; plain text as is (cut at 500 characters); nothing -> `no body`.
 */
export function describeBody(body: unknown): string {
  if (body === undefined || body === null || body === '') return 'no body'
  if (typeof body === 'string') return body.trim().slice(0, 500)
  if (typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>
    const main = b.message ?? b.error
    if (typeof main === 'string')
      return b.error_description ? `${main}: ${String(b.error_description)}` : main
    if (main && typeof main === 'object' && !Array.isArray(main)) {
      const entries = Object.entries(main as Record<string, unknown>)
      if (entries.length === 1 && entries[0]?.[0] === 'error' && typeof entries[0][1] === 'string')
        return entries[0][1]
      return entries
        .map(([field, value]) =>
          Array.isArray(value) ? `${field} ${value.join(', ')}` : `${field}: ${String(value)}`,
        )
        .join('; ')
    }
  }
  return JSON.stringify(body).slice(0, 500)
}

/** Only the path of a path-and-query: query strings may carry secrets and never reach a message. */
export const pathOnly = (pathAndQuery: string): string => pathAndQuery.split(/[?#]/, 1)[0] as string

/**
 * `value` with every occurrence of each secret replaced by `[REDACTED]`, in strings at any depth.
 * Used on error bodies before they are kept, in case a server or proxy echoes a header back.
 */
export function redact<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length > 0)
  if (live.length === 0) return value
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return live.reduce((s, secret) => s.split(secret).join('[REDACTED]'), v)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}
