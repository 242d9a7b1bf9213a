import type {
  ImpersonationToken,
  ImpersonationTokenCreate,
  ImpersonationTokenListQuery,
  ImpersonationTokenWithToken,
} from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { applies } from '../domain/releases.js'
import { TOKEN_SCOPES } from '../domain/token-scopes.js'
import { forbidden, notFound, unauthorized, validationError } from '../grape/gitlab-errors.js'
import { pageOf, type PageOut } from '../grape/pagination.js'
import { presentImpersonationToken } from '../present/access-tokens.js'
import type { TokenRow } from '../store/users.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { expiresAtParam, expiryError, issueToken } from './token-issue.js'

/**
 * Impersonation tokens (`lib/api/users.rb`, `resource :impersonation_tokens`): administrators make,
 * list, read and revoke them for any user (401 anonymous, 403 others); such a token signs in as
 * its user, with its scopes.
 */
export function impersonationTokenService(ctx: ServiceContext) {
  const { store } = ctx
  const now = () => isoNow(ctx.clock)
  /** `before { authenticated_as_admin! }`, then `find_user_by_id`: 404 `User Not Found`. */
  const userFor = (actor: Actor, userId: number) => {
    if (!actor.user) throw unauthorized()
    if (!actor.admin) throw forbidden()
    const user = store.users.get(userId)
    if (!user) throw notFound('User')
    return user
  }
  const find = (actor: Actor, userId: number, id: number): TokenRow => {
    const row = store.accessTokens.impersonationToken(userFor(actor, userId).id, id)
    if (!row) throw notFound('Impersonation Token')
    return row
  }

  return {
    /** `GET /users/:user_id/impersonation_tokens`: by id, `state` `all` (the default), `active` or `inactive`. */
    list(actor: Actor, userId: number, q: ImpersonationTokenListQuery): PageOut<ImpersonationToken> {
      const user = userFor(actor, userId)
      const page = pageOf(q)
      const at = now()
      const { rows, total } = store.accessTokens.impersonationTokens(
        user.id,
        q.state ?? 'all',
        at,
        page.perPage,
        page.offset,
      )
      return { items: rows.map((r) => presentImpersonationToken(r, at)), page, total }
    },

    /**
     * `POST /users/:user_id/impersonation_tokens`: the model's validations answer 400
     * `{"message":{"<field>":[...]}}`: `scopes` present and known, and from 16.0 `expires_at` present
     * and within a year (`tokenExpiryRequired`).
     */
    create(actor: Actor, userId: number, p: ImpersonationTokenCreate): ImpersonationTokenWithToken {
      const user = userFor(actor, userId)
      const expiresAt = expiresAtParam(p.expires_at)
      const scopes = [...new Set(p.scopes ?? [])]
      const errors: Record<string, string[]> = {}
      if (scopes.length === 0) errors.scopes = ["can't be blank"]
      else if (scopes.some((s) => !(TOKEN_SCOPES as readonly string[]).includes(s)))
        errors.scopes = ['can only contain available scopes']
      const required = applies(ctx.instance.version, 'tokenExpiryRequired')
      if (expiresAt === undefined && required) errors.expires_at = ["can't be blank"]
      else {
        const error = expiryError(ctx, expiresAt ?? null)
        if (error) errors.expires_at = [error]
      }
      if (Object.keys(errors).length > 0) throw validationError(errors)
      const { id, token } = issueToken(ctx, user.id, {
        name: p.name,
        scopes,
        expiresAt: expiresAt ?? null,
        impersonation: true,
        description: p.description,
      })
      return { ...presentImpersonationToken(store.users.token(id)!, now()), token }
    },

    /** `GET /users/:user_id/impersonation_tokens/:impersonation_token_id`: 404 `Impersonation Token Not Found`. */
    get: (actor: Actor, userId: number, id: number): ImpersonationToken =>
      presentImpersonationToken(find(actor, userId, id), now()),

    /** `DELETE /users/:user_id/impersonation_tokens/:impersonation_token_id`: revoked, it stops signing in at once. */
    revoke(actor: Actor, userId: number, id: number): void {
      store.users.revokeToken(find(actor, userId, id).id)
    },
  }
}
export type ImpersonationTokenService = ReturnType<typeof impersonationTokenService>
