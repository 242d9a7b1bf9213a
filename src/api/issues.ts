import type { Issue, IssueCreate, IssueListQuery, IssueUpdate, ResourceRef } from '../schema/index.js'
import type { CallOptions, Http, Query } from './http.js'
import { path } from './path.js'
import type { QueryValue } from './query.js'

/** List parameters without the pagination ones, which the iterator owns. */
export type IssueListParams = Omit<IssueListQuery, 'page' | 'per_page' | 'cursor'>

/** Comma-separated in GitLab's documentation: sent as `labels=a,b`, the form every release reads. */
const CSV_KEYS = new Set(['labels', 'add_labels', 'remove_labels'])

function encode(params: object): Query {
  const out: Query = {}
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    if (CSV_KEYS.has(key) && Array.isArray(value)) out[key] = value.join(',')
    else if (key === 'not' && value && typeof value === 'object') out[key] = encode(value)
    else out[key] = value as QueryValue
  }
  return out
}

/** spec 4.2-4.3: issues of projects and groups. */
export function issues(http: Http) {
  return {
    /** `GET /projects/:id/issues`, lazily, 100 per page. Keyset pagination with `{ pagination: 'keyset' }`. */
    list: (project: ResourceRef, query: IssueListParams = {}, options: CallOptions = {}) =>
      http.paginate<Issue>(path`/projects/${project}/issues`, { ...options, query: encode(query) }),
    /** `GET /groups/:id/issues` (the group and its subgroups), lazily. */
    listGroup: (group: ResourceRef, query: IssueListParams = {}, options: CallOptions = {}) =>
      http.paginate<Issue>(path`/groups/${group}/issues`, { ...options, query: encode(query) }),
    /** `GET /issues`: the caller's issues (`scope` defaults to `created_by_me` on GitLab), lazily. */
    listAll: (query: IssueListParams = {}, options: CallOptions = {}) =>
      http.paginate<Issue>('/issues', { ...options, query: encode(query) }),
    /** `GET /projects/:id/issues/:issue_iid`. Throws GitLabApiError 404 when missing or hidden. */
    get: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      http.request<Issue>('GET', path`/projects/${project}/issues/${iid}`, options),
    /** `GET /issues/:id` by global id (administrators). */
    getById: (id: number, options: CallOptions = {}) =>
      http.request<Issue>('GET', path`/issues/${id}`, options),
    /** `POST /projects/:id/issues`. Not retried except on 429, so it never creates twice. */
    create: (project: ResourceRef, body: IssueCreate, options: CallOptions = {}) =>
      http.request<Issue>('POST', path`/projects/${project}/issues`, { ...options, json: encode(body) }),
    /** `PUT /projects/:id/issues/:issue_iid`: edit, or close/reopen with `state_event`. */
    update: (project: ResourceRef, iid: number, body: IssueUpdate, options: CallOptions = {}) =>
      http.request<Issue>('PUT', path`/projects/${project}/issues/${iid}`, {
        ...options,
        json: encode(body),
      }),
    /** `DELETE /projects/:id/issues/:issue_iid` (owners and administrators). */
    remove: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/issues/${iid}`, options),
  }
}
export type IssuesApi = ReturnType<typeof issues>
