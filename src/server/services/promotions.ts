import type { GroupLabel } from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import { isoNow } from '../domain/clock.js'
import { forbidden, messageError, notFound, recordNotFound } from '../grape/gitlab-errors.js'
import { presentGroupLabel } from '../present/issues.js'
import type { LabelRow } from '../store/labels.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, requireNotArchived, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { findLabel } from './label-rules.js'

/**
 * Promoting a project's label or milestone to the project's group (`Labels::PromoteService`,
 * `Milestones::PromoteService`, `lib/api/helpers/label_helpers.rb` `promote_label`,
 * `lib/api/project_milestones.rb`). The promoted row keeps its id (GitLab 18's label promotion says
 * so; chosen for milestones too, where GitLab makes a new one); the same-titled labels or milestones
 * of the group's other projects are merged into it (their issues, subscriptions and events move to
 * it) and deleted. A project label's priority is not carried over (group labels have none here).
 */
export function promotionService(ctx: ServiceContext) {
  const { store, access, instance } = ctx

  const groupOf = (project: ProjectRow): NamespaceRow | undefined => {
    const ns = store.namespaces.get(project.namespace_id)
    return ns?.kind === 'group' ? ns : undefined
  }
  const siblings = (group: NamespaceRow) => store.projects.all().filter((p) => p.namespace_id === group.id)

  return {
    /**
     * `PUT /projects/:id/labels/:name/promote`: 400 `Failed to promote project label to group label` for
     * a project outside a group, 403 without `admin_label` in the group, 404 for a label the project
     * lacks. `LabelsFinder` with the group's id finds the group's own label of the title too, so
     * that one is merged into the promoted label like the projects' are.
     */
    label(actor: Actor, projectId: string, ref: string): GroupLabel {
      const project = access.project(actor, projectId)
      requireNotArchived(project)
      const group = groupOf(project)
      if (!group) throw messageError(400, 'Failed to promote project label to group label')
      if (!actor.admin && access.groupLevel(actor, group) < Level.planner) throw forbidden()
      const label = findLabel(
        store,
        ref,
        (l) => l.project_id === project.id,
        (t) => store.labels.byTitle(project.id, t),
      )
      if (!label) throw notFound('Label')
      store.transaction(() => {
        const same = siblings(group)
          .map((p) => (p.id === project.id ? undefined : store.labels.byTitle(p.id, label.title)))
          .concat(store.labels.groupByTitle(group.id, label.title))
        for (const other of same) {
          if (!other) continue
          store.labels.merge(other.id, label.id)
          store.labels.remove(other.id)
        }
        store.labels.moveToGroup(label.id, group.id)
      })
      const row = store.labels.get(label.id) as LabelRow
      return presentGroupLabel(row, actor.id !== null && store.labels.subscribed(row.id, actor.id))
    },

    /**
     * `POST /projects/:id/milestones/:milestone_id/promote`: 403 without `admin_milestone` in the
     * project and in its group (none for a personal project), 404 `Not found` for a milestone the
     * project lacks, 400 `Promotion failed - ...` when the group has the title already; 200 whose
     * body is the status (`status(200)` is the endpoint's value).
     */
    milestone(actor: Actor, projectId: string, id: number): number {
      const project = access.project(actor, projectId)
      requireNotArchived(project)
      const least = applies(instance.version, 'milestonesByReporter') ? Level.planner : Level.developer
      if (!access.atLeast(actor, project, least)) throw forbidden()
      const group = groupOf(project)
      if (!group || (!actor.admin && access.groupLevel(actor, group) < least)) throw forbidden()
      const milestone = store.milestones.get(id)
      if (!milestone || milestone.project_id !== project.id) throw recordNotFound()
      if (store.milestones.groupByTitle(group.id, milestone.title))
        throw messageError(
          400,
          'Promotion failed - Title already being used for another group or project milestone.',
        )
      store.transaction(() => {
        for (const p of siblings(group)) {
          const same = p.id === project.id ? undefined : store.milestones.byTitle(p.id, milestone.title)
          if (!same) continue
          store.milestones.merge(same.id, milestone.id)
          store.milestones.remove(same.id)
        }
        store.milestones.moveToGroup(milestone.id, group.id)
        store.milestones.update({ ...milestone, updated_at: isoNow(ctx.clock) })
      })
      return 200
    },
  }
}
export type PromotionService = ReturnType<typeof promotionService>
