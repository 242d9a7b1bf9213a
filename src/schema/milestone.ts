import { Type, type Static } from '@sinclair/typebox'
import { DateString, Nullable, PageQuery, Timestamp } from './common.js'
import { boolParam, dateTimeParam, intArrayParam } from './params.js'

export const MilestoneState = Type.Union([Type.Literal('active'), Type.Literal('closed')])

/** `Entities::Milestone` (`lib/api/entities/milestone.rb`): the milestone embedded in issues. */
export const Milestone = Type.Object(
  {
    id: Type.Integer(),
    iid: Type.Integer(),
    project_id: Type.Optional(Type.Integer()),
    group_id: Type.Optional(Type.Integer()),
    title: Type.String(),
    description: Nullable(Type.String()),
    state: MilestoneState,
    created_at: Timestamp,
    updated_at: Timestamp,
    due_date: Nullable(DateString),
    start_date: Nullable(DateString),
    expired: Type.Boolean(),
    web_url: Type.String(),
  },
  { title: 'Milestone' },
)
export type Milestone = Static<typeof Milestone>

/**
 * A project's milestone as the milestone routes answer it: `project_id` always set, after `iid` as
 * GitLab writes it (an optional key would be written last).
 */
export const ProjectMilestone = Type.Object(
  {
    id: Type.Integer(),
    iid: Type.Integer(),
    project_id: Type.Integer(),
    ...Type.Omit(Milestone, ['id', 'iid', 'project_id', 'group_id']).properties,
  },
  { title: 'ProjectMilestone' },
)
export type ProjectMilestone = Static<typeof ProjectMilestone>

/** A group's milestone as the milestone routes answer it: `group_id` after `iid`. */
export const GroupMilestone = Type.Object(
  {
    id: Type.Integer(),
    iid: Type.Integer(),
    group_id: Type.Integer(),
    ...Type.Omit(Milestone, ['id', 'iid', 'project_id', 'group_id']).properties,
  },
  { title: 'GroupMilestone' },
)
export type GroupMilestone = Static<typeof GroupMilestone>

/**
 * `GET /projects/:id/milestones` (`lib/api/milestone_responses.rb` `list_params`, from GitLab 16.7):
 * `title` matches exactly, `search` title or description; `include_ancestors` (or the deprecated
 * `include_parent_milestones`) adds the milestones of the project's groups. Before 16.7 only
 * `include_parent_milestones` exists, with a default of false (the routes say which applies).
 */
export const MilestoneListQuery = Type.Object(
  {
    state: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('closed'), Type.Literal('all')], { default: 'all' }),
    ),
    iids: Type.Optional(intArrayParam()),
    title: Type.Optional(Type.String()),
    search: Type.Optional(Type.String()),
    include_parent_milestones: Type.Optional(boolParam({ deprecated: true })),
    include_ancestors: Type.Optional(boolParam()),
    updated_before: Type.Optional(dateTimeParam()),
    updated_after: Type.Optional(dateTimeParam()),
    ...PageQuery.properties,
  },
  {
    title: 'MilestoneListQuery',
    'x-mutually-exclusive': [['include_ancestors', 'include_parent_milestones']],
  },
)
export type MilestoneListQuery = Static<typeof MilestoneListQuery>

const milestoneFields = {
  description: Type.Optional(Type.String()),
  due_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  start_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
}

/** `POST /projects/:id/milestones`. */
export const MilestoneCreate = Type.Object({ title: Type.String(), ...milestoneFields })
export type MilestoneCreate = Static<typeof MilestoneCreate>

/** `PUT /projects/:id/milestones/:milestone_id` (`update_params`): at least one of them. */
export const MilestoneUpdate = Type.Object(
  {
    title: Type.Optional(Type.String()),
    state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('activate')])),
    ...milestoneFields,
  },
  { 'x-at-least-one-of': ['title', 'description', 'start_date', 'due_date', 'state_event'] },
)
export type MilestoneUpdate = Static<typeof MilestoneUpdate>
