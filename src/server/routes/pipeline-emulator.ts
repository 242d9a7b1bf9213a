import type { FastifyRequest } from 'fastify'
import { EmulatorPipelineUpdate } from '../../schema/index.js'
import { forbidden, unauthorized } from '../grape/gitlab-errors.js'
import { parseParams, pathInteger } from '../grape/params.js'
import type { PipelineService } from '../services/pipelines.js'
import type { ApiContext } from './context.js'

/**
 * Emulator controls for pipelines, administrators only:
 * `PUT` with `{"status": "<any GitLab pipeline status>"}` drives the pipeline and its unfinished
 * jobs there and answers 200 with the pipeline record; `GET` (ours) shows the pipeline with its jobs
 * and the CI/CD job token of each running job, which GitLab only ever hands to runners.
 */
export function pipelineEmulatorRoutes(api: ApiContext, pipelines: PipelineService) {
  const target = (req: FastifyRequest) => {
    if (!req.actor.user) throw unauthorized()
    if (!req.actor.admin) throw forbidden()
    const path = req.params as Record<string, string>
    const id = pathInteger(path.pipeline_id, 'pipeline_id')
    return { id, project: pipelines.project(req.actor, path.id as string) }
  }
  api.app.put('/-/emulator/projects/:id/pipelines/:pipeline_id', async (req) => {
    if (!req.actor.user) throw unauthorized()
    if (!req.actor.admin) throw forbidden()
    const { status } = parseParams(EmulatorPipelineUpdate, {
      ...(req.query as Record<string, unknown>),
      ...(req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}),
    })
    const { id, project } = target(req)
    return pipelines.force(project, id, status)
  })
  api.app.get('/-/emulator/projects/:id/pipelines/:pipeline_id', async (req) => {
    const { id, project } = target(req)
    return pipelines.inspect(project, id)
  })
}
