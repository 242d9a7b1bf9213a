import { Type } from '@sinclair/typebox'
import {
  Job,
  JobListQuery,
  Pipeline,
  PipelineListItem,
  PipelineListQuery,
  PipelineVariable,
  PipelineWithMetadata,
} from '../../schema/index.js'
import { pipelineRunner } from '../jobs/pipeline-runner.js'
import { setPageHeaders } from '../pagination.js'
import { jobTokenAuth } from '../services/job-tokens.js'
import { pathInteger } from '../params.js'
import { pipelineService } from '../services/pipelines.js'
import { triggerService } from '../services/triggers.js'
import type { ApiContext } from './context.js'
import { defineRoute, type Handled } from './define.js'
import { pipelineEmulatorRoutes } from './pipeline-emulator.js'
import { triggerRoutes } from './triggers.js'
import { IdPath } from './paths.js'

const PipelinePath = Type.Object({ id: Type.String(), pipeline_id: Type.Integer() })
const JOBS_URL = '/api/v4/projects/:id/pipelines/:pipeline_id/jobs'

/**
 * Trigger tokens, triggering, pipelines and jobs. Starts the pipeline runner (stopped
 * when the server closes) and installs `JOB-TOKEN` authentication for the routes that take it.
 */
export function pipelineRoutes(api: ApiContext): void {
  const { app, registry, ctx } = api
  const runner = pipelineRunner(ctx.store, ctx.clock)
  api.onClose(runner.start())
  const pipelines = pipelineService(ctx, runner)
  const jobTokens = jobTokenAuth(ctx.store, runner)
  jobTokens.allow('GET', JOBS_URL)
  app.decorate('jobTokenAuth', jobTokens)
  triggerRoutes(api, triggerService(ctx, runner, pipelines))
  pipelineEmulatorRoutes(api, pipelines)

  const linkOf = (h: Handled<unknown, unknown>, defaults: Record<string, unknown>) => ({
    baseUrl: api.instance.baseUrl,
    path: h.req.url.split('?')[0] as string,
    params: { ...defaults, ...(h.req.query as Record<string, unknown>), id: h.path.id },
  })
  const target = (h: Handled<unknown, unknown>) => {
    const id = pathInteger(h.path.pipeline_id, 'pipeline_id')
    return { project: pipelines.project(h.actor, h.path.id as string), id }
  }

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines',
      summary: 'List pipelines of a project',
      pathParams: IdPath,
      input: PipelineListQuery,
      response: { 200: Type.Array(PipelineListItem) },
    },
    (h) => {
      const project = pipelines.project(h.actor, h.path.id as string)
      const { items, page, total } = pipelines.list(h.actor, project, h.params)
      setPageHeaders(h.reply, linkOf(h, { order_by: 'id', sort: 'desc' }), page, total)
      return items
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id',
      summary: 'Read one pipeline',
      pathParams: PipelinePath,
      response: { 200: PipelineWithMetadata },
    },
    (h) => {
      const { project, id } = target(h)
      return pipelines.get(project, id)
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: JOBS_URL,
      summary: "List a pipeline's jobs (also with a CI/CD job token of the same project)",
      pathParams: PipelinePath,
      input: JobListQuery,
      response: { 200: Type.Array(Job) },
    },
    (h) => {
      const { project, id } = target(h)
      const { items, page, total } = pipelines.jobs(project, id, h.params)
      setPageHeaders(h.reply, linkOf(h, { include_retried: false, pipeline_id: id }), page, total)
      return items
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id/variables',
      summary: "A pipeline's variables (Developer)",
      pathParams: PipelinePath,
      response: { 200: Type.Array(PipelineVariable) },
    },
    (h) => {
      const { project, id } = target(h)
      return pipelines.variables(h.actor, project, id)
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id/cancel',
      summary: 'Cancel the unfinished jobs of a pipeline (Developer)',
      auth: 'non_get',
      pathParams: PipelinePath,
      response: { 200: Pipeline },
    },
    (h) => {
      const { project, id } = target(h)
      return pipelines.cancel(h.actor, project, id)
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id/retry',
      summary: 'Retry the failed and canceled jobs of a pipeline (Developer)',
      auth: 'non_get',
      pathParams: PipelinePath,
      response: { 201: Pipeline },
    },
    (h) => {
      const { project, id } = target(h)
      return h.reply.code(201).send(pipelines.retry(h.actor, project, id))
    },
  )
}
