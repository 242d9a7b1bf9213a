import type { NamespaceRow } from '../../store/namespaces.js'
import type { ProjectRow } from '../../store/projects.js'
import type { MemberRow, MemberSource, MemberSourceRef } from '../../store/members.js'
import type { Store } from '../../store/index.js'
import { personalOwnerLevel } from '../../domain/releases.js'
import { Level, type Access, type Actor } from '../access.js'

/** Where memberships live: a project or a group, as the members API's `find_source` resolved it. */
export type Source = { kind: 'project'; row: ProjectRow } | { kind: 'group'; row: NamespaceRow }

/** `source_type` of the members table for a source. */
export const sourceType = (s: Source): MemberSource => (s.kind === 'project' ? 'project' : 'namespace')

/** `Gitlab::Access.human_access`, as validation messages name a level. */
export const humanAccess = (level: number): string =>
  ({ 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' })[level] ??
  String(level)

/**
 * The members API's view of sources (`lib/api/helpers/members_helpers.rb`): resolving them (404 as
 * `find_project!`/`find_group!`), their ancestor groups, and who may administer their members
 * (`admin_project_member`: Maintainer; `admin_group_member`: Owner; `manage_owners`: Owner).
 */
export function memberSources(store: Store, access: Access, version: string) {
  /** The group namespaces above `namespaceId`, nearest first (a personal namespace has none). */
  const groupChain = (namespaceId: number | null): NamespaceRow[] => {
    const chain: NamespaceRow[] = []
    for (let id = namespaceId; id !== null;) {
      const ns = store.namespaces.get(id)
      if (!ns || ns.kind !== 'group') break
      chain.push(ns)
      id = ns.parent_id
    }
    return chain
  }
  /**
   * The holder of a personal project's namespace: its member (Owner from 14.9, Maintainer before:
   * `personalOwnerLevel`), which the seed stores no row for.
   */
  const holder = (s: Source) => {
    if (s.kind !== 'project') return undefined
    const ns = store.namespaces.get(s.row.namespace_id)
    return ns?.kind === 'user' && ns.owner_id !== null
      ? { userId: ns.owner_id, level: personalOwnerLevel(version), createdAt: s.row.created_at }
      : undefined
  }
  const itself = (s: Source): MemberSourceRef => {
    const implicit = holder(s)
    return { type: sourceType(s), id: s.row.id, depth: 0, ...(implicit ? { implicit } : {}) }
  }
  const above = (s: Source) =>
    s.kind === 'project' ? groupChain(s.row.namespace_id) : groupChain(s.row.parent_id)
  const withAncestors = (s: Source): MemberSourceRef[] => [
    itself(s),
    ...above(s).map((ns, i) => ({ type: 'namespace' as const, id: ns.id, depth: i + 1 })),
  ]
  const level = (actor: Actor, s: Source) =>
    s.kind === 'project' ? access.projectLevel(actor, s.row) : access.groupLevel(actor, s.row)

  return {
    find(actor: Actor, kind: Source['kind'], ref: string): Source {
      return kind === 'project'
        ? { kind, row: access.project(actor, ref) }
        : { kind, row: access.group(actor, ref) }
    },
    /** The source itself only (`source_members`). */
    direct: (s: Source): MemberSourceRef[] => [itself(s)],
    /** A direct membership: its row, or the personal project holder's Owner membership. */
    member(s: Source, userId: number): MemberRow | undefined {
      const row = store.members.get(sourceType(s), s.row.id, userId)
      if (row) return row
      const implicit = holder(s)
      if (implicit?.userId !== userId) return undefined
      const { level, createdAt } = implicit
      return {
        ...{ source_type: 'project', source_id: s.row.id, user_id: userId, access_level: level },
        ...{ created_at: createdAt, expires_at: null, created_by_id: null },
      }
    },
    /** `target_is_holder_of_the_personal_namespace`: nobody changes or removes that membership. */
    isHolder: (s: Source, userId: number) => holder(s)?.userId === userId,
    /** The source and the groups above it, nearest first (`:direct` and `:inherited`). */
    withAncestors,
    /**
     * `find_all_members` (`lib/api/helpers/members_helpers.rb`): `withAncestors`, then the direct members
     * of the groups shared into the source's groups (`GroupMembersFinder` `:shared_from_groups`, a
     * project's `:shared_into_ancestors`) and, for a project, the members of the groups it is shared with
     * and of their ancestors (`MembersFinder` `:invited_groups`), each capped at the share's
     * `group_access`; expired shares add nobody. Callers without access to the source see only the
     * invited groups they may read (`public_or_visible_to_user`).
     */
    withShares(actor: Actor, s: Source): MemberSourceRef[] {
      const refs = withAncestors(s)
      const member = level(actor, s) > 0
      const add = (groupId: number, cap: number) => {
        const group = store.namespaces.get(groupId)
        if (group && (member || access.canReadGroup(actor, group)))
          refs.push({ type: 'namespace', id: groupId, depth: refs.length, cap })
      }
      const groups = s.kind === 'group' ? [s.row, ...above(s)] : above(s)
      for (const group of groups)
        for (const link of access.sharesInto(group.id)) add(link.group_id, link.group_access)
      if (s.kind === 'project')
        for (const link of access.projectShares(s.row))
          for (const group of groupChain(link.group_id)) add(group.id, link.group_access)
      return refs
    },
    /** The groups above the source, nearest first (`Member#highest_group_member` reads them). */
    ancestors: above,
    /** `admin_project_member` (Maintainer) or `admin_group_member` (Owner); administrators always. */
    canAdmin: (actor: Actor, s: Source) =>
      actor.admin || level(actor, s) >= (s.kind === 'project' ? Level.maintainer : Level.owner),
    /** `manage_owners`: only owners (and administrators) make, change or remove a project's owners. */
    canManageOwners: (actor: Actor, s: Source) => actor.admin || level(actor, s) >= Level.owner,
  }
}
export type MemberSources = ReturnType<typeof memberSources>
