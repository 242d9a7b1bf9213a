import { Type } from '@sinclair/typebox'
import {
  Issue,
  GroupMilestone,
  IssueBasic,
  MergeRequestBasic,
  MilestoneCreate,
  MilestoneListQuery,
  MilestoneUpdate,
  PageQuery,
  ProjectMilestone,
} from '../../schema/index.js'
import { boolParam } from '../../schema/params.js'
import { pageOf } from '../grape/pagination.js'
import { applies } from '../domain/releases.js'
import type { ApiContext } from './context.js'
import { milestoneIssues } from './milestone-issues.js'
import { IdPath } from './paths.js'

const MilestonePath = Type.Object({ id: Type.String(), milestone_id: Type.Integer() })

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
  const { route, access } = api
  const { projectMilestones, issues } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/milestones',
      summary: "List a project's milestones",
      auth: 'required',
      pathParams: IdPath,
      input: applies(api.instance.version, 'milestoneIncludeAncestors') ? MilestoneListQuery : ListBefore167,
      response: { 200: Type.Array(Type.Union([ProjectMilestone, GroupMilestone])) },
    },
    (h) => h.sendPage(projectMilestones.list(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/milestones/:milestone_id',
      summary: 'Read one milestone by its id',
      auth: 'required',
      pathParams: MilestonePath,
      response: { 200: ProjectMilestone },
    },
    (h) => projectMilestones.get(h.actor, h.path.id, h.path.milestone_id),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/milestones',
      summary: 'Create a milestone (Reporter and up; Developer before 15.0)',
      auth: 'required',
      pathParams: IdPath,
      input: MilestoneCreate,
      response: { 201: ProjectMilestone },
    },
    (h) => h.reply.code(201).send(projectMilestones.create(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/milestones/:milestone_id',
      summary: 'Edit, close or reopen a milestone (Reporter and up; Developer before 15.0)',
      auth: 'required',
      pathParams: MilestonePath,
      input: MilestoneUpdate,
      response: { 200: ProjectMilestone },
    },
    (h) => projectMilestones.update(h.actor, h.path.id, h.path.milestone_id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/milestones/:milestone_id',
      summary: 'Delete a milestone (Reporter and up; Developer before 15.0); its issues lose it',
      auth: 'required',
      pathParams: MilestonePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      projectMilestones.remove(h.actor, h.path.id, h.path.milestone_id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/milestones/:milestone_id/issues',
      summary: "List a milestone's issues the caller may read, by label priority",
      auth: 'required',
      pathParams: MilestonePath,
      input: PageQuery,
      response: { 200: Type.Array(IssueBasic) },
    },
    (h) => {
      const milestone = projectMilestones.get(h.actor, h.path.id, h.path.milestone_id)
      const project = access.project(h.actor, h.path.id)
      return h.sendPage(
        milestoneIssues(
          issues,
          h.actor,
          { kind: 'project', project },
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
      url: '/api/v4/projects/:id/milestones/:milestone_id/merge_requests',
      summary: "List a milestone's merge requests (none: the server's merge requests have no milestone)",
      auth: 'required',
      pathParams: MilestonePath,
      input: PageQuery,
      response: { 200: Type.Array(MergeRequestBasic) },
    },
    (h) => {
      projectMilestones.get(h.actor, h.path.id, h.path.milestone_id)
      return h.sendPage({ items: [], page: pageOf(h.params), total: 0 })
    },
  )
}
