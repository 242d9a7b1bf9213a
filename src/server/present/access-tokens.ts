import type { ImpersonationToken, PersonalAccessToken, ResourceAccessToken } from '../../schema/index.js'
import type { BotTokenRow } from '../store/access-tokens.js'
import type { TokenRow } from '../store/users.js'

/** Whether a token's `expires_at` has come at `now` (ISO time): it expires at the start of that day. */
export const tokenExpired = (row: TokenRow, now: string) => row.expires_at !== null && row.expires_at <= now

/** `Entities::PersonalAccessToken`; a seeded token (no scopes stored) has `api`. */
export function presentToken(row: TokenRow, now: string): PersonalAccessToken {
  return {
    id: row.id,
    name: row.name,
    revoked: row.revoked === 1,
    created_at: row.created_at,
    description: row.description,
    scopes: row.scopes === null ? ['api'] : (JSON.parse(row.scopes) as string[]),
    user_id: row.user_id,
    last_used_at: row.last_used_at,
    active: row.revoked === 0 && !tokenExpired(row, now),
    expires_at: row.expires_at?.slice(0, 10) ?? null,
  }
}

/**
 * `Entities::ImpersonationToken`. `last_used_ips` is always empty: the server keeps no addresses
 * (GitLab's `personal_access_token_last_used_ips`).
 */
export const presentImpersonationToken = (row: TokenRow, now: string): ImpersonationToken => ({
  ...presentToken(row, now),
  last_used_ips: [],
  impersonation: row.impersonation === 1,
})

/** `Entities::ResourceAccessToken`: the bot's level in its project or group. */
export const presentResourceToken = (
  row: BotTokenRow,
  resource: { type: 'project' | 'group'; id: number },
  now: string,
): ResourceAccessToken => ({
  ...presentToken(row, now),
  last_used_ips: [],
  access_level: row.access_level,
  resource_type: resource.type,
  resource_id: resource.id,
})
