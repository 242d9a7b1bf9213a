/*
 * The client's errors, rendered in one place. Each carries the method and the
 * path of the call, never a token and never a query string (where access logs and GitLab's own
 * links would put secrets).
 */

/**
 * The response headers an error keeps, to know when to try again (`serverDelayMs` in retry.ts, the
 * rate-limit waits in poll.ts): `Date` dates GitLab's fixed rate-limit windows. Cookies and the rest stay out.
 */
export const WAIT_HEADERS = ['retry-after', 'ratelimit-reset', 'ratelimit-resettime', 'date'] as const

/**
 * A GitLab API call answered with a status of 400 or above: the HTTP status, the method and path
 * (without the query string), and GitLab's body as it was sent (`lib/api/helpers.rb`:
 * `{message}` whose value is a string or a hash, `{error[, error_description]}`, or Rack::Attack's
 * plain text). `retryAfterSeconds` is GitLab's `Retry-After` when it sent a number of seconds;
 * `timing` keeps the headers that say when to try again (see `WAIT_HEADERS`), and no others.
 */
export class GitLabApiError extends Error {
  override readonly name = 'GitLabApiError'
  /** The path below `/api/v4` (below the server root for `client.emulator`), without its query string. */
  readonly path: string
  constructor(
    readonly status: number,
    readonly method: string,
    path: string,
    readonly body: unknown,
    readonly retryAfterSeconds?: number,
    readonly timing: Readonly<Record<string, string>> = {},
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

/** What to check for each way a connection fails, by the error's `code`. */
function connectionHint(code: string): string {
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return 'the host name did not resolve: check the URL and DNS'
  if (code === 'ECONNREFUSED')
    return 'the connection was refused: check the host and port, and that GitLab is up'
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return 'the connection timed out: check the address, firewalls and proxies'
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return 'TLS failed: check the certificate (a private CA goes in NODE_EXTRA_CA_CERTS)'
  return 'the connection broke: a proxy, a load balancer or a restart may have cut it'
}

/**
 * GitLab could not be reached, or the connection broke before an answer came: DNS, a refused or
 * timed-out connection, TLS, a reset. Names the URL (the API root, no path or query) and what to
 * check. `code` is the network error's (`ECONNREFUSED`, `UND_ERR_SOCKET`, ...), so retry.ts still
 * classifies it; `cause` is the error undici threw.
 */
export class GitLabConnectionError extends Error {
  override readonly name = 'GitLabConnectionError'
  readonly path: string
  constructor(
    readonly method: string,
    path: string,
    /** The API root the call went to, e.g. `https://gitlab.example.com/api/v4`. */
    readonly url: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${method} ${pathOnly(path)}: could not reach GitLab at ${url} (${code}): ${connectionHint(code)}`,
      options,
    )
    this.path = pathOnly(path)
  }
}

/**
 * `401 Unauthorized` for a GitLab error whose message already starts with its status (GitLab's
 * `{"message":"401 Unauthorized"}`), else `status message`: for sentences that name both once.
 */
export const statusText = (err: GitLabApiError): string => {
  const message = err.gitlabMessage
  return message.startsWith(String(err.status)) ? message : `${err.status} ${message}`
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
  if (typeof body === 'string' && /^\s*<(!doctype|html|head|body|\?xml)/i.test(body))
    return `not GitLab's JSON but a page (a proxy's?): "${excerpt(body)}"`
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

/** The text of an HTML page, tags and scripts dropped, in at most 120 characters. */
function excerpt(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
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
