import type { ResourceRef } from '../schema/common.js'
import {
  RegistrationTokenReset,
  Runner,
  RunnerDetails,
  RunnerRegistration,
  RunnerTokenReset,
  type RunnerCreate,
  type RunnerListQuery,
  type RunnerRegister,
  type RunnerUpdate,
} from '../schema/runner.js'
import type { CallOptions, Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'
import type { ReleaseGuard } from './releases.js'

const RESET = 'Resetting a runner registration token'
const RESET_INSTEAD = 'create runners with authentication tokens (POST /user/runners) instead'

/** A runner list's filters (`type`, `paused`, `status`, `tag_list`, `version_prefix`, the deprecated `scope`). */
export type RunnerFilters = Omit<RunnerListQuery, 'page' | 'per_page'>

/**
 * Runners (`lib/api/ci/runners.rb`, `lib/api/user_runners.rb`): create one with an authentication
 * token (`POST /user/runners`), list, read, edit, delete, reset its token, enable it in other
 * projects. And the deprecated runner registration-token flow (deprecated in GitLab 15.6, 410 from 17.0: doc/api/runners.md): reset a registration token, register a
 * runner with one. Each call warns once (releases.ts) when the server's release has removed it:
 * the reset endpoints answer 410 from GitLab 18.0, registration with a token from 17.0.
 */
export function runners(http: Http, guard: ReleaseGuard) {
  const reset = async (route: string, options: CallOptions) => {
    await guard.removedIn(RESET, '18.0', RESET_INSTEAD)
    return http.request('POST', route, {
      ...options,
      response: RegistrationTokenReset,
    })
  }
  const list = (route: string, query: RunnerFilters, options: PageOptions) =>
    http.paginate<Runner>(route, {
      ...options,
      query: { ...(query as Query), ...options.query },
      item: Runner,
    })
  return {
    /** `POST /user/runners` -> the runner's id and its `glrt-` authentication token (shown once). */
    create: (body: RunnerCreate, options: CallOptions = {}) =>
      http.request('POST', '/user/runners', { ...options, json: body, response: RunnerRegistration }),
    /** `GET /runners`: the runners of projects the caller maintains and groups it owns, lazily. */
    list: (query: RunnerFilters = {}, options: PageOptions = {}) => list('/runners', query, options),
    /** `GET /runners/all` (administrators), lazily. */
    listAll: (query: RunnerFilters = {}, options: PageOptions = {}) => list('/runners/all', query, options),
    /** `GET /projects/:id/runners`: the project's, its groups' and the instance's runners (Maintainer). */
    listForProject: (project: ResourceRef, query: RunnerFilters = {}, options: PageOptions = {}) =>
      list(path`/projects/${project}/runners`, query, options),
    /** `GET /groups/:id/runners`: the group's, its ancestors' and the instance's runners (Owner). */
    listForGroup: (group: ResourceRef, query: Omit<RunnerFilters, 'scope'> = {}, options: PageOptions = {}) =>
      list(path`/groups/${group}/runners`, query, options),
    /** `GET /runners/:id`. */
    get: (id: number, options: CallOptions = {}) =>
      http.request('GET', path`/runners/${id}`, { ...options, response: RunnerDetails }),
    /** `PUT /runners/:id`. */
    update: (id: number, body: RunnerUpdate, options: CallOptions = {}) =>
      http.request('PUT', path`/runners/${id}`, { ...options, json: body, response: RunnerDetails }),
    /** `DELETE /runners/:id`; 204. */
    remove: (id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/runners/${id}`, options),
    /** `POST /runners/:id/reset_authentication_token` -> the new token; the old one stops working. */
    resetAuthenticationToken: (id: number, options: CallOptions = {}) =>
      http.request('POST', path`/runners/${id}/reset_authentication_token`, {
        ...options,
        response: RunnerTokenReset,
      }),
    /** `POST /projects/:id/runners`: enables a project runner in this project too. */
    enableInProject: (project: ResourceRef, runnerId: number, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/runners`, {
        ...options,
        json: { runner_id: runnerId },
        response: Runner,
      }),
    /** `DELETE /projects/:id/runners/:runner_id`: disables it there (not in its owner project); 204. */
    disableInProject: (project: ResourceRef, runnerId: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/runners/${runnerId}`, options),
    /** `POST /runners/verify` with the runner's own token (403 for an unknown one). */
    verify: (token: string, options: CallOptions = {}) =>
      http.request('POST', '/runners/verify', { ...options, json: { token }, response: RunnerRegistration }),
    /**
     * @deprecated GitLab removed it in 18.0 (410). `POST /runners/reset_registration_token`
     * (administrators) -> the new instance registration token.
     */
    resetInstanceRegistrationToken: (options: CallOptions = {}) =>
      reset('/runners/reset_registration_token', options),
    /** @deprecated GitLab removed it in 18.0 (410). Project form (Maintainer). */
    resetProjectRegistrationToken: (project: ResourceRef, options: CallOptions = {}) =>
      reset(path`/projects/${project}/runners/reset_registration_token`, options),
    /** @deprecated GitLab removed it in 18.0 (410). Group form (Owner). */
    resetGroupRegistrationToken: (group: ResourceRef, options: CallOptions = {}) =>
      reset(path`/groups/${group}/runners/reset_registration_token`, options),
    /**
     * @deprecated GitLab answers 410 from 17.0. `POST /runners` with a registration token ->
     * the new runner's id and authentication token.
     */
    register: async (body: RunnerRegister, options: CallOptions = {}) => {
      await guard.removedIn('Registering a runner with a registration token', '17.0', RESET_INSTEAD)
      return http.request('POST', '/runners', {
        ...options,
        json: body,
        response: RunnerRegistration,
      })
    },
  }
}
