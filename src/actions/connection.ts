/*
 * The inputs every GitLab action shares and the client built from them.
 * Tables compose these specs (`{ ...connection, ref: {...} }`) so names, defaults and wording stay
 * the same across actions. Tokens are `secret: true`: parseInputs masks them before anything else.
 */
import { createClient, type ClientOptions, type GitLabClient } from '../api/client.js'
import { duration, httpUrl, type InputSpec } from './inputs.js'

export const DEFAULT_GITLAB_URL = 'https://gitlab.com'

/** `gitlab-url`: `CI_SERVER_URL` (set inside GitLab CI) or `GITLAB_URL` when empty, else gitlab.com. */
export const gitlabUrl = {
  description: `GitLab's URL (with any path prefix). Empty: $CI_SERVER_URL or $GITLAB_URL when set, else ${DEFAULT_GITLAB_URL}`,
  env: ['CI_SERVER_URL', 'GITLAB_URL'],
  default: DEFAULT_GITLAB_URL,
  parse: httpUrl,
} satisfies InputSpec<string>

/** A required token input (masked); `env` names the variables the CLI and the runner fall back to. */
export const tokenInput = (description: string, env: readonly string[]) =>
  ({ description, env, secret: true, required: true as const }) satisfies InputSpec

/** An optional token input (masked). */
export const optionalTokenInput = (description: string, env: readonly string[]) =>
  ({ description, env, secret: true }) satisfies InputSpec

/** `project`: a numeric id or a full path. */
export const projectInput = (extra = '') =>
  ({
    description: `Project id or full path, e.g. acme/widgets${extra}`,
    required: true as const,
  }) satisfies InputSpec

/** `timeout`: how long to wait for GitLab's background work before failing. */
export const timeoutInput = (dflt: string, what: string) =>
  ({
    description: `Stop waiting for ${what} after this long (90s, 30m, 1h30m; bare numbers are seconds)`,
    default: dflt,
    parse: duration,
  }) satisfies InputSpec<number>

/** `poll-interval`: the first gap between status reads; it grows while nothing changes. */
export const pollIntervalInput = {
  description: 'First gap between status reads; grows up to 4x while the status does not change',
  default: '5s',
  parse: duration,
} satisfies InputSpec<number>

/** Prefix of a project given as a number (an id) rather than a path. */
export const projectRef = (text: string): string | number => (/^\d+$/.test(text) ? Number(text) : text)

/**
 * A client for an action: retries on 429/5xx as the client does (Retry-After honoured), per-request
 * timeout 60 s, user agent naming the action. `token` undefined makes anonymous calls.
 */
export function actionClient(
  url: string,
  token: string | undefined,
  action: string,
  extra: Partial<ClientOptions> = {},
): GitLabClient {
  return createClient({ baseUrl: url, token, userAgent: `gitlab-actions/${action}`, ...extra })
}

/** A one-line description of a duration in ms: `1h05m`, `2m30s`, `45s`, `800ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`
  const s = Math.round(ms / 1000)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = s % 60
  if (h) return `${h}h${String(m).padStart(2, '0')}m`
  if (m) return `${m}m${String(sec).padStart(2, '0')}s`
  return `${sec}s`
}

/** Bytes as people read them: `812 B`, `4.2 KiB`, `13.0 MiB`. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = n
  let u = 0
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024
    u++
  }
  return u === 0 ? `${n} B` : `${v.toFixed(1)} ${units[u]}`
}
