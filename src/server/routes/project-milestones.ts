import { Type } from '@sinclair/typebox'
import { GroupMilestone, MilestoneListQuery, ProjectMilestone } from '../../schema/index.js'
import { boolParam } from '../../schema/params.js'
import { applies } from '../domain/releases.js'
import type { ApiContext } from './context.js'
import { milestoneRoutes } from './milestone-routes.js'

/** Before `include_ancestors` (GitLab 16.7) the list has `include_parent_milestones`, false by default. */
const ListBefore167 = Type.Object(
  {
    ...Type.Omit(MilestoneListQuery, ['include_parent_milestones', 'include_ancestors']).properties,
    include_parent_milestones: Type.Optional(boolParam({ default: false })),
  },
  { title: 'MilestoneListQuery' },
)

/**
 * A project's milestones (services/project-milestones.ts; `lib/api/project_milestones.rb`): every call
 * authenticates. The list adds the project's groups' milestones with `include_ancestors`.
 */
export function projectMilestoneRoutes(api: ApiContext): void {
  const { access } = api
  milestoneRoutes(api, {
    segment: 'projects',
    service: api.services.projectMilestones,
    listInput: applies(api.instance.version, 'milestoneIncludeAncestors')
      ? MilestoneListQuery
      : ListBefore167,
    listItem: Type.Union([ProjectMilestone, GroupMilestone]),
    entity: ProjectMilestone,
    scope: (actor, id) => ({ kind: 'project', project: access.project(actor, id) }),
    summaries: {
      list: "List a project's milestones",
      get: 'Read one milestone by its id',
      create: 'Create a milestone (Planner and up; Developer before 15.0)',
      update: 'Edit, close or reopen a milestone (Planner and up; Developer before 15.0)',
      remove: 'Delete a milestone (Planner and up; Developer before 15.0); its issues lose it',
      issues: "List a milestone's issues the caller may read, by label priority",
      mergeRequests:
        "List a milestone's merge requests (none: the server's merge requests have no milestone)",
    },
  })
}
