import { Type } from '@sinclair/typebox'
import {
  CurrentUser,
  Membership,
  UserProfile,
  type MembershipListQuery,
  type UserCreate,
  type UserDeleteQuery,
  type UserUpdate,
} from '../schema/user.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Options of `memberships`: a paginated read, and `type` (`Project` or `Namespace`). */
export interface MembershipListOptions
  extends Omit<PageOptions, 'item'>, Omit<MembershipListQuery, 'page' | 'per_page'> {}

/** What a state change answers: `true`, `false` when nothing changed (unblock, activate), `null` when it had (block, deactivate). */
const StateChange = Type.Union([Type.Boolean(), Type.Null()])

/**
 * The users group of the client. Writes are for administrators (403 `403 Forbidden` for others); an
 * unknown user is 404 `404 User Not Found`; a taken email or username 409, an invalid field 400
 * `{"message":{"email":["is invalid"]}}`.
 */
export const users = (http: Http) => {
  const state =
    (action: string) =>
    (id: number, options: CallOptions = {}) =>
      http.request('POST', path`/users/${id}/${action}`, { ...options, response: StateChange })
  return {
    /** `GET /user`: who the token belongs to. 401 `{"message":"401 Unauthorized"}` without a valid token. */
    current: (options: CallOptions = {}) =>
      http.request('GET', '/user', { ...options, response: CurrentUser }),
    /** `GET /users/:id`: administrators get the admin fields (`email`, `is_admin` ...). */
    get: (id: number, options: CallOptions = {}) =>
      http.request('GET', path`/users/${id}`, {
        ...options,
        response: Type.Union([CurrentUser, UserProfile]),
      }),
    /** `POST /users` -> 201 (administrators): `password`, or `reset_password` / `force_random_password`. */
    create: (body: UserCreate, options: CallOptions = {}) =>
      http.request('POST', '/users', { ...options, json: body, response: CurrentUser }),
    /** `PUT /users/:id` (administrators). */
    update: (id: number, body: UserUpdate, options: CallOptions = {}) =>
      http.request('PUT', path`/users/${id}`, { ...options, json: body, response: CurrentUser }),
    /** `DELETE /users/:id` -> 204 (administrators); 409 while the user is a group's only owner, unless `hard_delete`. */
    remove: (id: number, query: UserDeleteQuery = {}, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/users/${id}`, { ...options, query: { ...options.query, ...query } }),
    /** `GET /users/:user_id/memberships`, lazily (administrators): direct memberships of groups and projects. */
    memberships: (id: number, options: MembershipListOptions = {}) => {
      const { type, ...rest } = options
      return http.paginate<Membership>(path`/users/${id}/memberships`, {
        ...rest,
        query: { ...rest.query, type },
        item: Membership,
      })
    },
    block: state('block'),
    unblock: state('unblock'),
    deactivate: state('deactivate'),
    activate: state('activate'),
    ban: state('ban'),
    unban: state('unban'),
  }
}
/** The type of `client.users`. */
export type UsersApi = ReturnType<typeof users>
