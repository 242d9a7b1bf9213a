import type { Milestone, MilestoneCreate, MilestoneListQuery, MilestoneUpdate } from '../../schema/index.js'
import { forbidden } from '../grape/gitlab-errors.js'
import {
  listedMilestones,
  validateMilestone,
  editedMilestone,
  newMilestoneFields,
  milestoneWriters,
  ownMilestone,
  insertMilestone,
} from './milestone-rules.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentMilestone } from '../present/issues.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { ProjectRow } from '../store/projects.js'
import { requireNotArchived, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { isoNow, today } from '../domain/clock.js'

/**
 * A project's milestones (`lib/api/project_milestones.rb`, `lib/api/milestone_responses.rb`): list (by due
 * date), read,
 * create, edit, delete. Writes need `admin_milestone`: Developer before GitLab 15.0, Planner and up
 * from it, the project not archived. A refused model answers `Failed to create milestone` and the errors as Ruby prints a hash.
 */
export function projectMilestoneService(ctx: ServiceContext) {
  const { store, access, instance } = ctx

  const requireAdmin = (actor: Actor, project: ProjectRow) => {
    requireNotArchived(project)
    if (!access.atLeast(actor, project, milestoneWriters(instance.version))) throw forbidden()
  }
  const present = (row: MilestoneRow) => presentMilestone(row, instance, today(ctx.clock))
  /** `parent.milestones.find(id)`: ActiveRecord's 404 for another project's milestone too. */
  const find = (project: ProjectRow, id: number): MilestoneRow =>
    ownMilestone(store, id, (row) => row.project_id === project.id)

  /** A project milestone's title is its own and its group's (`Milestone#uniqueness_of_title`). */
  const validate = (
    action: 'create' | 'update',
    project: ProjectRow,
    m: Pick<MilestoneRow, 'title' | 'start_date' | 'due_date'>,
    self?: MilestoneRow,
  ) =>
    validateMilestone(action, m, self, (t) => {
      const group = store.namespaces.get(project.namespace_id)
      return (
        store.milestones.byTitle(project.id, t) !== undefined ||
        (group?.kind === 'group' && store.milestones.groupByTitle(group.id, t) !== undefined)
      )
    })

  return {
    find,

    list(actor: Actor, projectId: string, q: MilestoneListQuery): PageOut<Milestone> {
      const project = access.project(actor, projectId)
      const ancestors = q.include_ancestors ?? q.include_parent_milestones
      const rows = listedMilestones(
        ancestors ? store.milestones.available(project) : store.milestones.ofProject(project.id),
        q,
      )
      return mapPage(slicePage(rows, pageOf(q)), (m) => present(m))
    },

    get(actor: Actor, projectId: string, id: number): Milestone {
      const project = access.project(actor, projectId)
      return present(find(project, id))
    },

    create(actor: Actor, projectId: string, input: MilestoneCreate): Milestone {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      const now = isoNow(ctx.clock)
      const fields = newMilestoneFields(input)
      validate('create', project, fields)
      return present(insertMilestone(store, fields, { project_id: project.id }, now))
    },

    /** `Milestones::UpdateService`: `state_event` first, then the fields; a blank title is not written. */
    update(actor: Actor, projectId: string, id: number, input: MilestoneUpdate): Milestone {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      const row = find(project, id)
      const next = editedMilestone(row, input, isoNow(ctx.clock))
      validate('update', project, next, row)
      store.milestones.update(next)
      return present(find(project, id))
    },

    /** `Milestones::DestroyService`: its issues keep no milestone. */
    remove(actor: Actor, projectId: string, id: number): void {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      store.milestones.remove(find(project, id).id)
    },
  }
}
export type ProjectMilestoneService = ReturnType<typeof projectMilestoneService>
