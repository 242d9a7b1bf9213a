import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { boolParam } from './params.js'

/** `GET /user`: the signed-in user (GitLab's `UserPublic`, the fields clients read first). */
export const CurrentUser = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    public_email: Nullable(Type.String()),
    name: Type.String(),
    state: Type.String(),
    locked: Type.Boolean(),
    avatar_url: Nullable(Type.String()),
    web_url: Type.String(),
    created_at: Timestamp,
    bio: Type.String(),
    bot: Type.Boolean(),
    email: Nullable(Type.String()),
    is_admin: Type.Boolean(),
    can_create_group: Type.Boolean(),
    can_create_project: Type.Boolean(),
    two_factor_enabled: Type.Boolean(),
    external: Type.Boolean(),
    private_profile: Type.Boolean(),
  },
  { title: 'CurrentUser' },
)
export type CurrentUser = Static<typeof CurrentUser>

/** `GET /users/:id` for a caller who is not an administrator (`Entities::User`, the fields we keep). */
export const UserProfile = Type.Object(
  {
    ...UserBasic.properties,
    created_at: Timestamp,
    bio: Type.String(),
    bot: Type.Boolean(),
  },
  { title: 'User' },
)
export type UserProfile = Static<typeof UserProfile>

/** What `POST` and `PUT /users` set besides the account itself (`optional_attributes`). */
const userAttributes = {
  projects_limit: Type.Optional(Type.Integer()),
  bio: Type.Optional(Type.String()),
  admin: Type.Optional(boolParam()),
  can_create_group: Type.Optional(boolParam()),
  external: Type.Optional(boolParam()),
  private_profile: Type.Optional(boolParam()),
}

/** `POST /users` (administrators). */
export const UserCreate = Type.Object(
  {
    email: Type.String(),
    password: Type.Optional(Type.String()),
    reset_password: Type.Optional(boolParam()),
    skip_confirmation: Type.Optional(boolParam()),
    name: Type.String(),
    username: Type.String(),
    force_random_password: Type.Optional(boolParam()),
    ...userAttributes,
  },
  { 'x-at-least-one-of': ['password', 'reset_password', 'force_random_password'] },
)
export type UserCreate = Static<typeof UserCreate>

/** `PUT /users/:id` (administrators). */
export const UserUpdate = Type.Object({
  email: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  skip_reconfirmation: Type.Optional(boolParam()),
  name: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  ...userAttributes,
})
export type UserUpdate = Static<typeof UserUpdate>

/** `DELETE /users/:id`. */
export const UserDeleteQuery = Type.Object({ hard_delete: Type.Optional(boolParam()) })
export type UserDeleteQuery = Static<typeof UserDeleteQuery>

/** `GET /users/:user_id/memberships` (`Entities::Membership`). */
export const Membership = Type.Object(
  {
    source_id: Type.Integer(),
    source_name: Type.String(),
    source_type: Type.Union([Type.Literal('Project'), Type.Literal('Namespace')]),
    access_level: Type.Integer(),
  },
  { title: 'Membership' },
)
export type Membership = Static<typeof Membership>

/** `GET /users/:user_id/memberships`: `type` keeps projects' or groups'. */
export const MembershipListQuery = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('Project'), Type.Literal('Namespace')])),
  ...PageQuery.properties,
})
export type MembershipListQuery = Static<typeof MembershipListQuery>
