import type { ResourceRef } from '../schema/common.js'
import type { GroupProjectsQuery } from '../schema/group-projects.js'
import { Group, Project } from '../schema/namespace.js'
import type { CallOptions, Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** The groups group of the client. */
export const groups = (http: Http) => ({
  /** `GET /groups/:id`, by numeric id or full path (`acme/platform`). 404 when not visible. */
  get: (group: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/groups/${group}`, { ...options, response: Group }),
  /**
   * `GET /groups/:id/projects`, lazily: the projects the caller can read, the group's own or (with
   * `include_subgroups: true`) its whole subtree. 404 when the group is not visible.
   */
  projects: (
    group: ResourceRef,
    query: Omit<GroupProjectsQuery, 'page' | 'per_page'> = {},
    options: PageOptions = {},
  ) =>
    http.paginate<Project>(path`/groups/${group}/projects`, {
      ...options,
      query: query as Query,
      item: Project,
    }),
})
/** The type of `client.groups`. */
export type GroupsApi = ReturnType<typeof groups>
