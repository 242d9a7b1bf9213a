import { applies } from './releases.js'

/**
 * Whether `DELETE /projects/:id` and `DELETE /groups/:id` mark the resource for deletion rather than
 * remove it. EE (the server plays a licensed instance, so `adjourned_deletion_for_projects_and_groups` is
 * available, with the default `deletion_adjourned_period` of 7 days) marks both before 18.0 too:
 * `ee/lib/ee/api/helpers/projects_helpers.rb` `delete_project` and `ee/lib/ee/api/groups.rb`
 * `delete_group` mark when `adjourned_deletion?`, and `ee/lib/ee/api/entities/group.rb` shows
 * `marked_for_deletion_on`. From 18.0 CE does the same (`delayedProjectDeletionInCe`, `groupDelayedDeletion`).
 */
export function delaysDeletion(
  instance: { edition: 'ce' | 'ee'; version: string },
  kind: 'project' | 'group',
): boolean {
  if (instance.edition === 'ee') return true
  return applies(instance.version, kind === 'project' ? 'delayedProjectDeletionInCe' : 'groupDelayedDeletion')
}
