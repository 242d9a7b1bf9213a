import { randomBytes } from 'node:crypto'
import type {
  PersonalAccessToken,
  PersonalAccessTokenCreate,
  PersonalAccessTokenListQuery,
  PersonalAccessTokenWithToken,
} from '../../schema/index.js'
import { calendarDate } from '../domain/calendar-date.js'
import { isoNow, today } from '../domain/clock.js'
import { TOKEN_SCOPES } from '../domain/token-scopes.js'
import {
  badRequest,
  forbidden,
  notFound,
  paramError,
  recordNotFound,
  unauthorized,
} from '../grape/gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import type { TokenRow } from '../store/users.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'

/** `glpat-` and 20 characters, as GitLab's `PersonalAccessToken` makes them. */
const newToken = () => `glpat-${randomBytes(15).toString('base64url')}`

/** A date `days` after `date` (`YYYY-MM-DD`). */
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** Whether a token's `expires_at` has come (it expires at the start of that day, as GitLab compares it). */
const expired = (row: TokenRow, now: string) => row.expires_at !== null && row.expires_at <= now

/**
 * Personal access tokens (`lib/api/personal_access_tokens.rb`, `lib/api/users.rb`): administrators
 * make them for any user; everyone lists, reads, revokes and rotates their own (administrators
 * anyone's). A token made here authenticates at once, with its scopes; it is stored as its digest.
 */
export function personalAccessTokenService(ctx: ServiceContext) {
  const { store } = ctx

  const present = (row: TokenRow): PersonalAccessToken => ({
    id: row.id,
    name: row.name,
    revoked: row.revoked === 1,
    created_at: row.created_at,
    description: null,
    scopes: row.scopes === null ? ['api'] : (JSON.parse(row.scopes) as string[]),
    user_id: row.user_id,
    last_used_at: row.last_used_at,
    active: row.revoked === 0 && !expired(row, isoNow(ctx.clock)),
    expires_at: row.expires_at?.slice(0, 10) ?? null,
  })
  const requireUser = (actor: Actor) => {
    if (!actor.user) throw unauthorized()
    return actor.user
  }
  /** A token the caller may manage: its own, or anyone's for an administrator; else 404, as GitLab hides it. */
  const mine = (actor: Actor, id: number): TokenRow => {
    const user = requireUser(actor)
    const row = store.users.token(id)
    if (!row || (row.user_id !== user.id && !actor.admin)) throw notFound()
    return row
  }
  const selfToken = (actor: Actor): TokenRow => {
    requireUser(actor)
    const row = actor.tokenId === null ? undefined : store.users.token(actor.tokenId)
    if (!row) throw notFound()
    return row
  }
  const expiryFrom = (value: string | undefined, fallbackDays: number): string => {
    if (value === undefined) return addDays(today(ctx.clock), fallbackDays)
    const date = calendarDate(value)
    if (!date) throw paramError('expires_at is invalid')
    return date
  }
  /** Makes a token for `userId`; the answer carries it, the store only its digest. */
  const make = (
    userId: number,
    name: string,
    scopes: string[],
    expiresAt: string,
  ): PersonalAccessTokenWithToken => {
    const token = newToken()
    const id = store.users.addToken(userId, token, name, isoNow(ctx.clock), { scopes, expiresAt })
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
      return make(user.id, p.name, [...new Set(p.scopes)], expiryFrom(p.expires_at, 365))
    },

    /** `GET /personal_access_tokens`: the caller's own; an administrator's every user's, or `user_id`'s. */
    list(actor: Actor, q: PersonalAccessTokenListQuery): PageOut<PersonalAccessToken> {
      const user = requireUser(actor)
      let owner: number | undefined = user.id
      if (actor.admin) {
        if (q.user_id !== undefined && !store.users.get(q.user_id)) throw notFound()
        owner = q.user_id
      } else if (q.user_id !== undefined && q.user_id !== user.id) throw unauthorized()
      return mapPage(slicePage(store.users.tokens(owner), pageOf(q)), present)
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
      if (row.user_id !== actor.user?.id && !actor.admin) throw badRequest('Not permitted to revoke')
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
