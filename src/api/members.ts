import type { ResourceRef } from '../schema/common.js'
import {
  Member,
  MemberBulkResult,
  type MemberCreate,
  type MemberDeleteQuery,
  type MemberListQuery,
  type MemberUpdate,
} from '../schema/member.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/**
 * Options of `list` and `listAll`: a paginated read, and the filters: `search` (GitLab's `query`:
 * name or username), `user_ids`, `skip_users`.
 */
export interface MemberListOptions
  extends Omit<PageOptions, 'item'>, Omit<MemberListQuery, 'page' | 'per_page' | 'query'> {
  search?: string
}

/**
 * The members of projects (`client.projectMembers`) or groups (`client.groupMembers`), by id or
 * full path. A source the token may not see is 404 (`404 Project Not Found`); a user who is no
 * member 404 `404 Not found`; adding needs Maintainer in a project, Owner in a group (403); an
 * existing member is 409 `Member already exists`, a past `expires_at` 400
 * `{"message":{"expires_at":["cannot be a date in the past"]}}`.
 */
export const members = (http: Http, sources: 'projects' | 'groups') => {
  const list =
    (suffix: '' | '/all') =>
    (id: ResourceRef, options: MemberListOptions = {}) => {
      const { search, user_ids, skip_users, show_seat_info, ...rest } = options
      return http.paginate<Member>(path`/${sources}/${id}/members` + suffix, {
        ...rest,
        query: { ...rest.query, query: search, user_ids, skip_users, show_seat_info },
        item: Member,
      })
    }
  return {
    /** `GET .../members`, lazily: direct members, in the order they joined. */
    list: list(''),
    /** `GET .../members/all`, lazily: with the members of the groups above, each user at its highest level. */
    listAll: list('/all'),
    /** `GET .../members/:user_id`: a direct member. */
    get: (id: ResourceRef, userId: number, options: CallOptions = {}) =>
      http.request('GET', path`/${sources}/${id}/members/${userId}`, { ...options, response: Member }),
    /** `GET .../members/all/:user_id`: a direct or inherited member. */
    getInherited: (id: ResourceRef, userId: number, options: CallOptions = {}) =>
      http.request('GET', path`/${sources}/${id}/members/all/${userId}`, { ...options, response: Member }),
    /** `POST .../members` -> 201: one user (`user_id` or `username`) -> the member. */
    add: (id: ResourceRef, body: MemberCreate & { user_id?: number }, options: CallOptions = {}) =>
      http.request('POST', path`/${sources}/${id}/members`, { ...options, json: body, response: Member }),
    /** `POST .../members` with several users (`user_id: '1,2'` or `username: 'a,b'`): `{status}`. */
    addMany: (id: ResourceRef, body: MemberCreate, options: CallOptions = {}) =>
      http.request('POST', path`/${sources}/${id}/members`, {
        ...options,
        json: body,
        response: MemberBulkResult,
      }),
    /** `PUT .../members/:user_id`: `access_level`, and `expires_at` (kept unless given). */
    edit: (id: ResourceRef, userId: number, body: MemberUpdate, options: CallOptions = {}) =>
      http.request('PUT', path`/${sources}/${id}/members/${userId}`, {
        ...options,
        json: body,
        response: Member,
      }),
    /** `DELETE .../members/:user_id` -> 204; `skip_subresources`, `unassign_issuables`. */
    remove: (id: ResourceRef, userId: number, query: MemberDeleteQuery = {}, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/${sources}/${id}/members/${userId}`, {
        ...options,
        query: { ...options.query, ...query },
      }),
  }
}
/** The type of `client.projectMembers` and `client.groupMembers`. */
export type MembersApi = ReturnType<typeof members>
