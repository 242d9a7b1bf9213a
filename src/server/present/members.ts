import type { Member } from '../../schema/index.js'
import type { MemberRow } from '../store/members.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/**
 * `Entities::Member` (`lib/api/entities/member.rb`): the user's `UserBasic` fields, then
 * `access_level`, `created_at`, `created_by` (only when known: `expose_nil: false`) and `expires_at`.
 * EE (`ee/lib/ee/api/entities/member.rb`) then adds the user's `email` when an administrator asks, and
 * `membership_state` (`human_state_name`: memberships here are never awaiting a seat). Its
 * `group_saml_identity`, `override` (LDAP) and `member_role` do not apply here.
 */
export function presentMember(
  row: MemberRow,
  user: UserRow,
  createdBy: UserRow | undefined,
  instance: Instance,
  viewer: { admin: boolean },
): Member {
  const member: Member = {
    ...presentUser(user, instance),
    access_level: row.access_level,
    created_at: row.created_at,
    ...(createdBy ? { created_by: presentUser(createdBy, instance) } : {}),
    expires_at: row.expires_at,
  }
  if (instance.edition !== 'ee') return member
  return { ...member, ...(viewer.admin ? { email: user.email } : {}), membership_state: 'active' }
}
