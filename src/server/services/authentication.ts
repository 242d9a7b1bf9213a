import { isoNow, type Clock } from '../domain/clock.js'
import { checkScopes } from '../domain/token-scopes.js'
import { unauthorized } from '../grape/gitlab-errors.js'
import type { Store } from '../store/index.js'
import { Actor } from './access.js'
import type { JobTokens } from './job-tokens.js'

/** Who a request's credentials name; the edge reads them off the request (http/auth.ts). */
export interface Authentication {
  /** No credentials, or a job token on a route that does not take one. */
  anonymous(): Actor
  /**
   * A personal, project, group or OAuth token: one that matches no active user is a 401, even on
   * public routes; one without a scope the route (`method`, its `url` pattern) takes is a 403.
   */
  token(token: string, method: string, url: string): Actor
  /** A CI/CD job token, on a route that takes one. */
  jobToken(token: string): Actor
}

export function authentication(store: Store, clock: Clock, jobs: JobTokens): Authentication {
  return {
    anonymous: () => new Actor(null),
    token(token, method, url) {
      const owner = store.users.tokenOwner(token)
      // The clock is read only for a token that has an expiry time.
      if (
        !owner ||
        (owner.expiresAt !== null && owner.expiresAt <= isoNow(clock)) ||
        owner.user.state !== 'active'
      )
        throw unauthorized()
      checkScopes(owner.scopes, method, url)
      return new Actor(owner.user, owner.tokenId)
    },
    jobToken: (token) => jobs.resolve(token),
  }
}
