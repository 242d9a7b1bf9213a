/*
 * Issues (spec/gitlab-api-subset.md 4.2-4.3): lists of a project, a group or the caller, and one
 * issue's read, create, edit and delete. Shapes come from src/schema/issue.ts, written once.
 */
import type { TObject, TSchema } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import {
  Issue,
  IssueCreate,
  IssueListQuery,
  IssueNotFilters,
  IssueUpdate,
  type Issue as IssueRecord,
} from '../schema/issue.js'
import type { CallOptions, Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'
import type { QueryValue } from './query.js'

/**
 * The issue record as the client types it: the same schema, with GitLab's deprecated fields marked
 * so that editors strike them through (GitLab keeps both until API v5: doc/api/rest/deprecations.md).
 */
export type ClientIssue = Omit<IssueRecord, 'assignee' | 'epic_iid'> & {
  /** @deprecated The first of `assignees`; read `assignees`. */
  assignee: IssueRecord['assignee']
  /** @deprecated Read `epic.iid`. */
  epic_iid?: IssueRecord['epic_iid']
}

/** Create parameters (GitLab's doc/api/issues.md), `epic_iid` marked deprecated. */
export type IssueCreateParams = Omit<IssueCreate, 'epic_iid'> & {
  /** @deprecated Send `epic_id`. */
  epic_iid?: number
}
/** Edit parameters (GitLab's doc/api/issues.md), `epic_iid` marked deprecated. */
export type IssueUpdateParams = Omit<IssueUpdate, 'epic_iid'> & {
  /** @deprecated Send `epic_id`. */
  epic_iid?: number
}

/** List filters (GitLab's doc/api/issues.md) without `page` and `cursor`, which the iterator owns; `per_page` is allowed. */
export type IssueListParams = Omit<IssueListQuery, 'page' | 'cursor'>
/** Options of a list call: cancellation, timeout and headers (the query is the filters argument). */
export type IssueListOptions = Omit<PageOptions, 'query' | 'item'>

/**
 * Parameters GitLab documents as comma-separated strings (`labels=bug,ui`), read from the schemas'
 * `x-grape: csv` list-of-strings marks so that the list is not kept twice. Integer lists such as
 * `iids` and `assignee_ids` go as Rails arrays (`iids[]=1&iids[]=2`), and so does `assignee_username`,
 * which GitLab takes whole (`a,b` would be one username).
 */
const csvKeys = new Set(
  [IssueListQuery, IssueNotFilters, IssueCreate, IssueUpdate].flatMap((schema: TObject) =>
    Object.entries(schema.properties as Record<string, TSchema>)
      .filter(([, s]) => s['x-grape'] === 'csv' && (s.items as TSchema | undefined)?.type === 'string')
      .map(([key]) => key),
  ),
)

/** GitLab's wire form of typed parameters: string lists joined with commas, `not` kept a hash. */
function encode(params: object): Query {
  const out: Query = {}
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    if (csvKeys.has(key) && Array.isArray(value)) out[key] = value.join(',')
    else if (key === 'not' && value && typeof value === 'object' && !Array.isArray(value))
      out[key] = encode(value)
    else out[key] = value as QueryValue
  }
  return out
}

/**
 * The issues group of the client. Lists are lazy async iterators, 100 per page, one page in memory
 * (paginate.ts); single calls resolve with the issue record. Every call throws GitLabApiError with
 * GitLab's status and body (a private project the caller cannot see is a 404).
 */
export function issues(http: Http) {
  const list = (route: string, query: IssueListParams, options: IssueListOptions) =>
    http.paginate<ClientIssue>(route, { ...options, query: encode(query), item: Issue })
  return {
    /**
     * `GET /projects/:id/issues` (GitLab's doc/api/issues.md). Offset pages by default; `{ pagination: 'keyset',
     * order_by: 'created_at' }` walks keyset cursors (GitLab 18.3+,
     * `lib/gitlab/pagination/keyset/header_builder.rb`).
     */
    list: (project: ResourceRef, query: IssueListParams = {}, options: IssueListOptions = {}) =>
      list(path`/projects/${project}/issues`, query, options),
    /** `GET /groups/:id/issues`: the group's and its subgroups' issues (GitLab's doc/api/issues.md; scope defaults to all). */
    listGroup: (group: ResourceRef, query: IssueListParams = {}, options: IssueListOptions = {}) =>
      list(path`/groups/${group}/issues`, query, options),
    /** `GET /issues`: issues the caller can see; GitLab's default scope is `created_by_me` (GitLab's doc/api/issues.md). */
    listAll: (query: IssueListParams = {}, options: IssueListOptions = {}) => list('/issues', query, options),
    /** `GET /projects/:id/issues/:issue_iid` (GitLab's doc/api/issues.md). 404 when missing or not visible. */
    get: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/issues/${iid}`, {
        ...options,
        response: Issue,
      }),
    /** `GET /issues/:id` by global id, administrators only (GitLab's doc/api/issues.md). */
    getById: (id: number, options: CallOptions = {}) =>
      http.request('GET', path`/issues/${id}`, { ...options, response: Issue }),
    /**
     * `POST /projects/:id/issues` -> 201 (GitLab's doc/api/issues.md). Retried only on 429 (retry.ts), so a proxy
     * error never files the issue twice; 400 `{"error":"title is missing"}` and the like otherwise.
     */
    create: (project: ResourceRef, body: IssueCreateParams, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/issues`, {
        ...options,
        json: encode(body),
        response: Issue,
      }),
    /** `PUT /projects/:id/issues/:issue_iid` (GitLab's doc/api/issues.md): edit, or close/reopen with `state_event`. */
    update: (project: ResourceRef, iid: number, body: IssueUpdateParams, options: CallOptions = {}) =>
      http.request('PUT', path`/projects/${project}/issues/${iid}`, {
        ...options,
        json: encode(body),
        response: Issue,
      }),
    /** `DELETE /projects/:id/issues/:issue_iid` -> 204, administrators and owners (GitLab's doc/api/issues.md). */
    remove: (project: ResourceRef, iid: number, options: CallOptions = {}): Promise<void> =>
      http.request<void>('DELETE', path`/projects/${project}/issues/${iid}`, options),
  }
}
/** The type of `client.issues`. */
export type IssuesApi = ReturnType<typeof issues>
