import { Type } from '@sinclair/typebox'
import {
  Deployment,
  DeploymentCreate,
  DeploymentListQuery,
  DeploymentUpdate,
  Environment,
  EnvironmentCreate,
  EnvironmentListQuery,
  EnvironmentStop,
  EnvironmentStopStale,
  AcceptedMessage,
  EnvironmentUpdate,
  ReviewAppsDeleteQuery,
  ReviewAppsDeletion,
} from '../../schema/index.js'
import { unauthorized } from '../grape/gitlab-errors.js'
import type { Actor } from '../services/access.js'
import { checkEnvironmentParams, type EnvironmentService } from '../services/environments.js'
import { inJobTokenScope } from '../services/job-tokens.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const EnvironmentPath = Type.Object({ id: Type.String(), environment_id: Type.Integer() })
const DeploymentPath = Type.Object({ id: Type.String(), deployment_id: Type.Integer() })
const ENVIRONMENTS = '/api/v4/projects/:id/environments'
const ENVIRONMENT = `${ENVIRONMENTS}/:environment_id`
const DEPLOYMENTS = '/api/v4/projects/:id/deployments'
const DEPLOYMENT = `${DEPLOYMENTS}/:deployment_id`

/**
 * Which of `keys` a JSON body gives as `null`: the parser drops an optional `values` parameter's nil (Grape's
 * validator lets it pass), which the model then receives.
 */
const nullsIn = (body: unknown, keys: readonly string[]): ReadonlySet<string> =>
  new Set(
    body !== null && typeof body === 'object'
      ? keys.filter((k) => (body as Record<string, unknown>)[k] === null)
      : [],
  )

/**
 * `lib/api/environments.rb` and `lib/api/deployments.rb` (`before { authenticate! }`: 401 first). Every route
 * takes a CI/CD job token (`job_token_allowed: true`), its job's user acting in its own project.
 */
export function environmentRoutes(api: ApiContext, environments: EnvironmentService) {
  const { route, access } = api
  const project = (actor: Actor, ref: string, params: object = {}) => {
    if (!actor.user) throw unauthorized()
    checkEnvironmentParams(params)
    return inJobTokenScope(actor, access.project(actor, ref))
  }

  route(
    {
      method: 'GET',
      url: ENVIRONMENTS,
      summary: "List a project's environments (Reporter)",
      jobToken: true,
      pathParams: IdPath,
      input: EnvironmentListQuery,
      response: { 200: Type.Array(Environment) },
    },
    (h) => {
      const p = project(h.actor, h.path.id, h.params)
      return h.sendPage(environments.list(h.actor, p, h.params))
    },
  )

  route(
    {
      method: 'GET',
      url: ENVIRONMENT,
      summary: 'Read an environment with its last successful deployment',
      jobToken: true,
      pathParams: EnvironmentPath,
      response: { 200: Environment },
    },
    (h) => environments.get(h.actor, project(h.actor, h.path.id), h.path.environment_id),
  )

  route(
    {
      method: 'POST',
      url: ENVIRONMENTS,
      summary: 'Create an environment (Developer)',
      jobToken: true,
      pathParams: IdPath,
      input: EnvironmentCreate,
      response: { 201: Environment },
    },
    (h) => {
      const p = project(h.actor, h.path.id, h.params)
      return h.reply.code(201).send(environments.create(h.actor, p, h.params))
    },
  )

  route(
    {
      method: 'PUT',
      url: ENVIRONMENT,
      summary: "Edit an environment's external URL, tier, description or auto-stop setting (Developer)",
      jobToken: true,
      pathParams: EnvironmentPath,
      input: EnvironmentUpdate,
      response: { 200: Environment },
    },
    (h) =>
      environments.update(
        h.actor,
        project(h.actor, h.path.id, h.params),
        h.path.environment_id,
        h.params,
        nullsIn(h.req.body, ['tier', 'auto_stop_setting']),
      ),
  )

  route(
    {
      method: 'DELETE',
      url: ENVIRONMENT,
      summary: 'Delete a stopped environment (Developer; 403 while it is available)',
      jobToken: true,
      pathParams: EnvironmentPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      environments.remove(h.actor, project(h.actor, h.path.id), h.path.environment_id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'POST',
      url: `${ENVIRONMENT}/stop`,
      summary:
        'Stop an environment, playing its stop actions unless `force` (Developer who may play them, Maintainer)',
      jobToken: true,
      pathParams: EnvironmentPath,
      input: EnvironmentStop,
      response: { 200: Environment },
    },
    (h) => {
      const p = project(h.actor, h.path.id)
      return h.reply.code(200).send(environments.stop(h.actor, p, h.path.environment_id, h.params.force))
    },
  )

  route(
    {
      method: 'POST',
      url: `${ENVIRONMENTS}/stop_stale`,
      summary: 'Stop the environments neither changed nor deployed to since `before` (Maintainer)',
      jobToken: true,
      pathParams: IdPath,
      input: EnvironmentStopStale,
      response: { 200: AcceptedMessage },
    },
    (h) => {
      const p = project(h.actor, h.path.id)
      return h.reply.code(200).send(environments.stopStale(h.actor, p, h.params.before))
    },
  )

  route(
    {
      method: 'DELETE',
      url: `${ENVIRONMENTS}/review_apps`,
      summary:
        'Delete the stopped review apps made before `before` (30 days ago), at most `limit`; a dry run unless `dry_run=false` (Developer)',
      jobToken: true,
      pathParams: IdPath,
      input: ReviewAppsDeleteQuery,
      response: { 200: ReviewAppsDeletion },
    },
    (h) => environments.deleteReviewApps(h.actor, project(h.actor, h.path.id), h.params),
  )

  route(
    {
      method: 'GET',
      url: DEPLOYMENTS,
      summary: "List a project's deployments (Reporter)",
      jobToken: true,
      pathParams: IdPath,
      input: DeploymentListQuery,
      response: { 200: Type.Array(Deployment) },
    },
    (h) => h.sendPage(environments.deployments(h.actor, project(h.actor, h.path.id), h.params)),
  )

  route(
    {
      method: 'GET',
      url: DEPLOYMENT,
      summary: 'Read a deployment',
      jobToken: true,
      pathParams: DeploymentPath,
      response: { 200: Deployment },
    },
    (h) => environments.deployment(h.actor, project(h.actor, h.path.id), h.path.deployment_id),
  )

  route(
    {
      method: 'POST',
      url: DEPLOYMENTS,
      summary: 'Record a deployment made outside GitLab CI (Developer); its environment is made when missing',
      jobToken: true,
      pathParams: IdPath,
      input: DeploymentCreate,
      response: { 201: Deployment },
    },
    (h) =>
      h.reply.code(201).send(environments.createDeployment(h.actor, project(h.actor, h.path.id), h.params)),
  )

  route(
    {
      method: 'PUT',
      url: DEPLOYMENT,
      summary: "Set the status of a deployment made through the API (Developer; 403 for a job's)",
      jobToken: true,
      pathParams: DeploymentPath,
      input: DeploymentUpdate,
      response: { 200: Deployment },
    },
    (h) =>
      environments.updateDeployment(
        h.actor,
        project(h.actor, h.path.id),
        h.path.deployment_id,
        h.params.status,
      ),
  )

  route(
    {
      method: 'DELETE',
      url: DEPLOYMENT,
      summary: 'Delete a deployment that is neither running nor the last (Maintainer)',
      jobToken: true,
      pathParams: DeploymentPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      environments.removeDeployment(h.actor, project(h.actor, h.path.id), h.path.deployment_id)
      return h.reply.code(204).send()
    },
  )
}
