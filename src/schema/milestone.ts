import { Type, type Static } from '@sinclair/typebox'
import { DateString, Nullable, Timestamp } from './common.js'

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
