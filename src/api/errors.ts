/**
 * A GitLab API call that did not succeed: the HTTP status, the method and path (never a token,
 * never the query string), and GitLab's body as it was sent (`{message}` or `{error}`,
 * reference/gitlab-behaviour.md §1).
 */
export class GitLabApiError extends Error {
  override readonly name = 'GitLabApiError'
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly body: unknown,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${method} ${path} -> ${status}: ${describeBody(body)}`)
  }

  /** GitLab's message text, however it was shaped. */
  get gitlabMessage(): string {
    return describeBody(this.body)
  }
}

/** The request did not finish in time, or the caller aborted it. */
export class GitLabTimeoutError extends Error {
  override readonly name = 'GitLabTimeoutError'
  constructor(
    readonly method: string,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path} timed out after ${timeoutMs} ms`)
  }
}

/** `{"message":"404 Project Not Found"}` -> `404 Project Not Found`; hashes become `field: msg, msg`. */
export function describeBody(body: unknown): string {
  if (body === undefined || body === null || body === '') return 'no body'
  if (typeof body === 'string') return body.slice(0, 500)
  if (typeof body === 'object') {
    const b = body as Record<string, unknown>
    const main = b.message ?? b.error
    if (typeof main === 'string')
      return b.error_description ? `${main}: ${String(b.error_description)}` : main
    if (main && typeof main === 'object') {
      return Object.entries(main as Record<string, unknown>)
        .map(([field, value]) =>
          Array.isArray(value) ? `${field} ${value.join(', ')}` : `${field}: ${String(value)}`,
        )
        .join('; ')
    }
  }
  return JSON.stringify(body).slice(0, 500)
}

/** Only the path of a URL: query strings may carry tokens and never reach a message. */
export const pathOnly = (pathAndQuery: string) => pathAndQuery.split('?')[0] as string
