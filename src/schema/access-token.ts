import { Type, type Static } from '@sinclair/typebox'
import { PageQuery } from './common.js'
import { csvParam } from './params.js'
import { PersonalAccessToken } from './personal-access-token.js'

/** `Entities::PersonalAccessTokenWithLastUsedIps`: the addresses are not recorded here, so always empty. */
const WithLastUsedIps = { ...PersonalAccessToken.properties, last_used_ips: Type.Array(Type.String()) }

/** `Entities::ImpersonationToken` (`lib/api/entities/impersonation_token.rb`). */
export const ImpersonationToken = Type.Object(
  { ...WithLastUsedIps, impersonation: Type.Boolean() },
  { title: 'ImpersonationToken' },
)
export type ImpersonationToken = Static<typeof ImpersonationToken>

/** `Entities::ImpersonationTokenWithToken`: the token itself, shown once, when made. */
export const ImpersonationTokenWithToken = Type.Object(
  { ...ImpersonationToken.properties, token: Type.String() },
  { title: 'ImpersonationTokenWithToken' },
)
export type ImpersonationTokenWithToken = Static<typeof ImpersonationTokenWithToken>

/** `Entities::ResourceAccessToken` (`lib/api/entities/resource_access_token.rb`): a project or group access token. */
export const ResourceAccessToken = Type.Object(
  {
    ...WithLastUsedIps,
    access_level: Type.Integer(),
    resource_type: Type.Union([Type.Literal('project'), Type.Literal('group')]),
    resource_id: Type.Integer(),
  },
  { title: 'ResourceAccessToken' },
)
export type ResourceAccessToken = Static<typeof ResourceAccessToken>

/** `Entities::ResourceAccessTokenWithToken`: the token itself, shown once, when made or rotated. */
export const ResourceAccessTokenWithToken = Type.Object(
  { ...ResourceAccessToken.properties, token: Type.String() },
  { title: 'ResourceAccessTokenWithToken' },
)
export type ResourceAccessTokenWithToken = Static<typeof ResourceAccessTokenWithToken>

/** The `state` filter of token lists (`PersonalAccessTokensFinder`). */
const TokenState = Type.Union([Type.Literal('all'), Type.Literal('active'), Type.Literal('inactive')])

/** `GET /users/:user_id/impersonation_tokens`: `state` defaults to `all`. */
export const ImpersonationTokenListQuery = Type.Object({
  ...PageQuery.properties,
  state: Type.Optional(Type.Union(TokenState.anyOf, { default: 'all' })),
})
export type ImpersonationTokenListQuery = Static<typeof ImpersonationTokenListQuery>

/** `POST /users/:user_id/impersonation_tokens` (administrators). */
export const ImpersonationTokenCreate = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  expires_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  scopes: Type.Optional(csvParam()),
})
export type ImpersonationTokenCreate = Static<typeof ImpersonationTokenCreate>

/** `GET /projects/:id/access_tokens` and `/groups/:id/access_tokens`. */
export const ResourceAccessTokenListQuery = Type.Object({
  ...PageQuery.properties,
  state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])),
})
export type ResourceAccessTokenListQuery = Static<typeof ResourceAccessTokenListQuery>

/** `POST /projects/:id/access_tokens` and `/groups/:id/access_tokens`: `access_level` defaults to 40. */
export const ResourceAccessTokenCreate = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  scopes: csvParam(),
  expires_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  access_level: Type.Optional(Type.Integer({ default: 40 })),
})
export type ResourceAccessTokenCreate = Static<typeof ResourceAccessTokenCreate>

/** `POST /user/personal_access_tokens`: the caller's own, `k8s_proxy` only; expires tomorrow by default. */
export const OwnPersonalAccessTokenCreate = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  scopes: csvParam(),
  expires_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
})
export type OwnPersonalAccessTokenCreate = Static<typeof OwnPersonalAccessTokenCreate>
