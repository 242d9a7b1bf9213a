import type { CurrentUser, UserBasic } from '../../schema/index.js'
import type { UserRow } from '../store/users.js'
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

/** `GET /user`. */
export function presentCurrentUser(row: UserRow, instance: Instance): CurrentUser {
  return {
    ...presentUser(row, instance),
    created_at: row.created_at,
    bio: '',
    bot: false,
    email: row.email,
    is_admin: row.admin === 1,
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
  }
}
