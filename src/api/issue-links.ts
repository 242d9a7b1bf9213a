/*
 * Issue links (`lib/api/issue_links.rb`): the issues linked to an issue, and links made and removed.
 * Shapes come from src/schema/issue-link.ts, as the server's.
 */
import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import { IssueLink, RelatedIssue, type IssueLinkType } from '../schema/issue-link.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'

/** The issue links group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export function issueLinks(http: Http) {
  const base = (project: ResourceRef, iid: number) => path`/projects/${project}/issues/${iid}/links`
  return {
    /**
     * `GET .../links`: the issues linked either way that the caller may read, oldest link first,
     * each with `issue_link_id` and `link_type` as seen from this issue (GitLab does not paginate it).
     */
    list: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      http.request('GET', base(project, iid), { ...options, response: Type.Array(RelatedIssue) }),
    /**
     * `POST .../links` -> 201 with the link. `blocks` and `is_blocked_by` on GitLab EE only (400 on
     * CE); an `is_blocked_by` link comes back as `blocks` from the target. 409 `Issue(s) already
     * assigned` when the two are linked either way; 403 without the Guest role on the target;
     * 404 for a target the caller cannot read. Retried only on 429.
     */
    create: (
      project: ResourceRef,
      iid: number,
      target: { project: ResourceRef; iid: number; linkType?: IssueLinkType },
      options: CallOptions = {},
    ) =>
      http.request('POST', base(project, iid), {
        ...options,
        json: {
          target_project_id: String(target.project),
          target_issue_iid: String(target.iid),
          ...(target.linkType ? { link_type: target.linkType } : {}),
        },
        response: IssueLink,
      }),
    /** `GET .../links/:issue_link_id`: one link of the issue (404 for a link of another issue). */
    get: (project: ResourceRef, iid: number, linkId: number, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/issues/${iid}/links/${linkId}`, {
        ...options,
        response: IssueLink,
      }),
    /** `DELETE .../links/:issue_link_id` -> 200 with the removed link; 404 `No Issue Link found` without the right. */
    remove: (project: ResourceRef, iid: number, linkId: number, options: CallOptions = {}) =>
      http.request('DELETE', path`/projects/${project}/issues/${iid}/links/${linkId}`, {
        ...options,
        response: IssueLink,
      }),
  }
}
/** The type of `client.issueLinks`. */
export type IssueLinksApi = ReturnType<typeof issueLinks>
