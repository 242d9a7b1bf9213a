import { Type } from '@sinclair/typebox'
import {
  GroupMilestone,
  Issue,
  IssueBasic,
  MergeRequestBasic,
  MilestoneCreate,
  MilestoneListQuery,
  MilestoneUpdate,
  PageQuery,
} from '../../schema/index.js'
import { pageOf } from '../grape/pagination.js'
import type { ApiContext } from './context.js'
import { milestoneIssues } from './milestone-issues.js'
import { IdPath } from './paths.js'

const MilestonePath = Type.Object({ id: Type.String(), milestone_id: Type.Integer() })

/**
 * A group's milestones (services/group-milestones.ts; `lib/api/group_milestones.rb`,
 * `lib/api/milestone_responses.rb`): every call authenticates.
 */
export function groupMilestoneRoutes(api: ApiContext): void {
  const { route, access } = api
  const { groupMilestones, issues } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/milestones',
      summary: "List a group's milestones",
      auth: 'required',
      pathParams: IdPath,
      input: MilestoneListQuery,
      response: { 200: Type.Array(GroupMilestone) },
    },
    (h) => h.sendPage(groupMilestones.list(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/milestones/:milestone_id',
      summary: 'Read one group milestone by its id',
      auth: 'required',
      pathParams: MilestonePath,
      response: { 200: GroupMilestone },
    },
    (h) => groupMilestones.get(h.actor, h.path.id, h.path.milestone_id),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/groups/:id/milestones',
      summary: 'Create a group milestone (Planner and up; Developer before 15.0)',
      auth: 'required',
      pathParams: IdPath,
      input: MilestoneCreate,
      response: { 201: GroupMilestone },
    },
    (h) => h.reply.code(201).send(groupMilestones.create(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/groups/:id/milestones/:milestone_id',
      summary: 'Edit, close or reopen a group milestone',
      auth: 'required',
      pathParams: MilestonePath,
      input: MilestoneUpdate,
      response: { 200: GroupMilestone },
    },
    (h) => groupMilestones.update(h.actor, h.path.id, h.path.milestone_id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/groups/:id/milestones/:milestone_id',
      summary: 'Delete a group milestone; its issues lose it',
      auth: 'required',
      pathParams: MilestonePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      groupMilestones.remove(h.actor, h.path.id, h.path.milestone_id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/milestones/:milestone_id/issues',
      summary: "List a group milestone's issues the caller may read, by label priority",
      auth: 'required',
      pathParams: MilestonePath,
      input: PageQuery,
      response: { 200: Type.Array(IssueBasic) },
    },
    (h) => {
      const milestone = groupMilestones.get(h.actor, h.path.id, h.path.milestone_id)
      const group = access.group(h.actor, h.path.id)
      return h.sendPage(
        milestoneIssues(
          issues,
          h.actor,
          { kind: 'group', group },
          milestone.title,
          h.params,
          h.reply.compileSerializationSchema(Issue) as (issue: Issue) => string,
        ),
      )
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/milestones/:milestone_id/merge_requests',
      summary:
        "List a group milestone's merge requests (none: the server's merge requests have no milestone)",
      auth: 'required',
      pathParams: MilestonePath,
      input: PageQuery,
      response: { 200: Type.Array(MergeRequestBasic) },
    },
    (h) => {
      groupMilestones.get(h.actor, h.path.id, h.path.milestone_id)
      return h.sendPage({ items: [], page: pageOf(h.params), total: 0 })
    },
  )
}
