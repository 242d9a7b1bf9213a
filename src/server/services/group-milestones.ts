import type { Milestone, MilestoneCreate, MilestoneListQuery, MilestoneUpdate } from '../../schema/index.js'
import { isoNow, today } from '../domain/clock.js'
import { forbidden } from '../grape/gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentMilestone } from '../present/issues.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'
import {
  listedMilestones,
  validateMilestone,
  editedMilestone,
  newMilestoneFields,
  milestoneWriters,
  ownMilestone,
  insertMilestone,
} from './milestone-rules.js'

/**
 * A group's milestones (`lib/api/group_milestones.rb`, `lib/api/milestone_responses.rb`): list (with
 * the ancestors' when `include_ancestors`), read, create, edit, delete. iids count per group. Writes
 * need `admin_milestone` in the group: Planner and up from GitLab 15.0 (Developer before), as for projects.
 */
export function groupMilestoneService(ctx: ServiceContext) {
  const { store, access, instance } = ctx

  const requireAdmin = (actor: Actor, group: NamespaceRow) => {
    if (!actor.admin && access.groupLevel(actor, group) < milestoneWriters(instance.version))
      throw forbidden()
  }
  const present = (row: MilestoneRow) => presentMilestone(row, instance, today(ctx.clock))
  /** `user_group.milestones.find(id)`: 404 `Not found` for another owner's milestone too. */
  const find = (group: NamespaceRow, id: number): MilestoneRow =>
    ownMilestone(store, id, (row) => row.group_id === group.id)
  /** A group milestone's title is its own and its projects' (`Milestone#uniqueness_of_title`). */
  const taken = (group: NamespaceRow) => (title: string) =>
    store.milestones.groupByTitle(group.id, title) !== undefined ||
    store.projects.all().some((p) => p.namespace_id === group.id && store.milestones.byTitle(p.id, title))

  return {
    find,

    list(actor: Actor, groupId: string, q: MilestoneListQuery): PageOut<Milestone> {
      const group = access.group(actor, groupId)
      const ancestors = q.include_ancestors ?? q.include_parent_milestones
      const rows = listedMilestones(
        ancestors ? store.milestones.ofGroups(group.id) : store.milestones.ofGroup(group.id),
        q,
      )
      return mapPage(slicePage(rows, pageOf(q)), present)
    },

    get(actor: Actor, groupId: string, id: number): Milestone {
      return present(find(access.group(actor, groupId), id))
    },

    create(actor: Actor, groupId: string, input: MilestoneCreate): Milestone {
      const group = access.group(actor, groupId)
      requireAdmin(actor, group)
      const now = isoNow(ctx.clock)
      const fields = newMilestoneFields(input)
      validateMilestone('create', fields, undefined, taken(group))
      return present(insertMilestone(store, fields, { project_id: null, group_id: group.id }, now))
    },

    /** `Milestones::UpdateService`: `state_event` first, then the fields; a blank title is not written. */
    update(actor: Actor, groupId: string, id: number, input: MilestoneUpdate): Milestone {
      const group = access.group(actor, groupId)
      requireAdmin(actor, group)
      const row = find(group, id)
      const next = editedMilestone(row, input, isoNow(ctx.clock))
      validateMilestone('update', next, row, taken(group))
      store.milestones.update(next)
      return present(find(group, id))
    },

    /** `Milestones::DestroyService`: its issues keep no milestone. */
    remove(actor: Actor, groupId: string, id: number): void {
      const group = access.group(actor, groupId)
      requireAdmin(actor, group)
      store.milestones.remove(find(group, id).id)
    },
  }
}
export type GroupMilestoneService = ReturnType<typeof groupMilestoneService>
