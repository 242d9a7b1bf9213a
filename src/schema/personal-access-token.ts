import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp } from './common.js'
import { csvParam } from './params.js'

/** `Entities::PersonalAccessToken` (`lib/api/entities/personal_access_token.rb`). */
export const PersonalAccessToken = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    revoked: Type.Boolean(),
    created_at: Timestamp,
    description: Nullable(Type.String()),
    scopes: Type.Array(Type.String()),
    user_id: Type.Integer(),
    last_used_at: Nullable(Timestamp),
    active: Type.Boolean(),
    expires_at: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  },
  { title: 'PersonalAccessToken' },
)
export type PersonalAccessToken = Static<typeof PersonalAccessToken>

/** `Entities::PersonalAccessTokenWithToken`: the token itself, shown once, when made or rotated. */
export const PersonalAccessTokenWithToken = Type.Object(
  { ...PersonalAccessToken.properties, token: Type.String() },
  { title: 'PersonalAccessTokenWithToken' },
)
export type PersonalAccessTokenWithToken = Static<typeof PersonalAccessTokenWithToken>

/** `POST /users/:user_id/personal_access_tokens` (administrators). */
export const PersonalAccessTokenCreate = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  scopes: csvParam(),
  expires_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
})
export type PersonalAccessTokenCreate = Static<typeof PersonalAccessTokenCreate>

/** `POST /personal_access_tokens/:id/rotate` and `self/rotate`. */
export const PersonalAccessTokenRotate = Type.Object({
  expires_at: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
})
export type PersonalAccessTokenRotate = Static<typeof PersonalAccessTokenRotate>

/** `GET /personal_access_tokens`: an administrator's `user_id` names whose. */
export const PersonalAccessTokenListQuery = Type.Object({
  user_id: Type.Optional(Type.Integer()),
  ...PageQuery.properties,
})
export type PersonalAccessTokenListQuery = Static<typeof PersonalAccessTokenListQuery>
