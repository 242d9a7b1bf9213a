import { personalOwnerLevel } from '../domain/releases.js'
import type { ExportMember } from '../store/exports.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'

/*
 * GitLab keeps a membership for the owner of a personal namespace in each project created there
 * (`Projects::CreateService`: Owner from 14.9, Maintainer before), so its exports carry the owner
 * in `project_members` and an import maps the owner like any member. This server derives the
 * owner's rights from the namespace instead, so the export adds that row.
 */

/** The owner of a personal project as its member, or undefined for a group's project. */
export function personalOwnerOf(
  namespace: NamespaceRow | undefined,
  project: ProjectRow,
  version: string,
): ExportMember | undefined {
  if (namespace?.kind !== 'user' || namespace.owner_id === null) return undefined
  return {
    user_id: namespace.owner_id,
    access_level: personalOwnerLevel(version),
    created_at: project.created_at,
  }
}

/** `members` (by user id) with `owner` among them, at the higher of its two levels if it is there already. */
export function withPersonalOwner(members: ExportMember[], owner: ExportMember | undefined): ExportMember[] {
  if (!owner) return members
  const own = members.find((m) => m.user_id === owner.user_id)
  if (own)
    return members.map((m) => (m === own && m.access_level < owner.access_level ? { ...m, ...owner } : m))
  return [...members, owner].sort((a, b) => a.user_id - b.user_id)
}
