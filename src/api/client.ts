import type { Dispatcher } from 'undici'
import { Http } from './http.js'
import { issues } from './issues.js'
import { groups, projects } from './projects.js'
import { retry, type RetryPolicy } from './retry.js'
import { auth, compose, undiciSend, userAgent, type Send, type TokenKind } from './transport.js'
import { users, version } from './users.js'

export interface ClientOptions {
  /** GitLab's URL (`https://gitlab.example.com`, with any path prefix); `/api/v4` is added. */
  baseUrl: string
  token?: string
  /** `private` (PRIVATE-TOKEN, default), `job` (JOB-TOKEN) or `oauth` (Authorization: Bearer). */
  tokenType?: TokenKind
  retry?: Partial<RetryPolicy>
  /** Per-request timeout in milliseconds (default 60 s; 0 for none). */
  timeoutMs?: number
  userAgent?: string
  /** undici dispatcher (an Agent or a Pool); one keep-alive Agent per client by default. */
  dispatcher?: Dispatcher
  /** Replaces the network layer entirely (transport tests). */
  send?: Send
}

/**
 * The typed GitLab client: one module per resource group over one small core
 * (transport -> user agent -> retry -> auth -> undici).
 */
export function createClient(options: ClientOptions) {
  const base = options.send ?? undiciSend(options.baseUrl, options.dispatcher)
  const timeoutMs = options.timeoutMs ?? 60_000
  const withTimeout =
    (next: Send): Send =>
    (req) =>
      next(timeoutMs && !req.timeoutMs ? { ...req, timeoutMs } : req)
  const send = compose(
    base,
    userAgent(options.userAgent ?? 'gitlab-actions'),
    retry(options.retry),
    withTimeout,
    auth(options.token, options.tokenType),
  )
  const http = new Http(send)
  return {
    http,
    issues: issues(http),
    projects: projects(http),
    groups: groups(http),
    users: users(http),
    version: version(http),
  }
}
export type GitLabClient = ReturnType<typeof createClient>
export { GitLabApiError, GitLabTimeoutError } from './errors.js'
export { collect, NOT_MODIFIED } from './http.js'
