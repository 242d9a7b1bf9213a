import type { ResourceRef } from '../schema/common.js'
import { Group } from '../schema/namespace.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'

/** The groups group of the client. */
export const groups = (http: Http) => ({
  /** `GET /groups/:id`, by numeric id or full path (`acme/platform`). 404 when not visible. */
  get: (group: ResourceRef, options: CallOptions = {}) =>
    http.request<Group>('GET', path`/groups/${group}`, { ...options, response: Group }),
})
/** The type of `client.groups`. */
export type GroupsApi = ReturnType<typeof groups>
