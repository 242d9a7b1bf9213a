/*
 * An issue's resource events (`lib/api/resource_*_events.rb`): what changed its labels, milestone
 * and state, and on GitLab EE its weight and iteration, by whom and when.
 */
import type { TObject } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import {
  ResourceIterationEvent,
  ResourceLabelEvent,
  ResourceMilestoneEvent,
  ResourceStateEvent,
  ResourceWeightEvent,
} from '../schema/resource-event.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

const SCHEMAS = {
  label: ResourceLabelEvent,
  milestone: ResourceMilestoneEvent,
  state: ResourceStateEvent,
  weight: ResourceWeightEvent,
  iteration: ResourceIterationEvent,
} satisfies Record<string, TObject>

/** The kinds of events, as GitLab's paths name them (`resource_<kind>_events`). */
export type ResourceEventKind = keyof typeof SCHEMAS
/** The record of each kind. */
export interface ResourceEventOf {
  label: ResourceLabelEvent
  milestone: ResourceMilestoneEvent
  state: ResourceStateEvent
  weight: ResourceWeightEvent
  iteration: ResourceIterationEvent
}

/** The resource events group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export function resourceEvents(http: Http) {
  const base = (kind: ResourceEventKind, project: ResourceRef, iid: number) =>
    `${path`/projects/${project}/issues/${iid}`}/resource_${kind}_events`
  return {
    /** `GET .../resource_<kind>_events`, lazily, 100 per page, oldest first. */
    list: <K extends ResourceEventKind>(
      kind: K,
      project: ResourceRef,
      iid: number,
      options: Omit<PageOptions, 'item'> = {},
    ) => http.paginate<ResourceEventOf[K]>(base(kind, project, iid), { ...options, item: SCHEMAS[kind] }),
    /** `GET .../resource_<kind>_events/:event_id`; 404 `404 Not found` for another issue's event. */
    get: <K extends ResourceEventKind>(
      kind: K,
      project: ResourceRef,
      iid: number,
      eventId: number,
      options: CallOptions = {},
    ) =>
      http.request('GET', `${base(kind, project, iid)}/${eventId}`, {
        ...options,
        response: SCHEMAS[kind],
      }) as Promise<ResourceEventOf[K]>,
  }
}
/** The type of `client.resourceEvents`. */
export type ResourceEventsApi = ReturnType<typeof resourceEvents>
