import { Type } from '@sinclair/typebox'
import {
  ImpersonationToken,
  ImpersonationTokenCreate,
  ImpersonationTokenListQuery,
  ImpersonationTokenWithToken,
  PageQuery,
  PersonalAccessTokenRotate,
  ResourceAccessToken,
  ResourceAccessTokenCreate,
  ResourceAccessTokenListQuery,
  ResourceAccessTokenWithToken,
} from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const UserPath = Type.Object({ user_id: Type.Integer() })
const ImpersonationTokenPath = Type.Object({
  user_id: Type.Integer(),
  impersonation_token_id: Type.Integer(),
})
/** `:token_id` is a String in GitLab: one that names no token (digits or not) is a 404. */
const ResourceTokenPath = Type.Object({ id: Type.String(), token_id: Type.String() })
const tokenId = (text: string) => (/^\d+$/.test(text) ? Number(text) : -1)

/**
 * Impersonation tokens (`lib/api/users.rb`, administrators) and project and group access tokens
 * (`lib/api/resource_access_tokens.rb`): services/impersonation-tokens.ts and
 * services/resource-access-tokens.ts. Every call authenticates.
 */
export function accessTokenRoutes(api: ApiContext): void {
  const { route } = api
  const { impersonationTokens, resourceAccessTokens: resources } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/users/:user_id/impersonation_tokens',
      summary: "List a user's impersonation tokens (administrators)",
      auth: 'required',
      pathParams: UserPath,
      input: ImpersonationTokenListQuery,
      response: { 200: Type.Array(ImpersonationToken) },
    },
    (h) => h.sendPage(impersonationTokens.list(h.actor, h.path.user_id, h.params)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/users/:user_id/impersonation_tokens',
      summary: 'Create an impersonation token (administrators); the answer is the only one to show it',
      auth: 'required',
      pathParams: UserPath,
      input: ImpersonationTokenCreate,
      response: { 201: ImpersonationTokenWithToken },
    },
    (h) => h.reply.code(201).send(impersonationTokens.create(h.actor, h.path.user_id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/users/:user_id/impersonation_tokens/:impersonation_token_id',
      summary: 'Read an impersonation token (administrators)',
      auth: 'required',
      pathParams: ImpersonationTokenPath,
      response: { 200: ImpersonationToken },
    },
    (h) => impersonationTokens.get(h.actor, h.path.user_id, h.path.impersonation_token_id),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/users/:user_id/impersonation_tokens/:impersonation_token_id',
      summary: 'Revoke an impersonation token (administrators)',
      auth: 'required',
      pathParams: ImpersonationTokenPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      impersonationTokens.revoke(h.actor, h.path.user_id, h.path.impersonation_token_id)
      return h.reply.code(204).send()
    },
  )

  const version = api.instance.version
  const types = (['project', 'group'] as const).filter((type) =>
    applies(version, type === 'project' ? 'projectAccessTokensApi' : 'groupAccessTokensApi'),
  )
  for (const type of types) {
    const base = `/api/v4/${type}s/:id/access_tokens`
    route(
      {
        method: 'GET',
        url: base,
        summary: `List a ${type}'s access tokens`,
        auth: 'required',
        pathParams: IdPath,
        input: applies(version, 'accessTokenStateFilter') ? ResourceAccessTokenListQuery : PageQuery,
        response: { 200: Type.Array(ResourceAccessToken) },
      },
      (h) => h.sendPage(resources.list(h.actor, type, h.path.id, h.params as ResourceAccessTokenListQuery)),
    )

    route(
      {
        method: 'POST',
        url: base,
        summary: `Create a ${type} access token and its bot user; the answer is the only one to show it`,
        auth: 'required',
        pathParams: IdPath,
        input: ResourceAccessTokenCreate,
        response: { 201: ResourceAccessTokenWithToken },
      },
      (h) => h.reply.code(201).send(resources.create(h.actor, type, h.path.id, h.params)),
    )

    route(
      {
        method: 'GET',
        url: `${base}/:token_id`,
        summary: `Read a ${type} access token`,
        auth: 'required',
        pathParams: ResourceTokenPath,
        response: { 200: ResourceAccessToken },
      },
      (h) => resources.get(h.actor, type, h.path.id, tokenId(h.path.token_id)),
    )

    route(
      {
        method: 'DELETE',
        url: `${base}/:token_id`,
        summary: `Revoke a ${type} access token; its bot user goes`,
        auth: 'required',
        pathParams: ResourceTokenPath,
        response: { 204: Type.Null() },
      },
      (h) => {
        resources.revoke(h.actor, type, h.path.id, tokenId(h.path.token_id))
        return h.reply.code(204).send()
      },
    )

    if (!applies(version, 'accessTokenRotate')) continue
    route(
      {
        method: 'POST',
        url: `${base}/:token_id/rotate`,
        summary: `Rotate a ${type} access token: it is revoked, a new one answered`,
        auth: 'required',
        pathParams: ResourceTokenPath,
        input: PersonalAccessTokenRotate,
        response: { 200: ResourceAccessTokenWithToken },
      },
      (h) => resources.rotate(h.actor, type, h.path.id, tokenId(h.path.token_id), h.params.expires_at),
    )
  }
}
