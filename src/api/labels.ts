/*
 * A project's and a group's labels (`lib/api/labels.rb`, `lib/api/group_labels.rb`,
 * `lib/api/subscriptions.rb`). A label is named by its id or its title (the client encodes it).
 * Shapes come from src/schema, written once.
 */
import type { ResourceRef } from '../schema/common.js'
import {
  GroupLabel,
  ProjectLabel,
  type GroupLabelCreate,
  type GroupLabelUpdate,
  type LabelCreate,
  type LabelUpdate,
} from '../schema/label.js'
import type { CallOptions, Http, NotModified } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Options of `list`: those of a paginated read and GitLab's `search` (inside titles). */
export interface LabelListOptions extends Omit<PageOptions, 'item'> {
  search?: string
}

/**
 * The labels group of the client. Writes need Planner or up (403 otherwise); a label the project lacks
 * is 404 `404 Label Not Found`, a title it has 409 `Label already exists`, a refused model 400 with
 * GitLab's `message` (`{"color":["must be a valid color code"]}`).
 */
export const labels = (http: Http) => {
  const one = (project: ResourceRef, label: number | string) => path`/projects/${project}/labels/${label}`
  const post304 = (route: string, options: CallOptions): Promise<ProjectLabel | NotModified> =>
    http.request('POST', route, { ...options, response: ProjectLabel })
  return {
    /** `GET /projects/:id/labels`, lazily, by title. */
    list: (project: ResourceRef, { search, ...options }: LabelListOptions = {}) =>
      http.paginate<ProjectLabel>(path`/projects/${project}/labels`, {
        ...options,
        query: { ...options.query, ...(search === undefined ? {} : { search }) },
        item: ProjectLabel,
      }),
    /** `GET /projects/:id/labels/:label_id`. */
    get: (project: ResourceRef, label: number | string, options: CallOptions = {}) =>
      http.request('GET', one(project, label), { ...options, response: ProjectLabel }),
    /** `POST /projects/:id/labels` -> 201; `color` is `#RRGGBB`, `#RGB` or a CSS color name (retried only on 429). */
    create: (project: ResourceRef, body: LabelCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/labels`, {
        ...options,
        json: body,
        response: ProjectLabel,
      }),
    /** `PUT /projects/:id/labels/:label_id`: `new_name`, `color`, `description`, `priority` (null: none). */
    update: (project: ResourceRef, label: number | string, body: LabelUpdate, options: CallOptions = {}) =>
      http.request('PUT', one(project, label), { ...options, json: body, response: ProjectLabel }),
    /** `DELETE /projects/:id/labels/:label_id` -> 204; the issues that had it lose it. */
    remove: (project: ResourceRef, label: number | string, options: CallOptions = {}) =>
      http.request<void>('DELETE', one(project, label), options),
    /** `POST .../subscribe` -> the label (`subscribed: true`), or NOT_MODIFIED when already subscribed. */
    subscribe: (project: ResourceRef, label: number | string, options: CallOptions = {}) =>
      post304(`${one(project, label)}/subscribe`, options),
    /** `POST .../unsubscribe` -> the label (`subscribed: false`), or NOT_MODIFIED when not subscribed. */
    unsubscribe: (project: ResourceRef, label: number | string, options: CallOptions = {}) =>
      post304(`${one(project, label)}/unsubscribe`, options),
    /**
     * `PUT /projects/:id/labels/:name/promote` -> the group label it became (same id); the same title in
     * the group's other projects is merged into it. 400 for a project outside a group.
     */
    promote: (project: ResourceRef, label: number | string, options: CallOptions = {}) =>
      http.request('PUT', `${one(project, label)}/promote`, { ...options, response: GroupLabel }),
    /** A group's labels (`lib/api/group_labels.rb`): the same rules, no priority. */
    group: groupLabels(http),
  }
}

/** `client.labels.group`: a group's labels, with its ancestors' in lists and reads. */
const groupLabels = (http: Http) => {
  const one = (group: ResourceRef, label: number | string) => path`/groups/${group}/labels/${label}`
  const post304 = (route: string, options: CallOptions): Promise<GroupLabel | NotModified> =>
    http.request('POST', route, { ...options, response: GroupLabel })
  return {
    /** `GET /groups/:id/labels`, lazily, by title (the ancestors' too). */
    list: (group: ResourceRef, { search, ...options }: LabelListOptions = {}) =>
      http.paginate<GroupLabel>(path`/groups/${group}/labels`, {
        ...options,
        query: { ...options.query, ...(search === undefined ? {} : { search }) },
        item: GroupLabel,
      }),
    /** `GET /groups/:id/labels/:name`. */
    get: (group: ResourceRef, label: number | string, options: CallOptions = {}) =>
      http.request('GET', one(group, label), { ...options, response: GroupLabel }),
    /** `POST /groups/:id/labels` -> 201; 409 `Label already exists` for a title the group or its ancestors have. */
    create: (group: ResourceRef, body: GroupLabelCreate, options: CallOptions = {}) =>
      http.request('POST', path`/groups/${group}/labels`, { ...options, json: body, response: GroupLabel }),
    /** `PUT /groups/:id/labels/:name`: `new_name`, `color`, `description`. */
    update: (group: ResourceRef, label: number | string, body: GroupLabelUpdate, options: CallOptions = {}) =>
      http.request('PUT', one(group, label), { ...options, json: body, response: GroupLabel }),
    /** `DELETE /groups/:id/labels/:name` -> 204. */
    remove: (group: ResourceRef, label: number | string, options: CallOptions = {}) =>
      http.request<void>('DELETE', one(group, label), options),
    /** `POST .../subscribe` -> the label, or NOT_MODIFIED when already subscribed. */
    subscribe: (group: ResourceRef, label: number | string, options: CallOptions = {}) =>
      post304(`${one(group, label)}/subscribe`, options),
    /** `POST .../unsubscribe` -> the label, or NOT_MODIFIED when not subscribed. */
    unsubscribe: (group: ResourceRef, label: number | string, options: CallOptions = {}) =>
      post304(`${one(group, label)}/unsubscribe`, options),
  }
}
/** The type of `client.labels`. */
export type LabelsApi = ReturnType<typeof labels>
