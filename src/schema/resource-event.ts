import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp, UserBasic } from './common.js'
import { IssueIteration } from './issue.js'
import { LabelDetail } from './label.js'
import { Milestone } from './milestone.js'

/** The keys every resource event opens with (`lib/api/entities/resource_*_event.rb`). */
const eventHead = {
  id: Type.Integer(),
  user: Nullable(UserBasic),
  created_at: Timestamp,
  resource_type: Type.String({ description: 'Issue' }),
  resource_id: Type.Integer(),
}
const Action = Type.Union([Type.Literal('add'), Type.Literal('remove')])

/** `Entities::ResourceLabelEvent`: a label added to or removed from an issue (null once deleted). */
export const ResourceLabelEvent = Type.Object(
  { ...eventHead, label: Nullable(LabelDetail), action: Action },
  { title: 'ResourceLabelEvent' },
)
export type ResourceLabelEvent = Static<typeof ResourceLabelEvent>

/** `Entities::ResourceMilestoneEvent`: the milestone set (`add`) or cleared (`remove`), the issue's state then. */
export const ResourceMilestoneEvent = Type.Object(
  { ...eventHead, milestone: Nullable(Milestone), action: Action, state: Type.String() },
  { title: 'ResourceMilestoneEvent' },
)
export type ResourceMilestoneEvent = Static<typeof ResourceMilestoneEvent>

/** `Entities::ResourceStateEvent`: the issue closed or reopened. */
export const ResourceStateEvent = Type.Object(
  {
    ...eventHead,
    source_commit: Nullable(Type.String()),
    source_merge_request_id: Nullable(Type.Integer()),
    state: Type.String({ description: 'closed or reopened' }),
  },
  { title: 'ResourceStateEvent' },
)
export type ResourceStateEvent = Static<typeof ResourceStateEvent>

/** EE's `Entities::ResourceWeightEvent` (`ee/lib/api/entities/resource_weight_event.rb`): a new weight. */
export const ResourceWeightEvent = Type.Object(
  {
    id: Type.Integer(),
    user: Nullable(UserBasic),
    created_at: Timestamp,
    issue_id: Type.Integer(),
    weight: Nullable(Type.Integer()),
  },
  { title: 'ResourceWeightEvent' },
)
export type ResourceWeightEvent = Static<typeof ResourceWeightEvent>

/** EE's `Entities::ResourceIterationEvent`: the server has no iterations, so there are none. */
export const ResourceIterationEvent = Type.Object(
  { ...eventHead, iteration: Nullable(IssueIteration), action: Action },
  { title: 'ResourceIterationEvent' },
)
export type ResourceIterationEvent = Static<typeof ResourceIterationEvent>
