import type { ResourceRef } from '../schema/common.js'
import { RegistrationTokenReset, RunnerRegistration, type RunnerRegister } from '../schema/runner.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'
import type { ReleaseGuard } from './releases.js'

const RESET = 'Resetting a runner registration token'
const RESET_INSTEAD = 'create runners with authentication tokens (POST /user/runners) instead'

/**
 * The deprecated runner registration-token flow (deprecated in GitLab 15.6, 410 from 17.0: doc/api/runners.md): reset a registration token, register a
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
  return {
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
