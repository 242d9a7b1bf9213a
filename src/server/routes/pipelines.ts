import { Type, type Static } from '@sinclair/typebox'
import {
  Job,
  JobListQuery,
  Pipeline,
  PipelineListItem,
  PipelineListQuery,
  PipelineVariable,
  PipelineWithMetadata,
  PipelineCreate,
} from '../../schema/index.js'
import type { Actor } from '../services/access.js'
import type { PipelineService } from '../services/pipelines.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const PipelinePath = Type.Object({ id: Type.String(), pipeline_id: Type.Integer() })

/** Pipelines and their jobs (`lib/api/ci/pipelines.rb`). */
export function pipelineRoutes(api: ApiContext, pipelines: PipelineService): void {
  const { route } = api
  const target = (h: { actor: Actor; path: Static<typeof PipelinePath> }) => ({
    project: pipelines.project(h.actor, h.path.id),
    id: h.path.pipeline_id,
  })

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines',
      summary: 'List pipelines of a project',
      pathParams: IdPath,
      input: PipelineListQuery,
      response: { 200: Type.Array(PipelineListItem) },
    },
    (h) => {
      const project = pipelines.project(h.actor, h.path.id)
      return h.sendPage(pipelines.list(h.actor, project, h.params))
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/pipeline',
      summary: "Create a pipeline from the ref's .gitlab-ci.yml (variables, and inputs from GitLab 17.10)",
      pathParams: IdPath,
      input: PipelineCreate,
      response: { 201: Pipeline },
    },
    async (h) => h.reply.code(201).send(await pipelines.createFromApi(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id',
      summary: 'Read one pipeline',
      pathParams: PipelinePath,
      response: { 200: PipelineWithMetadata },
    },
    (h) => {
      const { project, id } = target(h)
      return pipelines.get(h.actor, project, id)
    },
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id',
      summary: 'Delete a pipeline with its jobs and what they left (project Owner)',
      auth: 'non_get',
      errors: [412],
      pathParams: PipelinePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      const { project, id } = target(h)
      pipelines.remove(h.actor, project, id, h.req.headers['if-unmodified-since'])
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id/jobs',
      jobToken: true,
      summary: "List a pipeline's jobs (also with a CI/CD job token of the same project)",
      pathParams: PipelinePath,
      input: JobListQuery,
      response: { 200: Type.Array(Job) },
    },
    (h) => {
      const { project, id } = target(h)
      return h.sendPage(pipelines.jobs(h.actor, project, id, h.params))
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id/variables',
      summary: "A pipeline's variables (Maintainer, or the pipeline's own Developer)",
      pathParams: PipelinePath,
      response: { 200: Type.Array(PipelineVariable) },
    },
    (h) => {
      const { project, id } = target(h)
      return pipelines.variables(h.actor, project, id)
    },
  )

  route(
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

  route(
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
