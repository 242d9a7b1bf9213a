import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import type { GroupProjectsQuery } from '../schema/group-projects.js'
import {
  GroupDetail,
  PublicGroupDetails,
  type GroupCreate,
  type GroupDeleteQuery,
  type GroupShare,
  type GroupTreeQuery,
  type GroupUpdate,
  type TransferLocationsQuery,
} from '../schema/group-write.js'
import { Group, Project } from '../schema/namespace.js'
import { ciVariables } from './ci-variables.js'
import type { CallOptions, Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

const Accepted = Type.Object({ message: Type.String() })

/**
 * The groups group of the client. A group the caller cannot see is 404 `404 Group Not Found`; a
 * write by someone who is not its Owner 403 `403 Forbidden`; invalid values 400 (on create
 * `{"message":"Failed to save group {:path=>[\"has already been taken\"]}"}`).
 */
export const groups = (http: Http) => {
  const tree =
    (below: 'subgroups' | 'descendant_groups') =>
    (group: ResourceRef, query: Omit<GroupTreeQuery, 'page' | 'per_page'> = {}, options: PageOptions = {}) =>
      http.paginate<Group>(path`/groups/${group}/${below}`, {
        ...options,
        query: query as Query,
        item: Group,
      })
  return {
    /** A group's CI/CD variables (`lib/api/ci/group_variables.rb`, Owner): as `projects.variables`. */
    variables: ciVariables(http, 'groups'),
    /** `GET /groups/:id`, by numeric id or full path (`acme/platform`). 404 when not visible. */
    get: (group: ResourceRef, options: CallOptions = {}) =>
      http.request('GET', path`/groups/${group}`, { ...options, response: GroupDetail }),
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
    /**
     * `POST /groups` -> 201: a top-level group (the user's `can_create_group`), or a subgroup with
     * `parent_id` (Maintainers and Owners of the parent). The caller becomes its Owner.
     */
    create: (body: GroupCreate, options: CallOptions = {}) =>
      http.request('POST', '/groups', { ...options, json: body, response: GroupDetail }),
    /** `PUT /groups/:id` (Owners): name, path, description, visibility. */
    edit: (group: ResourceRef, body: GroupUpdate, options: CallOptions = {}) =>
      http.request('PUT', path`/groups/${group}`, { ...options, json: body, response: GroupDetail }),
    /**
     * `DELETE /groups/:id` -> 202 (Owners). From GitLab 18.0 it marks the group for deletion (a
     * second call is 400); `permanently_remove` with the marked subgroup's `full_path` removes it.
     */
    remove: (group: ResourceRef, query: GroupDeleteQuery = {}, options: CallOptions = {}) =>
      http.request('DELETE', path`/groups/${group}`, {
        ...options,
        query: { ...options.query, ...query },
        response: Accepted,
      }),
    /** `GET /groups/:id/subgroups`, lazily: the children the caller can read. */
    subgroups: tree('subgroups'),
    /** `GET /groups/:id/descendant_groups`, lazily: every group below that the caller can read. */
    descendantGroups: tree('descendant_groups'),
    /** `POST /groups/:id/transfer` -> 201: under the group `parentId`, or to the top level without it. */
    transfer: (group: ResourceRef, parentId?: number, options: CallOptions = {}) =>
      http.request('POST', path`/groups/${group}/transfer`, {
        ...options,
        json: parentId === undefined ? {} : { group_id: parentId },
        response: GroupDetail,
      }),
    /** `GET /groups/:id/transfer_locations`, lazily (Owners): the groups `transfer` may move it under. */
    transferLocations: (
      group: ResourceRef,
      query: Omit<TransferLocationsQuery, 'page' | 'per_page'> = {},
      options: PageOptions = {},
    ) =>
      http.paginate<PublicGroupDetails>(path`/groups/${group}/transfer_locations`, {
        ...options,
        query: query as Query,
        item: PublicGroupDetails,
      }),
    /** `POST /groups/:id/share` -> 201 (Owners): the invited group's members reach it up to `group_access`. */
    share: (group: ResourceRef, body: GroupShare, options: CallOptions = {}) =>
      http.request('POST', path`/groups/${group}/share`, { ...options, json: body, response: GroupDetail }),
    /** `DELETE /groups/:id/share/:group_id` -> 204 (Owners). */
    unshare: (group: ResourceRef, invitedId: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/groups/${group}/share/${invitedId}`, options),
  }
}
/** The type of `client.groups`. */
export type GroupsApi = ReturnType<typeof groups>
