import { randomBytes } from 'node:crypto'
import { calendarDate } from '../domain/calendar-date.js'
import { isoNow, today } from '../domain/clock.js'
import { applies } from '../domain/releases.js'
import { paramError } from '../grape/gitlab-errors.js'
import { parseRubyDateTime } from '../grape/ruby-date-time.js'
import type { ServiceContext } from './context.js'

/** `glpat-` and 20 characters, as GitLab's `PersonalAccessToken` makes them. */
export const newToken = () => `glpat-${randomBytes(15).toString('base64url')}`

/** A date `days` after `date` (`YYYY-MM-DD`). */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** `PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS`. */
export const MAX_LIFETIME_DAYS = 365

/**
 * Grape's `type: Date` (Ruby's `Date.parse`): a given `expires_at` as `YYYY-MM-DD`, the date as written
 * of a date-time too (go-gitlab sends `2026-04-01T10:00:00.123Z`), 400 `expires_at is invalid` for none.
 */
export function expiresAtParam(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const date = calendarDate(value) ?? parseRubyDateTime(value)?.text.slice(0, 10)
  if (!date) throw paramError('expires_at is invalid')
  return date
}

/**
 * The first model error of a token's `expires_at` (`PersonalAccessToken`'s
 * `expires_at_before_instance_max_expiry_date`): `must be before <today + 365 days>`, or undefined.
 */
export function expiryError(ctx: ServiceContext, date: string | null): string | undefined {
  if (date === null || !applies(ctx.instance.version, 'tokenExpiryRequired')) return undefined
  const max = addDays(today(ctx.clock), MAX_LIFETIME_DAYS)
  return date > max ? `must be before ${max}` : undefined
}

/**
 * `expires_at` of a new project, group or impersonation token when none is given: the longest
 * lifetime where tokens must expire (16.0 on), else none.
 */
export const defaultExpiry = (ctx: ServiceContext): string | null =>
  applies(ctx.instance.version, 'tokenExpiryRequired') ? addDays(today(ctx.clock), MAX_LIFETIME_DAYS) : null

/**
 * Makes a token for `userId` with its details: the id and the token, which is answered once;
 * the store keeps its digest.
 */
export function issueToken(
  ctx: ServiceContext,
  userId: number,
  p: {
    name: string
    scopes: string[]
    expiresAt: string | null
    impersonation?: boolean
    description?: string
  },
): { id: number; token: string } {
  const token = newToken()
  const id = ctx.store.users.addToken(userId, token, p.name, isoNow(ctx.clock), p)
  return { id, token }
}
