import { forbidden, notFound, recordNotFound } from '../grape/gitlab-errors.js'
import type { EpicRow } from '../store/epics.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'

/**
 * Which epics a caller may see and link to an issue (EE). GitLab's rules:
 * - `read_epic`: the epic's group is readable (`ee/app/policies/ee/group_policy.rb`); an issue shows
 *   `epic`/`epic_iid` as null to anyone else (`ee/lib/ee/api/entities/issue.rb`, `authorized_epic_for`).
 * - `epic_id` is looked up with `EpicsFinder.new(current_user, group_id: project.group.id,
 *   include_ancestor_groups: true).find(id)` (`ee/app/services/ee/issues/base_service.rb`): an epic
 *   that does not exist, that the caller cannot read, or outside the project's group hierarchy raises
 *   RecordNotFound, `404 Not found`, all alike. A project outside any group links nothing.
 * - `epic_iid` is looked up in the project's group (`ee/lib/ee/api/helpers/common_helpers.rb`):
 *   `404 Epic Not Found` when the finder does not return it.
 * - A found epic needs `admin_epic` (Planner or Reporter and up in its group): `403 Forbidden`.
 *   This runs before the issue's own metadata gate, so it applies to create and edit alike.
 */
export function epicLinks(ctx: ServiceContext) {
  const { store, access } = ctx

  const groupOf = (epic: EpicRow) => store.namespaces.get(epic.group_id)
  const canRead = (actor: Actor, epic: EpicRow) => {
    const group = groupOf(epic)
    return group !== undefined && access.canReadGroup(actor, group)
  }
  const canAdmin = (actor: Actor, epic: EpicRow) => {
    const group = groupOf(epic)
    return group !== undefined && (actor.admin || access.groupLevel(actor, group) >= Level.planner)
  }

  /** The project's group, its ancestors and its descendants: where EpicsFinder looks. */
  const inHierarchy = (group: NamespaceRow, epic: EpicRow) => {
    for (let id: number | null = group.id; id !== null; id = store.namespaces.get(id)?.parent_id ?? null)
      if (id === epic.group_id) return true
    return epic.group_path.toLowerCase().startsWith(`${group.full_path.toLowerCase()}/`)
  }

  return {
    canRead,

    /**
     * The epic to link for `epic_id`/`epic_iid`: an id, null to unlink (0, or no group to look in),
     * undefined when neither was sent (or on CE, which has no epics).
     */
    forIssue(
      actor: Actor,
      project: ProjectRow,
      epicId?: number,
      epicIid?: number,
    ): number | null | undefined {
      if (ctx.instance.edition !== 'ee' || (epicId === undefined && epicIid === undefined)) return undefined
      if (epicId === 0 || epicIid === 0) return null
      const ns = store.namespaces.get(project.namespace_id)
      const group = ns?.kind === 'group' ? ns : undefined
      let epic: EpicRow | undefined
      if (epicIid !== undefined) {
        if (!group) return undefined
        epic = store.epics.byIid(group.id, epicIid)
        if (!epic || !canRead(actor, epic)) throw notFound('Epic')
      }
      if (epicId !== undefined && epic === undefined) {
        if (!group) return null
        epic = store.epics.get(epicId)
        if (!epic || !canRead(actor, epic) || !inHierarchy(group, epic)) throw recordNotFound()
      }
      if (!epic) return undefined
      if (!canAdmin(actor, epic)) throw forbidden()
      return epic.id
    },
  }
}
export type EpicLinks = ReturnType<typeof epicLinks>
