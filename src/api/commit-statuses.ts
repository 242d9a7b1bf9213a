import type { ResourceRef } from '../schema/common.js'
import { CommitStatus, type CommitStatusCreate, type CommitStatusListQuery } from '../schema/commit-status.js'
import type { CallOptions, Http, Query } from './http.js'
import { path } from './path.js'

/**
 * `lib/api/commit_statuses.rb`: the statuses an external CI system posts on a commit (each a job in
 * its pipeline's `external` stage, which then takes its status into account), and a commit's list.
 */
export function commitStatuses(http: Http) {
  return {
    /**
     * `POST /projects/:id/statuses/:sha` (Developer, on a ref they may write): creates the status of
     * `name` (`default` without one), or moves its pending or running one to `state`.
     */
    create: (project: ResourceRef, sha: string, body: CommitStatusCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/statuses/${sha}`, {
        ...options,
        json: body,
        response: CommitStatus,
      }),
    /**
     * `GET /projects/:id/repository/commits/:sha/statuses` (Reporter), lazily: posted statuses and the
     * commit's pipelines' jobs, the latest of each name unless `all`, in id order.
     */
    list: (
      project: ResourceRef,
      sha: string,
      query: Omit<CommitStatusListQuery, 'page' | 'per_page'> = {},
      options: CallOptions = {},
    ) =>
      http.paginate<CommitStatus>(path`/projects/${project}/repository/commits/${sha}/statuses`, {
        ...options,
        query: query as Query,
      }),
  }
}
export type CommitStatusesApi = ReturnType<typeof commitStatuses>
