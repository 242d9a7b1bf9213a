import { accessLevels } from '../../schema/common.js'
import { readNdjson, isFile } from '../archive/ndjson-reader.js'
import type { Store } from '../store/index.js'
import type { ImportWriter } from '../store/imports.js'
import type { UserRow } from '../store/users.js'

/** Old (source instance) user id -> our user id, and whether a given old id was mapped. */
export interface UserMap {
  importerId: number
  /**
   * The user to write for a source user id: the mapped user, else the importer
   * (`lib/gitlab/import_export/members_mapper.rb`).
   */
  user(oldId: unknown): number
  mapped(oldId: unknown): boolean
}

/**
 * GitLab's `MembersMapper` (`lib/gitlab/import_export/members_mapper.rb`): the importer becomes a Maintainer
 * of the new project; only an administrator's import maps the exported members, by `public_email` (or the
 * older `email`) and, our addition, by `username` when no email matches (our exports write no public email).
 * Mapped members join with min(level, Maintainer): Owners become Maintainers. Unmatched users are not
 * created. Relation-level problems are ignored here; a line that is not JSON throws (and fails the import, as
 * GitLab's reader does). `addMembers` false (a single relation re-imported into a project that has its
 * members) maps the users and changes no membership.
 */
export async function mapMembers(
  store: Store,
  writer: ImportWriter,
  file: string,
  projectId: number,
  importer: UserRow,
  now: string,
  addMembers = true,
): Promise<UserMap> {
  const map = new Map<number, number>()
  if (addMembers) store.members.set('project', projectId, importer.id, accessLevels.maintainer, now)
  if (importer.admin === 1 && (await isFile(file))) {
    for await (const { value } of readNdjson(file)) {
      const m = value as { user?: Record<string, unknown>; access_level?: unknown }
      const user = m?.user
      if (!user || typeof user !== 'object' || typeof user.id !== 'number') continue
      const email =
        typeof user.public_email === 'string' ? user.public_email : (user.email as string | undefined)
      const found = writer.findUser(email ?? null, typeof user.username === 'string' ? user.username : null)
      if (!found) continue
      map.set(user.id, found.id)
      const level = typeof m.access_level === 'number' ? m.access_level : accessLevels.guest
      if (addMembers && found.id !== importer.id)
        store.members.set('project', projectId, found.id, Math.min(level, accessLevels.maintainer), now)
    }
  }
  return {
    importerId: importer.id,
    user: (oldId) => (typeof oldId === 'number' ? (map.get(oldId) ?? importer.id) : importer.id),
    mapped: (oldId) => typeof oldId === 'number' && map.has(oldId),
  }
}
