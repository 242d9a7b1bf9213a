import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp } from './common.js'

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
