import { randomBytes } from 'node:crypto'
import type {
  ResourceAccessToken,
  ResourceAccessTokenCreate,
  ResourceAccessTokenListQuery,
  ResourceAccessTokenWithToken,
} from '../../schema/index.js'
import { isoNow, today } from '../domain/clock.js'
import { TOKEN_SCOPES } from '../domain/token-scopes.js'
import { badRequest, notFound, paramError, unauthorized } from '../grape/gitlab-errors.js'
import { pageOf, type PageOut } from '../grape/pagination.js'
import { presentResourceToken } from '../present/access-tokens.js'
import type { BotTokenRow } from '../store/access-tokens.js'
import type { MemberSource } from '../store/members.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { removals } from './removals.js'
import { addDays, defaultExpiry, expiresAtParam, expiryError, issueToken } from './token-issue.js'

/** `project` or `group`, as the routes and GitLab's messages name them. */
export type ResourceType = 'project' | 'group'

/** `Gitlab::Auth.resource_bot_scopes`: every scope but the user and administrator ones. */
const BOT_SCOPES = TOKEN_SCOPES.filter(
  (s) => !['read_user', 'read_service_ping', 'admin_mode', 'sudo'].includes(s),
) as readonly string[]

/** `Gitlab::Access.options_with_owner`: the levels a token may have. */
const LEVELS = Object.values(Level) as readonly number[]

/**
 * Project and group access tokens (`lib/api/resource_access_tokens.rb`,
 * `app/services/resource_access_tokens/create_service.rb` and `revoke_service.rb`). A token signs in
 * as a bot user made for it (`project_<id>_bot_<hex>`, a member of the resource at the token's
 * `access_level`). Maintainers of a project and owners of a group (and administrators) manage them.
 */
export function resourceAccessTokenService(ctx: ServiceContext) {
  const { store, access } = ctx

  /** The resource (404 as `find_project!`/`find_group!`), its member source and the caller's level. */
  const resourceOf = (actor: Actor, type: ResourceType, ref: string) => {
    if (!actor.user) throw unauthorized()
    if (type === 'project') {
      const project = access.project(actor, ref)
      const level = actor.admin ? Level.owner : access.projectLevel(actor, project)
      return { type, id: project.id, source: 'project' as MemberSource, level, manager: Level.maintainer }
    }
    const group = access.group(actor, ref)
    const level = actor.admin ? Level.owner : access.groupLevel(actor, group)
    return { type, id: group.id, source: 'namespace' as MemberSource, level, manager: Level.owner }
  }
  type Resource = ReturnType<typeof resourceOf>
  const canManage = (r: Resource) => r.level >= r.manager
  /** `create_`/`manage_resource_access_tokens`: as `canManage`, but never for a bot (`project_bot_access`). */
  const canCreate = (actor: Actor, r: Resource) => canManage(r) && !store.accessTokens.botOf(actor.user!.id)
  const present = (row: BotTokenRow, r: Resource) => presentResourceToken(row, r, isoNow(ctx.clock))
  const find = (r: Resource, id: number) => store.accessTokens.botToken(r.source, r.id, id)
  const removeBots = removals(ctx).bots

  return {
    /** `GET /:type/:id/access_tokens`: 401 for those who may not manage them. */
    list(
      actor: Actor,
      type: ResourceType,
      ref: string,
      q: ResourceAccessTokenListQuery,
    ): PageOut<ResourceAccessToken> {
      const r = resourceOf(actor, type, ref)
      if (!canManage(r)) throw unauthorized()
      const page = pageOf(q)
      const { rows, total } = store.accessTokens.botTokens(
        r.source,
        r.id,
        q.state ?? 'all',
        isoNow(ctx.clock),
        page.perPage,
        page.offset,
      )
      return { items: rows.map((row) => present(row, r)), page, total }
    },

    /** `GET /:type/:id/access_tokens/:token_id`: 401 for those who may not manage them, then 404. */
    get(actor: Actor, type: ResourceType, ref: string, id: number): ResourceAccessToken {
      const r = resourceOf(actor, type, ref)
      if (!canManage(r)) throw unauthorized()
      const row = find(r, id)
      if (!row) throw notFound(`${type} Access Token`)
      return present(row, r)
    },

    /**
     * `POST /:type/:id/access_tokens`: a bot user, its membership and its token, in one
     * transaction. 400 `User does not have permission to create <type> access token` below
     * Maintainer (projects) or Owner (groups), and for bots; 400 for a level above the caller's own; `expires_at`
     * defaults to a year and may be no later from 16.0 (`defaultExpiry`), before it none.
     */
    create(
      actor: Actor,
      type: ResourceType,
      ref: string,
      p: ResourceAccessTokenCreate,
    ): ResourceAccessTokenWithToken {
      const r = resourceOf(actor, type, ref)
      const level = p.access_level ?? Level.maintainer
      if (!LEVELS.includes(level)) throw paramError('access_level does not have a valid value')
      if (p.scopes.length === 0 || p.scopes.some((s) => !BOT_SCOPES.includes(s)))
        throw paramError('scopes does not have a valid value')
      const expiresAt = expiresAtParam(p.expires_at) ?? defaultExpiry(ctx)
      if (!canCreate(actor, r))
        throw badRequest(`User does not have permission to create ${type} access token`)
      if (level > r.level)
        throw badRequest('Access level of the token contains permissions not held by the creating user')
      const error = expiryError(ctx, expiresAt)
      if (error) throw badRequest(`Expires at ${error}`)
      const now = isoNow(ctx.clock)
      const username = `${type}_${r.id}_bot_${randomBytes(16).toString('hex')}`
      const host = new URL(ctx.instance.baseUrl).hostname
      const id = store.transaction(() => {
        const botId = store.users.insert({
          username,
          name: p.name,
          email: `${username}@noreply.${host}`,
          admin: false,
          created_at: now,
        })
        store.accessTokens.addBot(botId, r.source, r.id)
        store.members.set(r.source, r.id, botId, level, now)
        return issueToken(ctx, botId, {
          name: p.name,
          scopes: [...new Set(p.scopes)],
          expiresAt,
          description: p.description,
        })
      })
      return { ...present(find(r, id.id)!, r), token: id.token }
    },

    /**
     * `DELETE /:type/:id/access_tokens/:token_id`: 404 first, then 400 `<caller> cannot delete
     * <bot>` for those who may not; the token is revoked and its bot user deleted (GitLab schedules
     * `DeleteUserWorker`; here it goes at once, its contributions to the Ghost User).
     */
    revoke(actor: Actor, type: ResourceType, ref: string, id: number): void {
      const r = resourceOf(actor, type, ref)
      const row = find(r, id)
      if (!row) throw notFound(`${type} Access Token`)
      const bot = store.users.get(row.user_id)!
      if (!canManage(r)) throw badRequest(`${actor.user!.name} cannot delete ${bot.name}`)
      store.transaction(() => {
        store.users.revokeToken(row.id)
        removeBots([bot.id])
      })
    },

    /**
     * `POST /:type/:id/access_tokens/:token_id/rotate`: the token revoked and a new one for the
     * same bot, name and scopes, expiring in a week unless `expires_at` says. A token the caller
     * may not manage (a bot never may: it rotates itself through `personal_access_tokens/self`), or
     * none, is 401 (404 for administrators); a revoked one 400.
     */
    rotate(
      actor: Actor,
      type: ResourceType,
      ref: string,
      id: number,
      expires?: string,
    ): ResourceAccessTokenWithToken {
      const r = resourceOf(actor, type, ref)
      const row = canCreate(actor, r) ? find(r, id) : undefined
      if (!row) throw actor.admin ? notFound() : unauthorized()
      if (row.revoked === 1) throw badRequest('token already revoked')
      const expiresAt = expiresAtParam(expires) ?? addDays(today(ctx.clock), 7)
      const error = expiryError(ctx, expiresAt)
      if (error) throw badRequest(`Expires at ${error}`)
      const made = store.transaction(() => {
        store.users.revokeToken(row.id)
        return issueToken(ctx, row.user_id, {
          name: row.name,
          scopes: row.scopes === null ? ['api'] : (JSON.parse(row.scopes) as string[]),
          expiresAt,
          description: row.description ?? undefined,
        })
      })
      return { ...present(find(r, made.id)!, r), token: made.token }
    },
  }
}
export type ResourceAccessTokenService = ReturnType<typeof resourceAccessTokenService>
