import {
  GROUP_ACCESS_VALUES,
  type Project,
  type ProjectGroupLink,
  type ProjectShare,
} from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { visibilityAboveGroup } from '../domain/project-paths.js'
import { forbidden, messageError, notFound, paramError } from '../grape/gitlab-errors.js'
import type { NamespaceRow } from '../store/namespaces.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import type { ProjectService } from './projects.js'
import { carryGroupLabelsAndMilestones } from './transfer-group-items.js'

/**
 * `render_api_error!("Failed to transfer project #{user_project.errors.messages}", 400)`: the
 * model's errors as Ruby (3.3, GitLab 18's) prints a hash.
 */
const transferError = (message: string) =>
  messageError(400, `Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}`)

/**
 * Moving a project to another namespace and sharing it with groups (`lib/api/projects.rb`,
 * `Projects::TransferService`, `Projects::GroupLinks::{Create,Destroy}Service`).
 */
export function projectMoves(ctx: ServiceContext, reads: ProjectService) {
  const { store, access, clock } = ctx

  /** `find_namespace!`: by id or full path; 404 `Namespace Not Found` when missing or hidden. */
  const findNamespace = (actor: Actor, ref: string): NamespaceRow => {
    const ns = /^\d+$/.test(ref) ? store.namespaces.get(Number(ref)) : store.namespaces.byPath(ref)
    if (!ns) throw notFound('Namespace')
    const visible =
      actor.admin || (ns.kind === 'user' ? ns.owner_id === actor.id : access.canReadGroup(actor, ns))
    if (!visible) throw notFound('Namespace')
    return ns
  }

  return {
    /**
     * `PUT /projects/:id/transfer`: Owner of the project (`change_namespace`, 403), a namespace the
     * caller sees (404) and may create projects in, holding no project of the same name or path
     * (400, `Failed to transfer project {...}` with TransferService's words). A project more visible
     * than its new group takes the group's visibility (`update_namespace_and_visibility`); its paths,
     * and with them the issues' references, follow, and so do the old group's labels and milestones on
     * its issues (`carryGroupLabelsAndMilestones`).
     */
    transfer(actor: Actor, ref: string, namespaceRef: string): Project {
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.owner)) throw forbidden()
      const target = findNamespace(actor, namespaceRef)
      if (target.id === project.namespace_id) throw transferError('Project is already in this namespace.')
      const mayCreate =
        actor.admin ||
        (target.kind === 'user'
          ? target.owner_id === actor.id
          : access.groupLevel(actor, target) >= Level.maintainer)
      if (!mayCreate) throw transferError("You don't have permission to transfer this project.")
      const fullPath = `${target.full_path}/${project.path}`
      const taken =
        store.projects.byPath(fullPath) !== undefined ||
        store.namespaces.byPath(fullPath) !== undefined ||
        store.projectSettings.nameTaken(target.id, project.name, project.id)
      if (taken) throw transferError('Project with same name or path in target namespace already exists')
      const lowered =
        target.kind === 'group' && visibilityAboveGroup(project.visibility, target.visibility)
          ? target.visibility
          : project.visibility
      const from = store.namespaces.get(project.namespace_id)
      store.transaction(() => {
        store.projectSettings.update(project.id, {
          namespace_id: target.id,
          full_path: fullPath,
          visibility: lowered,
        })
        if (from?.kind === 'group')
          carryGroupLabelsAndMilestones(store, store.projects.get(project.id)!, from.id, isoNow(clock))
      })
      return reads.record(store.projects.get(project.id)!)
    },

    /**
     * `POST /projects/:id/share`: Maintainer+ (`admin_project`, 403); a group the caller cannot
     * see is 404 `{"message":"Not Found"}`; the project's own group or one above it, and a group it
     * is shared with already, 409 with the link's validation message. 201 `ProjectGroupLink`.
     */
    share(actor: Actor, ref: string, input: ProjectShare): ProjectGroupLink {
      if (!GROUP_ACCESS_VALUES.includes(input.group_access))
        throw paramError('group_access does not have a valid value')
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
      const group = store.namespaces.get(input.group_id)
      if (!group || group.kind !== 'group' || !(actor.admin || access.groupLevel(actor, group) > 0))
        throw messageError(404, 'Not Found')
      const ancestors = new Set<number>()
      for (
        let ns = store.namespaces.get(project.namespace_id);
        ns;
        ns = store.namespaces.get(ns.parent_id ?? 0)
      )
        ancestors.add(ns.id)
      if (ancestors.has(group.id))
        throw messageError(409, 'Project cannot be shared with the group it is in or one of its ancestors.')
      if (store.projectSettings.links(project.id).some((l) => l.group_id === group.id))
        throw messageError(409, 'Group already shared with this group')
      const row = {
        project_id: project.id,
        group_id: group.id,
        group_access: input.group_access,
        expires_at: input.expires_at ?? null,
        created_at: isoNow(clock),
      }
      const id = store.transaction(() => store.projectSettings.link(row))
      const { created_at: _created, ...link } = { id, ...row }
      return link
    },

    /** `DELETE /projects/:id/share/:group_id`: Maintainer+ (403), 404 `Group Link Not Found`, else 204. */
    unshare(actor: Actor, ref: string, groupId: number): void {
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
      if (store.transaction(() => store.projectSettings.unlink(project.id, groupId)) === 0)
        throw notFound('Group Link')
    },
  }
}
export type ProjectMoves = ReturnType<typeof projectMoves>
