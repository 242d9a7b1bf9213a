/*
 * A project's and a group's milestones (`lib/api/project_milestones.rb`, `lib/api/group_milestones.rb`,
 * `lib/api/milestone_responses.rb`). Shapes come from src/schema, written once.
 */
import type { ResourceRef } from '../schema/common.js'
import { IssueBasic } from '../schema/issue-link.js'
import { MergeRequestBasic } from '../schema/merge-request.js'
import { Type } from '@sinclair/typebox'
import {
  GroupMilestone,
  ProjectMilestone,
  type MilestoneCreate,
  type MilestoneListQuery,
  type MilestoneUpdate,
} from '../schema/milestone.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Options of `list`: those of a paginated read and GitLab's filters (`state`, `title`, `search`, `iids` ...). */
export interface MilestoneListOptions
  extends Omit<PageOptions, 'item'>, Omit<MilestoneListQuery, 'page' | 'per_page'> {}

/**
 * The milestones group of the client. Writes need Reporter or up (Developer before GitLab 15.0); a
 * milestone the project lacks is 404 `404 Not found`; a refused model 400 `Failed to create milestone
 * {:title=>[...]}` as GitLab words it.
 */
export const milestones = (http: Http) => {
  const one = (project: ResourceRef, id: number) => path`/projects/${project}/milestones/${id}`
  return {
    /** `GET /projects/:id/milestones`, lazily; every state unless `state` says otherwise. */
    list: (project: ResourceRef, options: MilestoneListOptions = {}) => {
      const { state, iids, title, search, include_parent_milestones, include_ancestors, ...call } = options
      const { updated_before, updated_after, ...rest } = call
      const filters = { state, iids, title, search, include_parent_milestones, include_ancestors }
      // With `include_ancestors` the project's groups' milestones come too.
      return http.paginate<ProjectMilestone | GroupMilestone>(path`/projects/${project}/milestones`, {
        ...rest,
        query: { ...rest.query, ...filters, updated_before, updated_after },
        item: Type.Union([ProjectMilestone, GroupMilestone]),
      })
    },
    /** `GET /projects/:id/milestones/:milestone_id` (the milestone's id, not its iid). */
    get: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('GET', one(project, id), { ...options, response: ProjectMilestone }),
    /** `POST /projects/:id/milestones` -> 201 (retried only on 429). Dates are `YYYY-MM-DD`. */
    create: (project: ResourceRef, body: MilestoneCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/milestones`, {
        ...options,
        json: body,
        response: ProjectMilestone,
      }),
    /** `PUT /projects/:id/milestones/:milestone_id`: fields, or `state_event` `close` / `activate`. */
    update: (project: ResourceRef, id: number, body: MilestoneUpdate, options: CallOptions = {}) =>
      http.request('PUT', one(project, id), { ...options, json: body, response: ProjectMilestone }),
    /** `DELETE /projects/:id/milestones/:milestone_id` -> 204; its issues keep no milestone. */
    remove: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', one(project, id), options),
    /** `GET .../issues`, lazily: the milestone's issues the caller may read (`IssueBasic`), by label priority. */
    issues: (project: ResourceRef, id: number, options: Omit<PageOptions, 'item'> = {}) =>
      http.paginate<IssueBasic>(`${one(project, id)}/issues`, { ...options, item: IssueBasic }),
    /** `GET .../merge_requests`, lazily (`MergeRequestBasic`). */
    mergeRequests: (project: ResourceRef, id: number, options: Omit<PageOptions, 'item'> = {}) =>
      http.paginate<MergeRequestBasic>(`${one(project, id)}/merge_requests`, {
        ...options,
        item: MergeRequestBasic,
      }),
    /**
     * `POST /projects/:id/milestones/:milestone_id/promote` -> 200 (GitLab's body is the status); the
     * milestone becomes the group's, the group's other projects' of the same title merged into it.
     */
    promote: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<number>('POST', `${one(project, id)}/promote`, options),
    /** A group's milestones (`lib/api/group_milestones.rb`), iids counted per group. */
    group: groupMilestones(http),
  }
}

/** `client.milestones.group`: a group's milestones. */
const groupMilestones = (http: Http) => {
  const one = (group: ResourceRef, id: number) => path`/groups/${group}/milestones/${id}`
  return {
    /** `GET /groups/:id/milestones`, lazily, with the same filters as a project's. */
    list: (group: ResourceRef, options: MilestoneListOptions = {}) => {
      const { state, iids, title, search, include_parent_milestones, include_ancestors, ...call } = options
      const { updated_before, updated_after, ...rest } = call
      const filters = { state, iids, title, search, include_parent_milestones, include_ancestors }
      return http.paginate<GroupMilestone>(path`/groups/${group}/milestones`, {
        ...rest,
        query: { ...rest.query, ...filters, updated_before, updated_after },
        item: GroupMilestone,
      })
    },
    /** `GET /groups/:id/milestones/:milestone_id` (the id, not the iid). */
    get: (group: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('GET', one(group, id), { ...options, response: GroupMilestone }),
    /** `POST /groups/:id/milestones` -> 201. */
    create: (group: ResourceRef, body: MilestoneCreate, options: CallOptions = {}) =>
      http.request('POST', path`/groups/${group}/milestones`, {
        ...options,
        json: body,
        response: GroupMilestone,
      }),
    /** `PUT /groups/:id/milestones/:milestone_id`: fields, or `state_event`. */
    update: (group: ResourceRef, id: number, body: MilestoneUpdate, options: CallOptions = {}) =>
      http.request('PUT', one(group, id), { ...options, json: body, response: GroupMilestone }),
    /** `DELETE /groups/:id/milestones/:milestone_id` -> 204. */
    remove: (group: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', one(group, id), options),
    /** `GET .../issues`, lazily: the group's issues of the milestone the caller may read. */
    issues: (group: ResourceRef, id: number, options: Omit<PageOptions, 'item'> = {}) =>
      http.paginate<IssueBasic>(`${one(group, id)}/issues`, { ...options, item: IssueBasic }),
    /** `GET .../merge_requests`, lazily. */
    mergeRequests: (group: ResourceRef, id: number, options: Omit<PageOptions, 'item'> = {}) =>
      http.paginate<MergeRequestBasic>(`${one(group, id)}/merge_requests`, {
        ...options,
        item: MergeRequestBasic,
      }),
  }
}
/** The type of `client.milestones`. */
export type MilestonesApi = ReturnType<typeof milestones>
