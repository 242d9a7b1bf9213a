import { Type } from '@sinclair/typebox'
import {
  OwnPersonalAccessTokenCreate,
  PersonalAccessToken,
  PersonalAccessTokenCreate,
  PersonalAccessTokenListQuery,
  PersonalAccessTokenRotate,
  PersonalAccessTokenWithToken,
} from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import type { ApiContext } from './context.js'

const TokenPath = Type.Object({ id: Type.Integer() })

/**
 * Personal access tokens (services/personal-access-tokens.ts; `lib/api/personal_access_tokens.rb`,
 * and `lib/api/users.rb` for an administrator's `POST /users/:user_id/personal_access_tokens`).
 * Every call authenticates.
 */
export function personalAccessTokenRoutes(api: ApiContext): void {
  const { route } = api
  const { personalAccessTokens: tokens } = api.services

  route(
    {
      method: 'POST',
      url: '/api/v4/users/:user_id/personal_access_tokens',
      summary:
        "Create a user's personal access token (administrators); the answer is the only one to show it",
      auth: 'required',
      pathParams: Type.Object({ user_id: Type.Integer() }),
      input: PersonalAccessTokenCreate,
      response: { 201: PersonalAccessTokenWithToken },
    },
    (h) => h.reply.code(201).send(tokens.create(h.actor, h.path.user_id, h.params)),
  )

  if (applies(api.instance.version, 'ownPersonalAccessToken'))
    route(
      {
        method: 'POST',
        url: '/api/v4/user/personal_access_tokens',
        summary: "Create the caller's own personal access token (k8s_proxy scope only); shown once",
        auth: 'required',
        input: OwnPersonalAccessTokenCreate,
        response: { 201: PersonalAccessTokenWithToken },
      },
      (h) => h.reply.code(201).send(tokens.createOwn(h.actor, h.params)),
    )

  route(
    {
      method: 'GET',
      url: '/api/v4/personal_access_tokens',
      summary: "List the caller's personal access tokens (administrators: anyone's, or user_id's)",
      auth: 'required',
      input: PersonalAccessTokenListQuery,
      response: { 200: Type.Array(PersonalAccessToken) },
    },
    (h) => h.sendPage(tokens.list(h.actor, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/personal_access_tokens/self',
      summary: 'The personal access token the request carries',
      auth: 'required',
      response: { 200: PersonalAccessToken },
    },
    (h) => tokens.self(h.actor),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/personal_access_tokens/:id',
      summary: 'Read a personal access token (its owner, or administrators)',
      auth: 'required',
      pathParams: TokenPath,
      response: { 200: PersonalAccessToken },
    },
    (h) => tokens.get(h.actor, h.path.id),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/personal_access_tokens/self',
      summary: 'Revoke the personal access token the request carries',
      auth: 'required',
      response: { 204: Type.Null() },
    },
    (h) => {
      tokens.revokeSelf(h.actor)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/personal_access_tokens/:id',
      summary: 'Revoke a personal access token (its owner, or administrators)',
      auth: 'required',
      pathParams: TokenPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      tokens.revoke(h.actor, h.path.id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/personal_access_tokens/self/rotate',
      summary: 'Rotate the personal access token the request carries: it is revoked, a new one answered',
      auth: 'required',
      input: PersonalAccessTokenRotate,
      response: { 200: PersonalAccessTokenWithToken },
    },
    (h) => tokens.rotateSelf(h.actor, h.params.expires_at),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/personal_access_tokens/:id/rotate',
      summary: 'Rotate a personal access token (its owner, or administrators)',
      auth: 'required',
      pathParams: TokenPath,
      input: PersonalAccessTokenRotate,
      response: { 200: PersonalAccessTokenWithToken },
    },
    (h) => tokens.rotate(h.actor, h.path.id, h.params.expires_at),
  )
}
