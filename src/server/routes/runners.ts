import { RegistrationTokenReset, RunnerRegister, RunnerRegistration } from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/**
 * The deprecated runner registration-token endpoints (`lib/api/ci/runners.rb`, `lib/api/ci/runner.rb`): the
 * three reset-registration-token calls (410 from 18.0) and `POST /runners` with a registration token (410
 * from 17.0).
 */
export function runnerRoutes(api: ApiContext) {
  const { route } = api
  const { runners } = api.services
  const created = { 201: RegistrationTokenReset }

  route(
    {
      method: 'POST',
      url: '/api/v4/runners/reset_registration_token',
      errors: [410],
      summary: "Reset the instance's runner registration token (administrators; 410 from GitLab 18.0)",
      auth: 'required',
      response: created,
    },
    (h) => h.reply.code(201).send(runners.resetInstance(h.actor)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/runners/reset_registration_token',
      errors: [410],
      summary: "Reset a project's runner registration token (Maintainer; 410 from GitLab 18.0)",
      auth: 'required',
      pathParams: IdPath,
      response: created,
    },
    (h) => h.reply.code(201).send(runners.resetProject(h.actor, h.path.id)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/groups/:id/runners/reset_registration_token',
      errors: [410],
      summary: "Reset a group's runner registration token (Owner; 410 from GitLab 18.0)",
      auth: 'required',
      pathParams: IdPath,
      response: created,
    },
    (h) => h.reply.code(201).send(runners.resetGroup(h.actor, h.path.id)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/runners',
      errors: [410],
      summary: 'Register a runner with a registration token (410 from GitLab 17.0)',
      input: RunnerRegister,
      response: { 201: RunnerRegistration },
    },
    (h) => h.reply.code(201).send(runners.register(h.params)),
  )
}
