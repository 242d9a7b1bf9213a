import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { Note } from './note.js'
import { dateParam } from './params.js'

/** `Entities::PushEventPayload`: what one push did to one ref. */
export const PushEventPayload = Type.Object(
  {
    commit_count: Type.Integer(),
    action: Type.String({ description: 'created, removed or pushed' }),
    ref_type: Type.String({ description: 'branch or tag' }),
    commit_from: Nullable(Type.String()),
    commit_to: Nullable(Type.String()),
    ref: Nullable(Type.String()),
    commit_title: Nullable(Type.String()),
    ref_count: Nullable(Type.Integer()),
  },
  { title: 'PushEventPayload' },
)
export type PushEventPayload = Static<typeof PushEventPayload>

/**
 * `Entities::Event` (`lib/api/entities/event.rb`), in its key order: `note` for a comment, `author`
 * while the author exists, `push_data` for a push.
 */
export const Event = Type.Object(
  {
    id: Type.Integer(),
    project_id: Nullable(Type.Integer()),
    action_name: Type.String({
      description: 'opened, closed, commented on, pushed to, pushed new, deleted, ...',
    }),
    target_id: Nullable(Type.Integer()),
    target_iid: Nullable(Type.Integer()),
    target_type: Nullable(Type.String()),
    author_id: Type.Integer(),
    target_title: Nullable(Type.String()),
    created_at: Timestamp,
    note: Type.Optional(Note),
    author: Type.Optional(UserBasic),
    imported: Type.Boolean(),
    imported_from: Type.String(),
    push_data: Type.Optional(PushEventPayload),
    author_username: Nullable(Type.String()),
  },
  // `note`, `author` and `push_data` are exposed `if:` among the others, in place.
  { title: 'Event', 'x-optional-in-place': true },
)
export type Event = Static<typeof Event>

/** `Event.actions`: the `action` filter's values. */
export const EventActionName = Type.Union(
  [
    'created',
    'updated',
    'closed',
    'reopened',
    'pushed',
    'commented',
    'merged',
    'joined',
    'left',
    'destroyed',
    'expired',
    'approved',
  ].map((a) => Type.Literal(a)),
)

/** `Event.target_types`: the `target_type` filter's values. */
export const EventTargetType = Type.Union(
  ['issue', 'milestone', 'merge_request', 'note', 'project', 'snippet', 'user', 'wiki', 'design'].map((t) =>
    Type.Literal(t),
  ),
)

/**
 * `event_filter_params` and `sort_params` (`lib/api/helpers/events_helpers.rb`): `before` and `after`
 * are dates, each exclusive (before the day begins, after it ends).
 */
export const EventListQuery = Type.Object({
  ...PageQuery.properties,
  action: Type.Optional(EventActionName),
  target_type: Type.Optional(EventTargetType),
  before: Type.Optional(dateParam()),
  after: Type.Optional(dateParam()),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
})
export type EventListQuery = Static<typeof EventListQuery>

/** `GET /events`: `scope=all` lists every event of the projects the caller is a member of. */
export const CurrentUserEventQuery = Type.Object({
  scope: Type.Optional(Type.String()),
  ...EventListQuery.properties,
})
export type CurrentUserEventQuery = Static<typeof CurrentUserEventQuery>
