/*
 * Impersonation tokens (`lib/api/users.rb`, administrators) and project and group access tokens
 * (`lib/api/resource_access_tokens.rb`). Shapes come from src/schema.
 */
import {
  ImpersonationToken,
  ImpersonationTokenWithToken,
  ResourceAccessToken,
  ResourceAccessTokenWithToken,
  type ImpersonationTokenCreate,
  type ImpersonationTokenListQuery,
  type ResourceAccessTokenCreate,
  type ResourceAccessTokenListQuery,
} from '../schema/access-token.js'
import type { PersonalAccessTokenRotate } from '../schema/personal-access-token.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Options of `impersonation.list`: a paginated read and `state` (`all`, `active`, `inactive`). */
export interface ImpersonationTokenListOptions
  extends Omit<PageOptions, 'item'>, Pick<ImpersonationTokenListQuery, 'state'> {}

/** Options of a project's or group's `list`: a paginated read and `state` (`active`, `inactive`). */
export interface ResourceAccessTokenListOptions
  extends Omit<PageOptions, 'item'>, Pick<ResourceAccessTokenListQuery, 'state'> {}

/**
 * A project's or group's access tokens (`kind` `projects` or `groups`; `id` a number or full path).
 * Maintainers of a project, owners of a group; a token signs in as its bot user.
 */
const resourceTokens = (http: Http, kind: 'projects' | 'groups') => ({
  /** `GET /:kind/:id/access_tokens`, lazily; 401 for those who may not manage them. */
  list: (id: number | string, options: ResourceAccessTokenListOptions = {}) => {
    const { state, ...rest } = options
    return http.paginate<ResourceAccessToken>(path`/${kind}/${id}/access_tokens`, {
      ...rest,
      query: { ...rest.query, state },
      item: ResourceAccessToken,
    })
  },
  /** `GET /:kind/:id/access_tokens/:token_id`. */
  get: (id: number | string, tokenId: number, options: CallOptions = {}) =>
    http.request('GET', path`/${kind}/${id}/access_tokens/${tokenId}`, {
      ...options,
      response: ResourceAccessToken,
    }),
  /** `POST /:kind/:id/access_tokens` -> 201: a bot user at `access_level` (default 40); `expires_at` a year. */
  create: (id: number | string, body: ResourceAccessTokenCreate, options: CallOptions = {}) =>
    http.request('POST', path`/${kind}/${id}/access_tokens`, {
      ...options,
      json: body,
      response: ResourceAccessTokenWithToken,
    }),
  /** `DELETE /:kind/:id/access_tokens/:token_id` -> 204: the token stops working, its bot user goes. */
  revoke: (id: number | string, tokenId: number, options: CallOptions = {}) =>
    http.request<void>('DELETE', path`/${kind}/${id}/access_tokens/${tokenId}`, options),
  /** `POST /:kind/:id/access_tokens/:token_id/rotate`: a new token (a week unless `expires_at`). */
  rotate: (
    id: number | string,
    tokenId: number,
    body: PersonalAccessTokenRotate = {},
    options: CallOptions = {},
  ) =>
    http.request('POST', path`/${kind}/${id}/access_tokens/${tokenId}/rotate`, {
      ...options,
      json: body,
      response: ResourceAccessTokenWithToken,
    }),
})

/** The access tokens group of the client: `impersonation`, `project` and `group` tokens. */
export const accessTokens = (http: Http) => ({
  /** A user's impersonation tokens (administrators; others 403). */
  impersonation: {
    /** `GET /users/:user_id/impersonation_tokens`, lazily. */
    list: (userId: number, options: ImpersonationTokenListOptions = {}) => {
      const { state, ...rest } = options
      return http.paginate<ImpersonationToken>(path`/users/${userId}/impersonation_tokens`, {
        ...rest,
        query: { ...rest.query, state },
        item: ImpersonationToken,
      })
    },
    /** `GET /users/:user_id/impersonation_tokens/:id`. */
    get: (userId: number, id: number, options: CallOptions = {}) =>
      http.request('GET', path`/users/${userId}/impersonation_tokens/${id}`, {
        ...options,
        response: ImpersonationToken,
      }),
    /** `POST /users/:user_id/impersonation_tokens` -> 201: `scopes` and `expires_at` are required by the model. */
    create: (userId: number, body: ImpersonationTokenCreate, options: CallOptions = {}) =>
      http.request('POST', path`/users/${userId}/impersonation_tokens`, {
        ...options,
        json: body,
        response: ImpersonationTokenWithToken,
      }),
    /** `DELETE /users/:user_id/impersonation_tokens/:id` -> 204. */
    revoke: (userId: number, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/users/${userId}/impersonation_tokens/${id}`, options),
  },
  project: resourceTokens(http, 'projects'),
  group: resourceTokens(http, 'groups'),
})
/** The type of `client.accessTokens`. */
export type AccessTokensApi = ReturnType<typeof accessTokens>
