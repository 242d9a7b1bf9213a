import type { Member } from '../../schema/index.js'
import type { MemberRow } from '../store/members.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/**
 * `Entities::Member` (`lib/api/entities/member.rb`): the user's `UserBasic` fields, then
 * `access_level`, `created_at`, `created_by` (only when known: `expose_nil: false`) and `expires_at`.
 */
export function presentMember(
  row: MemberRow,
  user: UserRow,
  createdBy: UserRow | undefined,
  instance: Instance,
): Member {
  return {
    ...presentUser(user, instance),
    access_level: row.access_level,
    created_at: row.created_at,
    ...(createdBy ? { created_by: presentUser(createdBy, instance) } : {}),
    expires_at: row.expires_at,
  }
}
