import { Type } from '@sinclair/typebox'
import { CurrentUserEventQuery, Event, EventListQuery } from '../../schema/index.js'
import type { EventService } from '../services/events/events.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/**
 * The Events API (`lib/api/events.rb`, `lib/api/project_events.rb`): the caller's events (signed in),
 * a user's contributions and a project's events (anyone who may see them).
 */
export function eventRoutes(api: ApiContext, events: EventService): void {
  const { route } = api
  const list = { 200: Type.Array(Event) }

  route(
    {
      method: 'GET',
      url: '/api/v4/events',
      summary: "List the caller's events (scope=all: every event of the projects they are a member of)",
      auth: 'required',
      input: CurrentUserEventQuery,
      response: list,
    },
    (h) => h.sendPage(events.ofCurrentUser(h.actor, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/users/:id/events',
      summary: "List a user's contribution events (by id or username) in projects the caller may see",
      pathParams: IdPath,
      input: EventListQuery,
      response: list,
    },
    (h) => h.sendPage(events.ofUser(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/events',
      summary: "List a project's visible events",
      pathParams: IdPath,
      input: EventListQuery,
      response: list,
    },
    (h) => h.sendPage(events.ofProject(h.actor, h.path.id, h.params)),
  )
}
