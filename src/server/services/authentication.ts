import { epochMs, isoNow, type Clock } from '../domain/clock.js'
import { checkScopes, requireScopes } from '../domain/token-scopes.js'
import { forbidden, notFound, unauthorized } from '../grape/gitlab-errors.js'
import type { Store } from '../store/index.js'
import type { TokenOwner } from '../store/users.js'
import { Actor } from './access.js'
import type { JobTokens } from './job-tokens.js'

/** Who a request's credentials name; the edge reads them off the request (http/auth.ts). */
export interface Authentication {
  /** No credentials, or a job token on a route that does not take one; 401 with a `sudo`. */
  anonymous(sudo?: string): Actor
  /**
   * A personal, impersonation, project, group or OAuth token: one that matches no active user is a
   * 401, even on public routes; one without a scope the route (`method`, its `url` pattern) takes is
   * a 403. With `sudo` (a user id or username), an administrator's token runs as that user.
   */
  token(token: string, method: string, url: string, sudo?: string): Actor
  /** A CI/CD job token, on a route that takes one (never with `sudo`). */
  jobToken(token: string, sudo?: string): Actor
}

/** `PersonalAccessTokens::LastUsedService`: `last_used_at` is written at most this often per token. */
const LAST_USED_EVERY_MS = 10 * 60_000

/** What `sudo!` answers a caller who is not an administrator. */
const sudoMessage = 'Must be admin to use sudo'

export function authentication(store: Store, clock: Clock, jobs: JobTokens): Authentication {
  /** `Date.parse` of the last `lastUsedAt` read: a client sends the same token on every request. */
  let lastUsed = { text: '', ms: NaN }
  const msOf = (text: string) => {
    if (text !== lastUsed.text) lastUsed = { text, ms: Date.parse(text) }
    return lastUsed.ms
  }
  /** Records the token's use unless it was recorded in the last ten minutes (a write per token, not per request). */
  const used = (owner: TokenOwner) => {
    const now = epochMs(clock)
    if (owner.lastUsedAt !== null && now - msOf(owner.lastUsedAt) < LAST_USED_EVERY_MS) return
    store.users.touchToken(owner.tokenId, new Date(now).toISOString())
  }
  /**
   * `sudo!` (`lib/api/helpers.rb`): administrators only, with a token that has the `sudo` scope;
   * the user by id (digits) or username, else 404.
   */
  const sudoAs = (actor: Actor, scopes: readonly string[] | null, identifier: string): Actor => {
    if (!actor.admin) throw forbidden(sudoMessage)
    requireScopes(scopes, ['sudo'])
    const user = /^\d+$/.test(identifier)
      ? store.users.get(Number(identifier))
      : store.users.byUsername(identifier)
    if (!user) throw notFound(`User with ID or username '${identifier}'`)
    return new Actor(user, actor.tokenId)
  }
  return {
    anonymous(sudo) {
      if (sudo !== undefined) throw unauthorized()
      return new Actor(null)
    },
    token(token, method, url, sudo) {
      const owner = store.users.tokenOwner(token)
      // The clock is read only for a token that has an expiry time.
      if (
        !owner ||
        (owner.expiresAt !== null && owner.expiresAt <= isoNow(clock)) ||
        owner.user.state !== 'active'
      )
        throw unauthorized()
      checkScopes(owner.scopes, method, url)
      used(owner)
      const actor = new Actor(owner.user, owner.tokenId)
      return sudo === undefined ? actor : sudoAs(actor, owner.scopes, sudo)
    },
    jobToken(token, sudo) {
      const actor = jobs.resolve(token)
      if (sudo === undefined) return actor
      if (!actor.user) throw unauthorized()
      if (!actor.admin) throw forbidden(sudoMessage)
      throw forbidden('Must be authenticated using an OAuth or Personal Access Token to use sudo')
    },
  }
}
