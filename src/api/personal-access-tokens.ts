/*
 * Personal access tokens (`lib/api/personal_access_tokens.rb`; an administrator's
 * `POST /users/:user_id/personal_access_tokens` from `lib/api/users.rb`). Shapes come from src/schema.
 */
import {
  PersonalAccessToken,
  PersonalAccessTokenWithToken,
  type PersonalAccessTokenCreate,
  type PersonalAccessTokenRotate,
} from '../schema/personal-access-token.js'
import type { OwnPersonalAccessTokenCreate } from '../schema/access-token.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Options of `list`: a paginated read, and (administrators) whose tokens. */
export interface PersonalAccessTokenListOptions extends Omit<PageOptions, 'item'> {
  user_id?: number
}

/**
 * The personal access tokens group of the client. A token is its owner's and administrators' (others
 * get 404); `token` is in the answer only when one is made or rotated.
 */
export const personalAccessTokens = (http: Http) => ({
  /** `POST /users/:user_id/personal_access_tokens` -> 201 (administrators); `expires_at` defaults to a year. */
  create: (userId: number, body: PersonalAccessTokenCreate, options: CallOptions = {}) =>
    http.request('POST', path`/users/${userId}/personal_access_tokens`, {
      ...options,
      json: body,
      response: PersonalAccessTokenWithToken,
    }),
  /** `POST /user/personal_access_tokens` -> 201: the caller's own, `k8s_proxy` scope only, expiring tomorrow by default. */
  createOwn: (body: OwnPersonalAccessTokenCreate, options: CallOptions = {}) =>
    http.request('POST', '/user/personal_access_tokens', {
      ...options,
      json: body,
      response: PersonalAccessTokenWithToken,
    }),
  /** `GET /personal_access_tokens`, lazily: the caller's own (administrators: everyone's, or `user_id`'s). */
  list: (options: PersonalAccessTokenListOptions = {}) => {
    const { user_id, ...rest } = options
    return http.paginate<PersonalAccessToken>('/personal_access_tokens', {
      ...rest,
      query: { ...rest.query, user_id },
      item: PersonalAccessToken,
    })
  },
  /** `GET /personal_access_tokens/self`: the token the client signs in with. */
  self: (options: CallOptions = {}) =>
    http.request('GET', '/personal_access_tokens/self', { ...options, response: PersonalAccessToken }),
  /** `GET /personal_access_tokens/:id`. */
  get: (id: number, options: CallOptions = {}) =>
    http.request('GET', path`/personal_access_tokens/${id}`, { ...options, response: PersonalAccessToken }),
  /** `DELETE /personal_access_tokens/:id` -> 204: the token stops authenticating at once. */
  revoke: (id: number, options: CallOptions = {}) =>
    http.request<void>('DELETE', path`/personal_access_tokens/${id}`, options),
  /** `DELETE /personal_access_tokens/self` -> 204: the client's own token, after which it cannot sign in. */
  revokeSelf: (options: CallOptions = {}) =>
    http.request<void>('DELETE', '/personal_access_tokens/self', options),
  /** `POST /personal_access_tokens/:id/rotate`: the old token revoked, a new one (a week unless `expires_at`). */
  rotate: (id: number, body: PersonalAccessTokenRotate = {}, options: CallOptions = {}) =>
    http.request('POST', path`/personal_access_tokens/${id}/rotate`, {
      ...options,
      json: body,
      response: PersonalAccessTokenWithToken,
    }),
  /** `POST /personal_access_tokens/self/rotate`. */
  rotateSelf: (body: PersonalAccessTokenRotate = {}, options: CallOptions = {}) =>
    http.request('POST', '/personal_access_tokens/self/rotate', {
      ...options,
      json: body,
      response: PersonalAccessTokenWithToken,
    }),
})
/** The type of `client.personalAccessTokens`. */
export type PersonalAccessTokensApi = ReturnType<typeof personalAccessTokens>
