import type { Store } from '../store/index.js'
import type { ProjectRow } from '../store/projects.js'

/**
 * After a project moved out of `oldGroupId` (`Projects::TransferService#update_group_labels` and
 * `#update_group_milestones`), its issues keep their labels and milestones:
 * - every group label on its issues (app/services/labels/transfer_service.rb) is swapped for the label of
 *   that title the project sees from its new place (its own, or a group's above it), else for a new
 *   project label with the title, colour and description (`Labels::FindOrCreateService` with
 *   `include_ancestor_groups`);
 * - every milestone of the old group and the groups above it on its issues
 *   (app/services/milestones/transfer_service.rb) likewise for the milestone of that title the project
 *   sees (`Milestones::FindOrCreateService`), else a new project milestone with the title, description
 *   and dates (open, as `Milestones::CreateService` makes it).
 * The group's labels and milestones stay, as do other projects' issues. `project` is the moved row.
 * Inside the caller's transaction.
 */
export function carryGroupLabelsAndMilestones(
  store: Store,
  project: ProjectRow,
  oldGroupId: number,
  now: string,
): void {
  for (const label of store.labels.groupLabelsOnIssues(project.id)) {
    const found = store.labels.availableByTitle(project, label.title)
    const to = found?.id ?? store.labels.insert(project.id, label.title, label.color, label.description, now)
    if (to !== label.id) store.labels.relabelIssues(project.id, label.id, to)
  }
  for (const milestone of store.milestones.groupMilestonesOnIssues(oldGroupId, project.id)) {
    const found = store.milestones.availableByTitle(project, milestone.title)
    const to =
      found?.id ??
      store.milestones.insert({
        project_id: project.id,
        title: milestone.title,
        description: milestone.description,
        state: 'active',
        start_date: milestone.start_date,
        due_date: milestone.due_date,
        created_at: now,
        updated_at: now,
      })
    if (to !== milestone.id) store.milestones.moveProjectIssues(project.id, milestone.id, to)
  }
}
