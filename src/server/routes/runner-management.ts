import { Type } from '@sinclair/typebox'
import {
  GroupRunnerListQuery,
  Job,
  Runner,
  RunnerCreate,
  RunnerDetails,
  RunnerEnable,
  RunnerJobsQuery,
  RunnerListQuery,
  RunnerRegistration,
  RunnerTokenParams,
  RunnerTokenReset,
  RunnerUpdate,
} from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const RunnerPath = Type.Object({ id: Type.Integer() })
const ProjectRunnerPath = Type.Object({ id: Type.String(), runner_id: Type.Integer() })
const Runners = Type.Array(Runner)

/**
 * The runner management API: `POST /user/runners` (lib/api/user_runners.rb), the runner lists, reads and
 * writes of lib/api/ci/runners.rb, and `POST /runners/verify`, `POST /runners/reset_authentication_token`
 * and `DELETE /runners`, which a runner calls with its own token (lib/api/ci/runner.rb).
 */
export function runnerManagementRoutes(api: ApiContext) {
  const { route } = api
  const { runners } = api.services

  route(
    {
      method: 'POST',
      url: '/api/v4/user/runners',
      summary:
        'Create a runner with an authentication token (instance: administrators; group: Owner; project: Maintainer)',
      auth: 'required',
      input: RunnerCreate,
      response: { 201: RunnerRegistration },
    },
    (h) => h.reply.code(201).send(runners.create(h.actor, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/runners',
      summary: "List the caller's runners: those of projects it maintains and groups it owns",
      auth: 'required',
      input: RunnerListQuery,
      response: { 200: Runners },
    },
    (h) => h.sendPage(runners.owned(h.actor, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/runners/all',
      summary: 'List every runner of the instance (administrators)',
      auth: 'required',
      input: RunnerListQuery,
      response: { 200: Runners },
    },
    (h) => h.sendPage(runners.all(h.actor, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/runners/:id',
      summary: "A runner's details (instance runners: any signed-in user; others: their Maintainers)",
      auth: 'required',
      pathParams: RunnerPath,
      response: { 200: RunnerDetails },
    },
    (h) => runners.get(h.actor, h.path.id),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/runners/:id',
      summary: "Edit a runner's details",
      auth: 'required',
      pathParams: RunnerPath,
      input: RunnerUpdate,
      response: { 200: RunnerDetails },
    },
    (h) => runners.update(h.actor, h.path.id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/runners/:id',
      summary: 'Delete a runner',
      auth: 'required',
      pathParams: RunnerPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      runners.remove(h.actor, h.path.id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/runners/:id/reset_authentication_token',
      summary: "Reset a runner's authentication token",
      auth: 'required',
      pathParams: RunnerPath,
      response: { 201: RunnerTokenReset },
    },
    (h) => h.reply.code(201).send(runners.resetToken(h.actor, h.path.id)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/runners/:id/jobs',
      summary: "A runner's jobs: always empty here, as the emulated jobs run on no runner",
      auth: 'required',
      pathParams: RunnerPath,
      input: RunnerJobsQuery,
      response: { 200: Type.Array(Job) },
    },
    (h) => h.sendPage(runners.jobs(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/runners',
      summary: "List a project's runners, its groups' and the instance's (Maintainer)",
      auth: 'required',
      pathParams: IdPath,
      input: RunnerListQuery,
      response: { 200: Runners },
    },
    (h) => h.sendPage(runners.ofProject(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/runners',
      summary: 'Enable a project runner in this project too (Maintainer here and of the runner)',
      auth: 'required',
      pathParams: IdPath,
      input: RunnerEnable,
      response: { 201: Runner },
    },
    (h) => h.reply.code(201).send(runners.enable(h.actor, h.path.id, h.params.runner_id)),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/runners/:runner_id',
      summary: 'Disable a project runner in a project other than its owner (Maintainer)',
      auth: 'required',
      pathParams: ProjectRunnerPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      runners.disable(h.actor, h.path.id, h.path.runner_id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/runners',
      summary: "List a group's runners, its ancestors' and the instance's (Owner)",
      auth: 'required',
      pathParams: IdPath,
      input: GroupRunnerListQuery,
      response: { 200: Runners },
    },
    (h) => h.sendPage(runners.ofGroup(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/runners/verify',
      summary: "Verify a runner's authentication token (the runner's own call)",
      input: RunnerTokenParams,
      response: { 200: RunnerRegistration },
    },
    (h) => runners.verify(h.params.token),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/runners/reset_authentication_token',
      summary: "Reset a runner's authentication token with the current one (the runner's own call)",
      input: RunnerTokenParams,
      response: { 201: RunnerTokenReset },
    },
    (h) => h.reply.code(201).send(runners.resetOwnToken(h.params.token)),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/runners',
      summary: "Delete a runner by its authentication token (the runner's own call)",
      input: RunnerTokenParams,
      response: { 204: Type.Null() },
    },
    (h) => {
      runners.unregister(h.params.token)
      return h.reply.code(204).send()
    },
  )
}
