import type { TSchema } from '@sinclair/typebox'
import { EmulatorPipelineUpdate, EmulatorPipelineView, Pipeline } from '../../schema/index.js'

const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema))
const json = (schema: unknown) => ({ 'application/json': { schema } })
const errorRef = { $ref: '#/components/schemas/Error' }

/**
 * The OpenAPI path of the pipeline controls (routes/pipeline-emulator.ts), at the server root as the
 * other emulator controls; `refusals` are their 401 and 403.
 */
export function pipelineControlPaths(
  servers: unknown[],
  refusals: Record<string, unknown>,
): Record<string, unknown> {
  const tags = ['emulator']
  const parameters = [
    {
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      description: 'Project id or URL-encoded path',
    },
    { name: 'pipeline_id', in: 'path', required: true, schema: { type: 'integer' } },
  ]
  const missing = {
    '404': {
      description: 'No such project (`404 Project Not Found`) or pipeline in it (`404 Not found`)',
      content: json({ ...errorRef, example: { message: '404 Not found' } }),
    },
  }
  const invalid = (example: string) => ({
    '400': {
      description: 'A parameter is invalid',
      content: json({ ...errorRef, example: { error: example } }),
    },
  })
  return {
    '/-/emulator/projects/{id}/pipelines/{pipeline_id}': {
      servers,
      get: {
        operationId: 'getEmulatorProjectsIdPipelinesPipelineId',
        summary: 'The pipeline with its jobs and the job tokens of running ones (administrators)',
        description:
          "Ours, not GitLab's: every job, retried ones too, with the CI/CD job token of a job that is " +
          '`running` or `canceling` (GitLab hands those to runners only).',
        tags,
        parameters,
        responses: {
          '200': { description: 'The pipeline and its jobs', content: json(plain(EmulatorPipelineView)) },
          ...invalid('pipeline_id is invalid'),
          ...refusals,
          ...missing,
        },
      },
      put: {
        operationId: 'putEmulatorProjectsIdPipelinesPipelineId',
        summary: 'Drives the pipeline and its unfinished jobs to a status (administrators)',
        description:
          'Any GitLab pipeline status; the jobs leave the automatic schedule until retried, and a ' +
          '`strategy: depend` bridge upstream follows. `status` may come in the query too.',
        tags,
        parameters,
        requestBody: { required: true, content: json(plain(EmulatorPipelineUpdate)) },
        responses: {
          '200': { description: 'The pipeline after the move', content: json(plain(Pipeline)) },
          ...invalid('status does not have a valid value'),
          ...refusals,
          ...missing,
        },
      },
    },
  }
}
