/*
 * The Events API (`lib/api/events.rb`, `lib/api/project_events.rb`): what people did in projects
 * (issues opened and closed, comments, milestones, members joining and leaving, pushes), newest
 * first unless `sort: 'asc'`. GitLab pages first and then drops the events the caller may not see:
 * a page may hold fewer than `per_page`, and `X-Total` counts them all.
 */
import type { ResourceRef } from '../schema/common.js'
import { Event, type CurrentUserEventQuery, type EventListQuery } from '../schema/event.js'
import type { Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

type Filters = Omit<EventListQuery, 'page' | 'per_page'>

/** The events group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export function events(http: Http) {
  const list = (url: string, query: object, options: Omit<PageOptions, 'item'>) =>
    http.paginate<Event>(url, { ...options, query: query as Query, item: Event })
  return {
    /** `GET /events`, lazily: the caller's own events; `scope: 'all'` every event of their projects. */
    mine: (
      query: Omit<CurrentUserEventQuery, 'page' | 'per_page'> = {},
      options: Omit<PageOptions, 'item'> = {},
    ) => list('/events', query, options),
    /** `GET /users/:id/events` (id or username), lazily: the user's events in projects the caller may see. */
    ofUser: (user: ResourceRef, query: Filters = {}, options: Omit<PageOptions, 'item'> = {}) =>
      list(path`/users/${user}/events`, query, options),
    /** `GET /projects/:id/events`, lazily: the project's events the caller may see. */
    ofProject: (project: ResourceRef, query: Filters = {}, options: Omit<PageOptions, 'item'> = {}) =>
      list(path`/projects/${project}/events`, query, options),
  }
}
/** The type of `client.events`. */
export type EventsApi = ReturnType<typeof events>
