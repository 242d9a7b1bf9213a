import { Type, type TObject } from '@sinclair/typebox'
import {
  PageQuery,
  ResourceIterationEvent,
  ResourceLabelEvent,
  ResourceMilestoneEvent,
  ResourceStateEvent,
  ResourceWeightEvent,
} from '../../schema/index.js'
import { pageOf, slicePage } from '../grape/pagination.js'
import type { EventKind } from '../services/resource-events.js'
import type { ApiContext } from './context.js'

/** `:eventable_id` and `:event_id` are Grape's `[Integer, String]` and String: read with `to_i`, never refused. */
const IssuePath = Type.Object({ id: Type.String(), eventable_id: Type.String() })
const EventPath = Type.Object({ id: Type.String(), eventable_id: Type.String(), event_id: Type.String() })

/**
 * An issue's resource events: label, milestone and state events, and on EE weight and iteration
 * events (`lib/api/resource_*_events.rb`, `ee/lib/api/resource_*_events.rb`); every call
 * authenticates first.
 */
export function resourceEventRoutes(api: ApiContext): void {
  const { route, access, instance } = api
  const { resourceEvents: events } = api.services
  const kinds: [EventKind, TObject, string][] = [
    ['label', ResourceLabelEvent, 'label'],
    ['milestone', ResourceMilestoneEvent, 'milestone'],
    ['state', ResourceStateEvent, 'state'],
    ...(instance.edition === 'ee'
      ? ([
          ['weight', ResourceWeightEvent, 'weight'],
          ['iteration', ResourceIterationEvent, 'iteration'],
        ] as [EventKind, TObject, string][])
      : []),
  ]
  for (const [kind, schema, what] of kinds) {
    route(
      {
        method: 'GET',
        url: `/api/v4/projects/:id/issues/:eventable_id/resource_${kind}_events`,
        summary: `List the ${what} events of an issue`,
        auth: 'required',
        pathParams: IssuePath,
        input: PageQuery,
        response: { 200: Type.Array(schema) },
      },
      (h) => {
        const all = events.list(kind, h.actor, access.project(h.actor, h.path.id), h.path.eventable_id)
        return h.sendPage(slicePage(all as unknown[], pageOf(h.params)))
      },
    )
    route(
      {
        method: 'GET',
        url: `/api/v4/projects/:id/issues/:eventable_id/resource_${kind}_events/:event_id`,
        summary: `Get one ${what} event of an issue`,
        auth: 'required',
        pathParams: EventPath,
        response: { 200: schema },
      },
      (h) =>
        events.get(kind, h.actor, access.project(h.actor, h.path.id), h.path.eventable_id, h.path.event_id),
    )
  }
}
