import { GitLabError } from '../grape/gitlab-errors.js'

/** `Gitlab::Auth`'s scopes a personal access token may be given through the API. */
export const TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'create_runner',
  'manage_runner',
  'k8s_proxy',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  'ai_features',
  'self_rotate',
  'read_service_ping',
  'admin_mode',
  'sudo',
] as const

/** A runner's own routes, which `manage_runner` opens (lib/api/ci/runners.rb: an `:id` under `/runners/`). */
const RUNNER_BY_ID = /^\/api\/v4\/runners\/:id(\/|$)/

/**
 * The scopes that open a route (lib/api/api.rb's `allow_access_with_scope`, in the order GitLab
 * names them): `api` everywhere, `read_api` on reads, `read_user` on reads of `/user` and
 * `/users` (lib/api/users.rb), `create_runner` on `POST /user/runners` (lib/api/user_runners.rb) and
 * `manage_runner` on a runner's routes. `url` is the route's pattern.
 */
export function routeScopes(method: string, url: string): string[] {
  const read = method === 'GET' || method === 'HEAD'
  const runner = RUNNER_BY_ID.test(url) ? ['manage_runner'] : []
  if (!read)
    return method === 'POST' && url === '/api/v4/user/runners' ? ['api', 'create_runner'] : ['api', ...runner]
  return /^\/api\/v4\/users?(\/|$)/.test(url)
    ? ['read_user', 'api', 'read_api']
    : ['api', 'read_api', ...runner]
}

/**
 * `Gitlab::Auth::InsufficientScopeError` as lib/api/api_guard.rb renders it: 403 with the OAuth
 * error body and `WWW-Authenticate`, when the token has none of the route's scopes. A seeded
 * token (`scopes` null) has them all.
 */
export function checkScopes(scopes: readonly string[] | null, method: string, url: string): void {
  if (scopes !== null) requireScopes(scopes, routeScopes(method, url))
}

/** 403 `insufficient_scope` (as `checkScopes`) unless the token has one of `allowed` (`sudo` for Sudo). */
export function requireScopes(scopes: readonly string[] | null, allowed: readonly string[]): void {
  if (scopes === null) return
  if (allowed.some((s) => scopes.includes(s))) return
  const description = 'The request requires higher privileges than provided by the access token.'
  const scope = allowed.join(' ')
  throw new GitLabError(
    403,
    { error: 'insufficient_scope', error_description: description, scope },
    {
      'www-authenticate': `Bearer realm="", error="insufficient_scope", error_description="${description}", scope="${scope}"`,
    },
  )
}
