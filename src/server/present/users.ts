import type { CurrentUser, UserBasic, UserProfile } from '../../schema/index.js'
import type { UserProfileRow, UserRow } from '../store/users.js'
import type { Instance } from './context.js'

/** GitLab's doc/api/users.md: the embedded user. */
export function presentUser(row: UserRow, instance: Instance): UserBasic {
  return {
    id: row.id,
    username: row.username,
    public_email: null,
    name: row.name,
    state: row.state,
    locked: false,
    avatar_url: null,
    web_url: `${instance.baseUrl}/${row.username}`,
  }
}

/** A user's profile as a user without a `user_profiles` row has it: GitLab's defaults. */
export const defaultProfile = (userId: number): UserProfileRow => ({
  user_id: userId,
  bio: '',
  can_create_group: 1,
  projects_limit: 100000,
  external: 0,
  private_profile: 0,
})

/** `GET /user`, and users as administrators see them; `bot` for a project or group access token's user. */
export function presentCurrentUser(
  row: UserRow,
  instance: Instance,
  profile: UserProfileRow = defaultProfile(row.id),
  bot = false,
): CurrentUser {
  return {
    ...presentUser(row, instance),
    created_at: row.created_at,
    bio: profile.bio,
    bot,
    email: row.email,
    is_admin: row.admin === 1,
    can_create_group: profile.can_create_group === 1,
    can_create_project: profile.projects_limit > 0,
    two_factor_enabled: false,
    external: profile.external === 1,
    private_profile: profile.private_profile === 1,
  }
}

/** `GET /users/:id` for others than administrators (`Entities::User`). */
export function presentUserProfile(
  row: UserRow,
  instance: Instance,
  profile: UserProfileRow,
  bot = false,
): UserProfile {
  return { ...presentUser(row, instance), created_at: row.created_at, bio: profile.bio, bot }
}
