import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox'
import {
  Issue,
  IssueBasic,
  MergeRequestBasic,
  MilestoneCreate,
  MilestoneUpdate,
  PageQuery,
  type Milestone,
} from '../../schema/index.js'
import { pageOf, type PageOut } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { IssueListScope } from '../services/issues/list.js'
import type { ApiContext } from './context.js'
import { milestoneIssues } from './milestone-issues.js'
import { IdPath } from './paths.js'

const MilestonePath = Type.Object({ id: Type.String(), milestone_id: Type.Integer() })

/** What the milestone routes of a project or a group differ in. */
export interface MilestoneOwner<L extends TObject> {
  /** The URL's owner segment: `/api/v4/<segment>/:id/milestones`. */
  segment: 'projects' | 'groups'
  /** The owner's milestone service (services/project-milestones.ts, services/group-milestones.ts). */
  service: {
    list(actor: Actor, id: string, q: Static<L>): PageOut<Milestone>
    get(actor: Actor, id: string, milestoneId: number): Milestone
    create(actor: Actor, id: string, input: MilestoneCreate): Milestone
    update(actor: Actor, id: string, milestoneId: number, input: MilestoneUpdate): Milestone
    remove(actor: Actor, id: string, milestoneId: number): void
  }
  /** The list's parameters (they differ by release for projects) and one item of its answer. */
  listInput: L
  listItem: TSchema
  /** The entity one milestone is shown as. */
  entity: TSchema
  /** The issue lists a milestone's issues are read from. */
  scope(actor: Actor, id: string): IssueListScope
  /** The OpenAPI summaries, per route. */
  summaries: Record<'list' | 'get' | 'create' | 'update' | 'remove' | 'issues' | 'mergeRequests', string>
}

/**
 * The milestone routes a project and a group both serve (`lib/api/project_milestones.rb`,
 * `lib/api/group_milestones.rb`, their shared `lib/api/milestone_responses.rb`): every call authenticates.
 */
export function milestoneRoutes<L extends TObject>(api: ApiContext, owner: MilestoneOwner<L>): void {
  const { route } = api
  const { issues } = api.services
  const { service, entity, summaries } = owner
  const base = `/api/v4/${owner.segment}/:id/milestones`

  route(
    {
      method: 'GET',
      url: base,
      summary: summaries.list,
      auth: 'required',
      pathParams: IdPath,
      input: owner.listInput,
      response: { 200: Type.Array(owner.listItem) },
    },
    (h) => h.sendPage(service.list(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: `${base}/:milestone_id`,
      summary: summaries.get,
      auth: 'required',
      pathParams: MilestonePath,
      response: { 200: entity },
    },
    (h) => service.get(h.actor, h.path.id, h.path.milestone_id),
  )

  route(
    {
      method: 'POST',
      url: base,
      summary: summaries.create,
      auth: 'required',
      pathParams: IdPath,
      input: MilestoneCreate,
      response: { 201: entity },
    },
    (h) => h.reply.code(201).send(service.create(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: `${base}/:milestone_id`,
      summary: summaries.update,
      auth: 'required',
      pathParams: MilestonePath,
      input: MilestoneUpdate,
      response: { 200: entity },
    },
    (h) => service.update(h.actor, h.path.id, h.path.milestone_id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: `${base}/:milestone_id`,
      summary: summaries.remove,
      auth: 'required',
      pathParams: MilestonePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      service.remove(h.actor, h.path.id, h.path.milestone_id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: `${base}/:milestone_id/issues`,
      summary: summaries.issues,
      auth: 'required',
      pathParams: MilestonePath,
      input: PageQuery,
      response: { 200: Type.Array(IssueBasic) },
    },
    (h) => {
      const milestone = service.get(h.actor, h.path.id, h.path.milestone_id)
      return h.sendPage(
        milestoneIssues(
          issues,
          h.actor,
          owner.scope(h.actor, h.path.id),
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
      url: `${base}/:milestone_id/merge_requests`,
      summary: summaries.mergeRequests,
      auth: 'required',
      pathParams: MilestonePath,
      input: PageQuery,
      response: { 200: Type.Array(MergeRequestBasic) },
    },
    (h) => {
      service.get(h.actor, h.path.id, h.path.milestone_id)
      return h.sendPage({ items: [], page: pageOf(h.params), total: 0 })
    },
  )
}
