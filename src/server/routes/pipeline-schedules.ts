import { Type } from '@sinclair/typebox'
import {
  PipelineListItem,
  PipelineSchedule,
  PipelineScheduleCreate,
  PipelineScheduleDetails,
  PipelineScheduleListQuery,
  PipelineSchedulePipelinesQuery,
  PipelineSchedulePlayed,
  PipelineScheduleUpdate,
  PipelineScheduleVariable,
  PipelineScheduleVariableCreate,
  PipelineScheduleVariableUpdate,
} from '../../schema/index.js'
import { unauthorized } from '../grape/gitlab-errors.js'
import type { Actor } from '../services/access.js'
import type { PipelineScheduleService } from '../services/pipeline-schedules.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const SchedulePath = Type.Object({ id: Type.String(), pipeline_schedule_id: Type.Integer() })
const VariablePath = Type.Object({ ...SchedulePath.properties, key: Type.String() })
const BASE = '/api/v4/projects/:id/pipeline_schedules'
const ONE = `${BASE}/:pipeline_schedule_id`

/** `before { authenticate! }`: 401 before the project is looked up. */
const requireUser = (actor: Actor) => {
  if (!actor.user) throw unauthorized()
}

/** `lib/api/ci/pipeline_schedules.rb`: schedules, their pipelines, play, ownership and variables. */
export function pipelineScheduleRoutes(api: ApiContext, schedules: PipelineScheduleService) {
  const { route, access } = api
  const project = (actor: Actor, ref: string) => {
    requireUser(actor)
    return access.project(actor, ref)
  }

  route(
    {
      method: 'GET',
      url: BASE,
      summary: "List a project's pipeline schedules (Reporter)",
      pathParams: IdPath,
      input: PipelineScheduleListQuery,
      response: { 200: Type.Array(PipelineSchedule) },
    },
    (h) => h.sendPage(schedules.list(h.actor, project(h.actor, h.path.id), h.params)),
  )

  route(
    {
      method: 'GET',
      url: ONE,
      summary: 'Read a pipeline schedule with its last pipeline and variables',
      pathParams: SchedulePath,
      response: { 200: PipelineScheduleDetails },
    },
    (h) => schedules.get(h.actor, project(h.actor, h.path.id), h.path.pipeline_schedule_id),
  )

  route(
    {
      method: 'GET',
      url: `${ONE}/pipelines`,
      summary: 'List the pipelines a schedule made (oldest first by default)',
      pathParams: SchedulePath,
      input: PipelineSchedulePipelinesQuery,
      response: { 200: Type.Array(PipelineListItem) },
    },
    (h) =>
      h.sendPage(
        schedules.pipelines(h.actor, project(h.actor, h.path.id), h.path.pipeline_schedule_id, h.params),
      ),
  )

  route(
    {
      method: 'POST',
      url: BASE,
      summary: 'Create a pipeline schedule owned by the caller (Developer)',
      pathParams: IdPath,
      input: PipelineScheduleCreate,
      response: { 201: PipelineScheduleDetails },
    },
    (h) => h.reply.code(201).send(schedules.create(h.actor, project(h.actor, h.path.id), h.params)),
  )

  route(
    {
      method: 'PUT',
      url: ONE,
      summary: 'Edit a pipeline schedule (its owner only)',
      pathParams: SchedulePath,
      input: PipelineScheduleUpdate,
      response: { 200: PipelineScheduleDetails },
    },
    (h) => schedules.update(h.actor, project(h.actor, h.path.id), h.path.pipeline_schedule_id, h.params),
  )

  route(
    {
      method: 'POST',
      url: `${ONE}/take_ownership`,
      summary: 'Take ownership of a pipeline schedule (Maintainer; 200 when already owned)',
      pathParams: SchedulePath,
      response: { 200: PipelineScheduleDetails, 201: PipelineScheduleDetails },
    },
    (h) => {
      const taken = schedules.takeOwnership(h.actor, project(h.actor, h.path.id), h.path.pipeline_schedule_id)
      return h.reply.code(taken.status).send(taken.body)
    },
  )

  route(
    {
      method: 'DELETE',
      url: ONE,
      summary: 'Delete a pipeline schedule (Maintainer or its owner)',
      errors: [412],
      pathParams: SchedulePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      const since = h.req.headers['if-unmodified-since']
      schedules.remove(h.actor, project(h.actor, h.path.id), h.path.pipeline_schedule_id, since)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'POST',
      url: `${ONE}/play`,
      summary: 'Run a pipeline schedule now, as the caller (next_run_at stays)',
      pathParams: SchedulePath,
      response: { 201: PipelineSchedulePlayed },
    },
    async (h) => {
      await schedules.play(h.actor, project(h.actor, h.path.id), h.path.pipeline_schedule_id)
      return h.reply.code(201).send({ message: '201 Created' })
    },
  )

  route(
    {
      method: 'POST',
      url: `${ONE}/variables`,
      summary: 'Add a variable to a pipeline schedule (its owner)',
      pathParams: SchedulePath,
      input: PipelineScheduleVariableCreate,
      response: { 201: PipelineScheduleVariable },
    },
    (h) =>
      h.reply
        .code(201)
        .send(
          schedules.createVariable(
            h.actor,
            project(h.actor, h.path.id),
            h.path.pipeline_schedule_id,
            h.params,
          ),
        ),
  )

  route(
    {
      method: 'PUT',
      url: `${ONE}/variables/:key`,
      summary: "Edit a pipeline schedule's variable (its owner)",
      pathParams: VariablePath,
      input: PipelineScheduleVariableUpdate,
      response: { 200: PipelineScheduleVariable },
    },
    (h) =>
      schedules.updateVariable(
        h.actor,
        project(h.actor, h.path.id),
        h.path.pipeline_schedule_id,
        h.path.key,
        h.params,
      ),
  )

  route(
    {
      method: 'DELETE',
      url: `${ONE}/variables/:key`,
      summary: "Delete a pipeline schedule's variable (Maintainer or its owner); 202 with the variable",
      pathParams: VariablePath,
      response: { 202: PipelineScheduleVariable },
    },
    (h) =>
      h.reply
        .code(202)
        .send(
          schedules.removeVariable(
            h.actor,
            project(h.actor, h.path.id),
            h.path.pipeline_schedule_id,
            h.path.key,
          ),
        ),
  )
}
