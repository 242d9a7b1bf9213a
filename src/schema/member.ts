import { Type, type Static } from '@sinclair/typebox'
import { DateString, Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { boolParam, dateTimeParam, intArrayParam } from './params.js'

/**
 * `Entities::Member` (`lib/api/entities/member.rb`): the user merged in (`UserBasic`), then the
 * membership; `created_by` only when someone made it through the API (`expose_nil: false`). EE
 * (`ee/lib/ee/api/entities/member.rb`) adds the user's `email` for administrators and `membership_state`.
 */
export const Member = Type.Object(
  {
    ...UserBasic.properties,
    access_level: Type.Integer(),
    created_at: Timestamp,
    created_by: Type.Optional(UserBasic),
    expires_at: Type.Union([DateString, Type.Null()]),
    email: Type.Optional(Nullable(Type.String())),
    membership_state: Type.Optional(Type.String({ description: 'EE: active or awaiting' })),
  },
  { title: 'Member' },
)
export type Member = Static<typeof Member>

/** `GET /projects/:id/members` and `/groups/:id/members` (`/all` too): filters and a page. */
export const MemberListQuery = Type.Object({
  query: Type.Optional(Type.String()),
  user_ids: Type.Optional(intArrayParam()),
  skip_users: Type.Optional(intArrayParam()),
  show_seat_info: Type.Optional(boolParam()),
  ...PageQuery.properties,
})
export type MemberListQuery = Static<typeof MemberListQuery>

/**
 * `POST .../members`: `user_id` (an id, or ids separated by commas) or `username` (one, or several
 * separated by commas), exactly one of them; `access_level` one of `Gitlab::Access.all_values`.
 */
export const MemberCreate = Type.Object(
  {
    access_level: Type.Integer(),
    user_id: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
    username: Type.Optional(Type.String()),
    expires_at: Type.Optional(dateTimeParam()),
    invite_source: Type.Optional(Type.String()),
  },
  { 'x-mutually-exclusive': [['user_id', 'username']], 'x-at-least-one-of': ['user_id', 'username'] },
)
export type MemberCreate = Static<typeof MemberCreate>

/** `PUT .../members/:user_id`. */
export const MemberUpdate = Type.Object({
  access_level: Type.Integer(),
  expires_at: Type.Optional(dateTimeParam()),
})
export type MemberUpdate = Static<typeof MemberUpdate>

/** `DELETE .../members/:user_id`. */
export const MemberDeleteQuery = Type.Object({
  skip_subresources: Type.Optional(boolParam({ default: false })),
  unassign_issuables: Type.Optional(boolParam({ default: false })),
})
export type MemberDeleteQuery = Static<typeof MemberDeleteQuery>

/**
 * `POST .../members` with several users: GitLab answers the service's result (`BaseService#success`,
 * `#error`: the message first), not the members.
 */
export const MemberBulkResult = Type.Object(
  { message: Type.Optional(Type.String()), status: Type.String() },
  { title: 'MemberBulkResult' },
)
export type MemberBulkResult = Static<typeof MemberBulkResult>
