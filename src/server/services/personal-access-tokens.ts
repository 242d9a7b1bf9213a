import type {
  OwnPersonalAccessTokenCreate,
  PersonalAccessToken,
  PersonalAccessTokenCreate,
  PersonalAccessTokenListQuery,
  PersonalAccessTokenWithToken,
} from '../../schema/index.js'
import { isoNow, today } from '../domain/clock.js'
import { TOKEN_SCOPES } from '../domain/token-scopes.js'
import {
  badRequest,
  forbidden,
  messageError,
  notFound,
  paramError,
  recordNotFound,
  unauthorized,
} from '../grape/gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentToken } from '../present/access-tokens.js'
import type { TokenRow } from '../store/users.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { addDays, expiresAtParam, expiryError, issueToken } from './token-issue.js'

/** The scopes `POST /user/personal_access_tokens` takes (`lib/api/users.rb`: `K8S_PROXY_SCOPE` only). */
const OWN_TOKEN_SCOPES = ['k8s_proxy']

/**
 * Personal access tokens (`lib/api/personal_access_tokens.rb`, `lib/api/users.rb`): administrators
 * make them for any user; everyone lists, reads, revokes and rotates their own (administrators
 * anyone's). A token made here authenticates at once, with its scopes; it is stored as its digest.
 */
export function personalAccessTokenService(ctx: ServiceContext) {
  const { store } = ctx

  const present = (row: TokenRow): PersonalAccessToken => presentToken(row, isoNow(ctx.clock))
  const requireUser = (actor: Actor) => {
    if (!actor.user) throw unauthorized()
    return actor.user
  }
  /** A token the caller may manage: its own, or anyone's for an administrator; else 404, as GitLab hides it. */
  /**
   * `PersonalAccessTokenPolicy`'s `is_owner`: the token's user, unless it is an impersonation token
   * (those are administrators' to manage).
   */
  const owns = (actor: Actor, row: TokenRow) => row.user_id === actor.user?.id && row.impersonation === 0
  const mine = (actor: Actor, id: number): TokenRow => {
    requireUser(actor)
    const row = store.users.token(id)
    if (!row || (!owns(actor, row) && !actor.admin)) throw notFound()
    return row
  }
  const selfToken = (actor: Actor): TokenRow => {
    requireUser(actor)
    const row = actor.tokenId === null ? undefined : store.users.token(actor.tokenId)
    if (!row) throw notFound()
    return row
  }
  const expiryFrom = (value: string | undefined, fallbackDays: number): string =>
    expiresAtParam(value) ?? addDays(today(ctx.clock), fallbackDays)
  /** Makes a token for `userId`; the answer carries it, the store only its digest. */
  const make = (
    userId: number,
    name: string,
    scopes: string[],
    expiresAt: string,
    description?: string,
  ): PersonalAccessTokenWithToken => {
    const { id, token } = issueToken(ctx, userId, { name, scopes, expiresAt, description })
    return { ...present(store.users.token(id)!), token }
  }
  /** `PersonalAccessTokens::RotateService`: the old token revoked, a new one with its name and scopes. */
  const rotate = (row: TokenRow, expiresAt: string | undefined): PersonalAccessTokenWithToken => {
    if (row.revoked === 1) throw badRequest('token already revoked')
    const expiry = expiryFrom(expiresAt, 7)
    return store.transaction(() => {
      store.users.revokeToken(row.id)
      return make(row.user_id, row.name, present(row).scopes, expiry)
    })
  }
  const revoke = (row: TokenRow) => {
    if (row.revoked === 1) throw badRequest('Not permitted to revoke')
    store.users.revokeToken(row.id)
  }

  return {
    /**
     * `POST /users/:user_id/personal_access_tokens` (administrators): `scopes` from GitLab's list;
     * without `expires_at`, the longest lifetime GitLab allows (365 days).
     */
    create(actor: Actor, userId: number, p: PersonalAccessTokenCreate): PersonalAccessTokenWithToken {
      requireUser(actor)
      if (!actor.admin) throw forbidden()
      const user = store.users.get(userId)
      if (!user) throw notFound('User')
      if (p.scopes.length === 0 || p.scopes.some((s) => !(TOKEN_SCOPES as readonly string[]).includes(s)))
        throw paramError('scopes does not have a valid value')
      return make(user.id, p.name, [...new Set(p.scopes)], expiryFrom(p.expires_at, 365), p.description)
    },

    /**
     * `POST /user/personal_access_tokens` (`lib/api/users.rb`): the caller's own, with the
     * `k8s_proxy` scope only, expiring tomorrow unless `expires_at` says; a date past the longest
     * lifetime is `PersonalAccessTokens::CreateService`'s 422 with the model's message.
     */
    createOwn(actor: Actor, p: OwnPersonalAccessTokenCreate): PersonalAccessTokenWithToken {
      const user = requireUser(actor)
      if (p.scopes.length === 0 || p.scopes.some((s) => !OWN_TOKEN_SCOPES.includes(s)))
        throw paramError('scopes does not have a valid value')
      const expiresAt = expiryFrom(p.expires_at, 1)
      const error = expiryError(ctx, expiresAt)
      if (error) throw messageError(422, `Expires at ${error}`)
      return make(user.id, p.name, [...new Set(p.scopes)], expiresAt, p.description)
    },

    /** `GET /personal_access_tokens`: the caller's own; an administrator's every user's, or `user_id`'s. */
    list(actor: Actor, q: PersonalAccessTokenListQuery): PageOut<PersonalAccessToken> {
      const user = requireUser(actor)
      let owner: number | undefined = user.id
      if (actor.admin) {
        if (q.user_id !== undefined && !store.users.get(q.user_id)) throw notFound()
        owner = q.user_id
      } else if (q.user_id !== undefined && q.user_id !== user.id) throw unauthorized()
      // Non-administrators' lists leave out their impersonation tokens (`impersonation: false`).
      const rows = store.users.tokens(owner).filter((row) => actor.admin || row.impersonation === 0)
      return mapPage(slicePage(rows, pageOf(q)), present)
    },

    /** `GET /personal_access_tokens/self`: the token the request carries. */
    self: (actor: Actor) => present(selfToken(actor)),

    /** `GET /personal_access_tokens/:id`: 404 for one the caller may not read. */
    get: (actor: Actor, id: number) => present(mine(actor, id)),

    /** `DELETE /personal_access_tokens/:id`: 404 for one the caller may not see, 400 for one revoked already. */
    revoke(actor: Actor, id: number): void {
      requireUser(actor)
      const row = store.users.token(id)
      if (!row) throw recordNotFound()
      if (!owns(actor, row) && !actor.admin) throw badRequest('Not permitted to revoke')
      revoke(row)
    },

    /** `DELETE /personal_access_tokens/self`. */
    revokeSelf: (actor: Actor) => revoke(selfToken(actor)),

    /** `POST /personal_access_tokens/:id/rotate`: a new token expiring in a week unless `expires_at` says. */
    rotate: (actor: Actor, id: number, expiresAt: string | undefined) => rotate(mine(actor, id), expiresAt),

    /** `POST /personal_access_tokens/self/rotate`. */
    rotateSelf: (actor: Actor, expiresAt: string | undefined) => rotate(selfToken(actor), expiresAt),
  }
}
export type PersonalAccessTokenService = ReturnType<typeof personalAccessTokenService>
