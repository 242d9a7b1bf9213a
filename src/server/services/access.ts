import type { Store } from '../store/index.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { forbidden, notFound } from '../grape/gitlab-errors.js'
import { systemClock, today, type Clock } from '../domain/clock.js'
import { accessLevels } from '../../schema/common.js'

export const Level = accessLevels

/**
 * GitLab's `ArchivedAbilities` (`ProjectPolicy`'s `rule { archived }`): an archived project is read-only for
 * everyone, administrators included. Reads, members, settings and unarchiving stay open.
 */
export const writable = (project: ProjectRow): boolean => project.archived === 0

/** `writable`, or 403 `403 Forbidden` (the status of an `authorize!` the archived rule refuses). */
export function requireNotArchived(project: ProjectRow): void {
  if (!writable(project)) throw forbidden()
}

/** Who is calling: a user, or nobody (anonymous). Memberships are read once per request. */
export class Actor {
  private memberships?: ReadonlyMap<string, number>
  private externalUser?: boolean
  constructor(
    readonly user: UserRow | null,
    /** The personal access token the caller signed in with (`self`, rotate, revoke). */
    readonly tokenId: number | null = null,
  ) {}
  get admin(): boolean {
    return this.user?.admin === 1
  }
  get id(): number | null {
    return this.user?.id ?? null
  }
  /** Direct access level in a `namespace:<id>` or `project:<id>` source. */
  direct(store: Store, key: string): number {
    if (!this.user) return 0
    this.memberships ??= store.members.levelsOf(this.user.id)
    return this.memberships.get(key) ?? 0
  }
  /** An external user (`User#external?`, set by an administrator): no internal project or group unless a member. */
  external(store: Store): boolean {
    if (!this.user) return false
    this.externalUser ??= store.users.profile(this.user.id)?.external === 1
    return this.externalUser
  }
}

/**
 * Visibility and roles (`app/policies/project_policy.rb`, `lib/api/helpers.rb`): private things answer 404 to
 * those who may not see them, roles are inherited from ancestor groups, the owner of a personal namespace
 * owns its projects.
 */
export function createAccess(store: Store, clock: Clock = systemClock) {
  /** The next namespace up the chain (walked in place: every request checks access, no array each time). */
  const parentOf = (ns: NamespaceRow): NamespaceRow | undefined =>
    ns.parent_id === null ? undefined : store.namespaces.get(ns.parent_id)

  /** The level from memberships of the group and its ancestors, without shares. */
  const memberLevel = (actor: Actor, group: NamespaceRow): number => {
    if (!actor.user) return 0
    let level = 0
    for (let ns = store.namespaces.get(group.id); ns; ns = parentOf(ns)) {
      if (ns.kind === 'user' && ns.owner_id === actor.user.id) level = Math.max(level, Level.owner)
      level = Math.max(level, actor.direct(store, `namespace:${ns.id}`))
    }
    return level
  }

  /** A share counts until the start of its `expires_at` day (`GroupGroupLink.non_expired`, `ProjectGroupLink.not_expired`). */
  const live = (link: { expires_at: string | null }) =>
    link.expires_at === null || link.expires_at > today(clock)
  /** The unexpired shares of one group with others (`group_group_links` where it is the shared group). */
  const sharesInto = (groupId: number) => store.groupWrites.invitedGroups(groupId).filter(live)
  /** The unexpired shares of a project with groups (`project_group_links`). */
  const projectShares = (project: ProjectRow) => store.projectSettings.sharesOf(project.id).filter(live)

  /**
   * `memberLevel`, raised by the shares of the group and its ancestors
   * (`Group#members_from_self_and_ancestor_group_shares`): the direct members of an invited group reach
   * the shared one up to the share's `group_access`; the invited group's inherited members do not, and
   * shares do not chain.
   */
  const groupLevel = (actor: Actor, group: NamespaceRow): number => {
    let level = memberLevel(actor, group)
    if (!actor.user) return level
    for (let ns = store.namespaces.get(group.id); ns; ns = parentOf(ns))
      for (const link of store.groupWrites.invitedGroups(ns.id))
        if (live(link))
          level = Math.max(
            level,
            Math.min(link.group_access, actor.direct(store, `namespace:${link.group_id}`)),
          )
    return level
  }

  const projectLevel = (actor: Actor, project: ProjectRow): number => {
    if (!actor.user) return 0
    const ns = store.namespaces.get(project.namespace_id)
    const inherited = ns ? groupLevel(actor, ns) : 0
    return Math.max(inherited, actor.direct(store, `project:${project.id}`), sharedLevel(actor, project))
  }

  /** `internal` is for signed-in users but external ones (`internal_access`, `Project.public_or_visible_to_user`). */
  const visible = (actor: Actor, visibility: string, level: number) =>
    actor.admin ||
    visibility === 'public' ||
    (visibility === 'internal' && actor.user !== null && !actor.external(store)) ||
    level > 0

  const canReadProject = (actor: Actor, project: ProjectRow) =>
    visible(actor, project.visibility, projectLevel(actor, project))

  const canReadGroup = (actor: Actor, group: NamespaceRow): boolean => {
    if (visible(actor, group.visibility, groupLevel(actor, group))) return true
    // Members of something inside a private group may see the group itself.
    if (!actor.user) return false
    const prefix = `${group.full_path.toLowerCase()}/`
    return store.projects
      .all()
      .some((p) => p.full_path.toLowerCase().startsWith(prefix) && projectLevel(actor, p) > 0)
  }

  /**
   * Members of a group the project is shared with (and of its ancestors) get up to the share's level,
   * until the day it expires; a share the group itself received does not chain on.
   */
  const sharedLevel = (actor: Actor, project: ProjectRow): number => {
    let level = 0
    for (const link of store.projectSettings.sharesOf(project.id)) {
      if (!live(link)) continue
      const group = store.namespaces.get(link.group_id)
      if (group) level = Math.max(level, Math.min(link.group_access, memberLevel(actor, group)))
    }
    return level
  }

  const byRef = <T>(
    ref: string,
    byId: (id: number) => T | undefined,
    byPath: (p: string) => T | undefined,
  ) => (/^\d+$/.test(ref) ? byId(Number(ref)) : byPath(ref))

  return {
    projectLevel,
    groupLevel,
    sharesInto,
    projectShares,
    canReadProject,
    canReadGroup,
    /** The project by id or full path; 404 `Project Not Found` when missing or hidden. */
    project(actor: Actor, ref: string): ProjectRow {
      const project = byRef(ref, store.projects.get, store.projects.byPath)
      if (!project || !canReadProject(actor, project)) throw notFound('Project')
      return project
    },
    /** The group by id or full path; 404 `Group Not Found` when missing or hidden. */
    group(actor: Actor, ref: string): NamespaceRow {
      const group = byRef(ref, store.namespaces.get, store.namespaces.byPath)
      if (!group || group.kind !== 'group' || !canReadGroup(actor, group)) throw notFound('Group')
      return group
    },
    /** True when the actor is an administrator or has at least `level` in the project. */
    atLeast(actor: Actor, project: ProjectRow, level: number): boolean {
      return actor.admin || projectLevel(actor, project) >= level
    },
    /** `atLeast` for a user outside a request (a job acting for the user who started it). */
    userAtLeast(user: UserRow, project: ProjectRow, level: number): boolean {
      const actor = new Actor(user)
      return actor.admin || projectLevel(actor, project) >= level
    },
    /** Projects (optionally below a group) the actor can read, with the actor's level in each. */
    readableProjects(actor: Actor, under?: NamespaceRow): { project: ProjectRow; level: number }[] {
      const prefix = under ? `${under.full_path.toLowerCase()}/` : ''
      const out: { project: ProjectRow; level: number }[] = []
      for (const project of store.projects.all()) {
        if (prefix && !project.full_path.toLowerCase().startsWith(prefix)) continue
        const level = projectLevel(actor, project)
        if (visible(actor, project.visibility, level)) out.push({ project, level })
      }
      return out
    },
  }
}
export type Access = ReturnType<typeof createAccess>
