import { GroupMilestone, MilestoneListQuery } from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { milestoneRoutes } from './milestone-routes.js'

/**
 * A group's milestones (services/group-milestones.ts; `lib/api/group_milestones.rb`,
 * `lib/api/milestone_responses.rb`): every call authenticates.
 */
export function groupMilestoneRoutes(api: ApiContext): void {
  const { access } = api
  milestoneRoutes(api, {
    segment: 'groups',
    service: api.services.groupMilestones,
    listInput: MilestoneListQuery,
    listItem: GroupMilestone,
    entity: GroupMilestone,
    scope: (actor, id) => ({ kind: 'group', group: access.group(actor, id) }),
    summaries: {
      list: "List a group's milestones",
      get: 'Read one group milestone by its id',
      create: 'Create a group milestone (Planner and up; Developer before 15.0)',
      update: 'Edit, close or reopen a group milestone',
      remove: 'Delete a group milestone; its issues lose it',
      issues: "List a group milestone's issues the caller may read, by label priority",
      mergeRequests:
        "List a group milestone's merge requests (none: the server's merge requests have no milestone)",
    },
  })
}
