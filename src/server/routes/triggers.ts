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
import { forbidden, GitLabError, messageError, unauthorized } from '../gitlab-errors.js'
import { pageOf, setPageHeaders } from '../pagination.js'
import { pathInteger } from '../params.js'
import type { Actor } from '../services/access.js'
import type { TriggerService } from '../services/triggers.js'
import type { ApiContext } from './context.js'
import { defineRoute } from './define.js'
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
  const { app, registry, access } = api

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

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/v4/projects/:id/trigger/pipeline',
      summary: 'Trigger a pipeline with a trigger token or a CI/CD job token',
      pathParams: IdPath,
      input: TriggerPipeline,
      response: { 201: Pipeline },
    },
    (h) => h.reply.code(201).send(trigger(h.req, h.path.id as string, h.params)),
  )

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/v4/projects/:id/ref/*',
      docUrl: '/api/v4/projects/:id/ref/:ref/trigger/pipeline',
      summary: 'Trigger a pipeline on the ref in the path (the ref may hold slashes)',
      pathParams: IdPath,
      input: TriggerPipelineAtRef,
      response: { 201: Pipeline },
    },
    (h) => {
      const rest = h.path['*'] ?? ''
      const ref = rest.endsWith(TRIGGER_SUFFIX) ? rest.slice(0, -TRIGGER_SUFFIX.length) : ''
      if (ref === '') throw new GitLabError(404, { error: '404 Not Found' })
      return h.reply.code(201).send(trigger(h.req, h.path.id as string, { ...h.params, ref }, ref))
    },
  )

  defineRoute(
    app,
    registry,
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
      const project = access.project(h.actor, h.path.id as string)
      const page = pageOf(h.params)
      const { items, total } = triggers.list(h.actor, project, page.perPage, page.offset)
      const path = h.req.url.split('?')[0] as string
      setPageHeaders(
        h.reply,
        { baseUrl: api.instance.baseUrl, path, params: { ...rawParams(h.req), id: h.path.id } },
        page,
        total,
      )
      return items
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects/:id/triggers/:trigger_id',
      summary: 'Read a trigger token (Maintainer)',
      pathParams: TriggerPath,
      response: { 200: Trigger },
    },
    (h) => {
      const id = pathInteger(h.path.trigger_id, 'trigger_id')
      requireUser(h.actor)
      return triggers.get(h.actor, access.project(h.actor, h.path.id as string), id)
    },
  )

  defineRoute(
    app,
    registry,
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
      const project = access.project(h.actor, h.path.id as string)
      return h.reply.code(201).send(triggers.create(h.actor, project, h.params.description))
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/triggers/:trigger_id',
      summary: "Edit a trigger token's description (its owner only)",
      pathParams: TriggerPath,
      input: TriggerUpdate,
      response: { 200: Trigger },
    },
    (h) => {
      const id = pathInteger(h.path.trigger_id, 'trigger_id')
      requireUser(h.actor)
      return triggers.update(h.actor, access.project(h.actor, h.path.id as string), id, h.params.description)
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/triggers/:trigger_id',
      summary: 'Delete a trigger token (any Maintainer)',
      errors: [412],
      pathParams: TriggerPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      const id = pathInteger(h.path.trigger_id, 'trigger_id')
      requireUser(h.actor)
      const project = access.project(h.actor, h.path.id as string)
      const since = h.req.headers['if-unmodified-since']
      triggers.remove(h.actor, project, id, typeof since === 'string' ? since : undefined)
      return h.reply.code(204).send()
    },
  )
}
