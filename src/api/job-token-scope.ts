import type { ResourceRef } from '../schema/common.js'
import {
  JobTokenGroupLink,
  JobTokenProjectLink,
  JobTokenScope,
  type JobTokenScopeUpdate,
} from '../schema/job-token-scope.js'
import { BasicProjectDetails } from '../schema/namespace.js'
import { BasicGroupDetails } from '../schema/runner.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/**
 * `lib/api/project_job_token_scope.rb`: which other projects' CI/CD job tokens reach a project (Maintainer).
 * The writes take the project's numeric id: GitLab declares `id` an Integer there (a path is a 400).
 */
export const jobTokenScope = (http: Http) => ({
  /** `GET /projects/:id/job_token_scope`: `inbound_enabled` (the limit) and the deprecated `outbound_enabled`. */
  get: (project: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/job_token_scope`, { ...options, response: JobTokenScope }),
  /** `PATCH /projects/:id/job_token_scope`: turns the limit on or off; 204. */
  update: (project: ResourceRef, settings: JobTokenScopeUpdate, options: CallOptions = {}) =>
    http.request<void>('PATCH', path`/projects/${project}/job_token_scope`, { ...options, json: settings }),
  /** `GET /projects/:id/job_token_scope/allowlist`, lazily: the project itself first, then those let in. */
  projects: (project: ResourceRef, options: PageOptions = {}) =>
    http.paginate<BasicProjectDetails>(path`/projects/${project}/job_token_scope/allowlist`, {
      ...options,
      item: BasicProjectDetails,
    }),
  /** `POST /projects/:id/job_token_scope/allowlist`: lets `targetProjectId`'s job tokens in. */
  addProject: (project: number, targetProjectId: number, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/job_token_scope/allowlist`, {
      ...options,
      json: { target_project_id: targetProjectId },
      response: JobTokenProjectLink,
    }),
  /** `DELETE /projects/:id/job_token_scope/allowlist/:target_project_id`; 204. */
  removeProject: (project: number, targetProjectId: number, options: CallOptions = {}) =>
    http.request<void>(
      'DELETE',
      path`/projects/${project}/job_token_scope/allowlist/${targetProjectId}`,
      options,
    ),
  /** `GET /projects/:id/job_token_scope/groups_allowlist`, lazily. */
  groups: (project: ResourceRef, options: PageOptions = {}) =>
    http.paginate<BasicGroupDetails>(path`/projects/${project}/job_token_scope/groups_allowlist`, {
      ...options,
      item: BasicGroupDetails,
    }),
  /** `POST /projects/:id/job_token_scope/groups_allowlist`: lets the projects in `targetGroupId` (and below) in. */
  addGroup: (project: number, targetGroupId: number, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/job_token_scope/groups_allowlist`, {
      ...options,
      json: { target_group_id: targetGroupId },
      response: JobTokenGroupLink,
    }),
  /** `DELETE /projects/:id/job_token_scope/groups_allowlist/:target_group_id`; 204. */
  removeGroup: (project: number, targetGroupId: number, options: CallOptions = {}) =>
    http.request<void>(
      'DELETE',
      path`/projects/${project}/job_token_scope/groups_allowlist/${targetGroupId}`,
      options,
    ),
})
/** The type of `client.jobTokenScope`. */
export type JobTokenScopeApi = ReturnType<typeof jobTokenScope>
