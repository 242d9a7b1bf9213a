import { CiLintResult, type CiLintCreate, type CiLintQuery } from '../schema/ci-lint.js'
import type { ResourceRef } from '../schema/common.js'
import type { CallOptions, Http, Query } from './http.js'
import { path } from './path.js'

/**
 * `lib/api/lint.rb`: a CI/CD configuration checked in a project's context. An invalid one is no error:
 * the answer says `valid: false` with GitLab's messages.
 */
export const ciLint = (http: Http) => ({
  /** `POST /projects/:id/ci/lint`: `content` checked (Developer; retried only on 429). */
  lint: (project: ResourceRef, params: CiLintCreate, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/ci/lint`, {
      ...options,
      json: params,
      response: CiLintResult,
    }),
  /** `GET /projects/:id/ci/lint`: the project's own `.gitlab-ci.yml` at `content_ref` (its default branch). */
  lintProject: (project: ResourceRef, query: CiLintQuery = {}, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/ci/lint`, {
      ...options,
      query: query as Query,
      response: CiLintResult,
    }),
})
/** The type of `client.ciLint`. */
export type CiLintApi = ReturnType<typeof ciLint>
