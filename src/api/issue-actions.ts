/*
 * What one does to an issue besides editing it (`lib/api/issues.rb`, `lib/api/subscriptions.rb`): reorder,
 * move, subscriptions, to-dos, and the lists around it. Shapes come from src/schema, written once.
 */
import type { Static, TSchema } from '@sinclair/typebox'
import { UserBasic, type ResourceRef } from '../schema/common.js'
import type { IssueMove, IssueReorder } from '../schema/issue-actions.js'
import { Issue } from '../schema/issue.js'
import { MergeRequest, MergeRequestBasic } from '../schema/merge-request.js'
import { Todo } from '../schema/todo.js'
import { UserAgentDetail } from '../schema/user-agent-detail.js'
import type { CallOptions, Http, NotModified } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Options of a list call: cancellation, timeout, headers and `perPage`. */
export type IssueActionListOptions = Omit<PageOptions, 'item'>

/**
 * The issue-actions group of the client. Lists are lazy async iterators (paginate.ts); every call
 * throws GitLabApiError with GitLab's status and body (404 `404 Issue Not Found`, 403, 400 ...).
 */
export function issueActions(http: Http) {
  const base = (project: ResourceRef, iid: number) => path`/projects/${project}/issues/${iid}`
  /** POSTs that answer 201 with a record, or 304 (NOT_MODIFIED) when nothing changed. */
  const post304 = <S extends TSchema>(
    route: string,
    schema: S,
    options: CallOptions,
  ): Promise<Static<S> | NotModified> => http.request('POST', route, { ...options, response: schema })
  return {
    /**
     * `PUT .../reorder` -> 200 with the issue: places it below `move_before_id` and above
     * `move_after_id` (global issue ids); give at least one. `order_by=relative_position`
     * lists the new order.
     */
    reorder: (project: ResourceRef, iid: number, body: IssueReorder, options: CallOptions = {}) =>
      http.request('PUT', `${base(project, iid)}/reorder`, {
        ...options,
        json: body,
        response: Issue,
      }),
    /**
     * `POST .../move` -> 201 with the new issue in `to_project_id` (the original is closed and its
     * `moved_to_id` names the new one). 400 `Cannot move issue to project it originates from!` and
     * `Cannot move issue due to insufficient permissions!`; 404 for a target the caller cannot see.
     * Retried only on 429, so an issue is never moved twice.
     */
    move: (project: ResourceRef, iid: number, body: IssueMove, options: CallOptions = {}) =>
      http.request('POST', `${base(project, iid)}/move`, {
        ...options,
        json: body,
        response: Issue,
      }),
    /** `POST .../subscribe` -> the issue (`subscribed: true`), or NOT_MODIFIED when already subscribed. */
    subscribe: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      post304(`${base(project, iid)}/subscribe`, Issue, options),
    /** `POST .../unsubscribe` -> the issue (`subscribed: false`), or NOT_MODIFIED when not subscribed. */
    unsubscribe: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      post304(`${base(project, iid)}/unsubscribe`, Issue, options),
    /** `POST .../todo` -> the caller's new pending to-do, or NOT_MODIFIED when one is pending already. */
    todo: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      post304(`${base(project, iid)}/todo`, Todo, options),
    /** `GET .../participants`, lazily: the author, the assignees and authors of user notes. */
    participants: (project: ResourceRef, iid: number, options: IssueActionListOptions = {}) =>
      http.paginate<UserBasic>(`${base(project, iid)}/participants`, { ...options, item: UserBasic }),
    /** `GET .../related_merge_requests`, lazily: merge requests that mention or close the issue. */
    relatedMergeRequests: (project: ResourceRef, iid: number, options: IssueActionListOptions = {}) =>
      http.paginate<MergeRequest>(`${base(project, iid)}/related_merge_requests`, {
        ...options,
        item: MergeRequest,
      }),
    /** `GET .../closed_by`, lazily: merge requests that close the issue when merged. */
    closedBy: (project: ResourceRef, iid: number, options: IssueActionListOptions = {}) =>
      http.paginate<MergeRequestBasic>(`${base(project, iid)}/closed_by`, {
        ...options,
        item: MergeRequestBasic,
      }),
    /**
     * `GET .../user_agent_detail`, administrators only (403 otherwise): the user agent and IP that
     * created the issue; 404 `404 UserAgentDetail Not Found` when it was not created through the API.
     */
    userAgentDetail: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      http.request('GET', `${base(project, iid)}/user_agent_detail`, {
        ...options,
        response: UserAgentDetail,
      }),
  }
}
/** The type of `client.issueActions`. */
export type IssueActionsApi = ReturnType<typeof issueActions>
