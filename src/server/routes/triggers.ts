import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import {
  PageQuery,
  Pipeline,
  Trigger,
  TriggerCreate,
  TriggerPipeline,
  TriggerPipelineAtRef,
  TriggerUpdate,
} from '../../schema/index.js'
import { forbidden, GitLabError, messageError, unauthorized } from '../grape/gitlab-errors.js'
import { pageOf } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { TriggerService } from '../services/triggers.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const TriggerPath = Type.Object({ id: Type.String(), trigger_id: Type.Integer() })
const TRIGGER_SUFFIX = '/trigger/pipeline'

const requireUser = (actor: Actor) => {
  if (!actor.user) throw unauthorized()
}
/** Query and body as Rack merges them: the basis of `TRIGGER_PAYLOAD`. */
const rawParams = (req: FastifyRequest): Record<string, unknown> => ({
  ...(req.query as Record<string, unknown>),
  ...(req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}),
})

/** `lib/api/ci/triggers.rb`: trigger token CRUD and `trigger/pipeline` (both path forms). */
export function triggerRoutes(api: ApiContext, triggers: TriggerService) {
  const { route, access } = api

  const trigger = (
    req: FastifyRequest,
    projectRef: string,
    params: { ref: string; token: string; variables?: Record<string, unknown> },
    pathRef?: string,
  ) => {
    if (req.headers['x-gitlab-event'] === 'Pipeline Hook') throw forbidden()
    const variables = params.variables ?? {}
    if (!Object.values(variables).every((v) => typeof v === 'string'))
      throw messageError(400, 'variables needs to be a map of key-valued strings')
    const payload = rawParams(req)
    delete payload.token
    payload.id = projectRef
    if (pathRef !== undefined) payload.ref = pathRef
    payload.variables = variables
    return triggers.trigger(projectRef, { ...params, variables }, payload)
  }

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/trigger/pipeline',
      summary: 'Trigger a pipeline with a trigger token or a CI/CD job token',
      pathParams: IdPath,
      input: TriggerPipeline,
      response: { 201: Pipeline },
    },
    async (h) => h.reply.code(201).send(await trigger(h.req, h.path.id, h.params)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/ref/*',
      docUrl: '/api/v4/projects/:id/ref/:ref/trigger/pipeline',
      summary: 'Trigger a pipeline on the ref in the path (the ref may hold slashes)',
      pathParams: IdPath,
      input: TriggerPipelineAtRef,
      response: { 201: Pipeline },
    },
    async (h) => {
      // The router's wildcard: the ref and `/trigger/pipeline` after it.
      const rest = (h.req.params as { '*'?: string })['*'] ?? ''
      const ref = rest.endsWith(TRIGGER_SUFFIX) ? rest.slice(0, -TRIGGER_SUFFIX.length) : ''
      if (ref === '') throw new GitLabError(404, { error: '404 Not Found' })
      return h.reply.code(201).send(await trigger(h.req, h.path.id, { ...h.params, ref }, ref))
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/triggers',
      summary: 'List trigger tokens (Maintainer)',
      pathParams: IdPath,
      input: PageQuery,
      response: { 200: Type.Array(Trigger) },
    },
    (h) => {
      requireUser(h.actor)
      const project = access.project(h.actor, h.path.id)
      const page = pageOf(h.params)
      const { items, total } = triggers.list(h.actor, project, page.perPage, page.offset)
      return h.sendPage({ items, page, total })
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/triggers/:trigger_id',
      summary: 'Read a trigger token (Maintainer)',
      pathParams: TriggerPath,
      response: { 200: Trigger },
    },
    (h) => {
      requireUser(h.actor)
      return triggers.get(h.actor, access.project(h.actor, h.path.id), h.path.trigger_id)
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/triggers',
      summary: 'Create a trigger token owned by the caller (Maintainer)',
      pathParams: IdPath,
      input: TriggerCreate,
      response: { 201: Trigger },
    },
    (h) => {
      requireUser(h.actor)
      const project = access.project(h.actor, h.path.id)
      return h.reply.code(201).send(triggers.create(h.actor, project, h.params.description))
    },
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/triggers/:trigger_id',
      summary: "Edit a trigger token's description (its owner only)",
      pathParams: TriggerPath,
      input: TriggerUpdate,
      response: { 200: Trigger },
    },
    (h) => {
      requireUser(h.actor)
      const project = access.project(h.actor, h.path.id)
      return triggers.update(h.actor, project, h.path.trigger_id, h.params.description)
    },
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/triggers/:trigger_id',
      summary: 'Delete a trigger token (any Maintainer)',
      errors: [412],
      pathParams: TriggerPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      requireUser(h.actor)
      const project = access.project(h.actor, h.path.id)
      triggers.remove(h.actor, project, h.path.trigger_id, h.req.headers['if-unmodified-since'])
      return h.reply.code(204).send()
    },
  )
}
