import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { CiVariableType } from './ci-variable.js'
import { boolParam, nonBlankString } from './params.js'
import { PipelineListItem, PipelineListQuery } from './pipeline.js'

/** A CI input's value as a schedule keeps it: Grape's `[String, Array, Numeric, TrueClass, FalseClass]` (or nil). */
const CiInputValue = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.Unknown()),
  Type.Null(),
])

/**
 * `Entities::Ci::Input`: one of a schedule's CI inputs, its value as given, checked against the
 * configuration's `spec:inputs` only when a pipeline runs.
 */
export const PipelineScheduleInput = Type.Object(
  { name: Type.String(), value: CiInputValue },
  { title: 'PipelineScheduleInput' },
)
export type PipelineScheduleInput = Static<typeof PipelineScheduleInput>

const fields = {
  id: Type.Integer(),
  description: Type.String(),
  /** The full ref (`refs/heads/main`, `refs/tags/v1.0`): GitLab expands a short one when it saves. */
  ref: Type.String(),
  cron: Type.String(),
  cron_timezone: Type.String(),
  next_run_at: Timestamp,
  active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  owner: Nullable(UserBasic),
  /**
   * From GitLab 17.11, for those who may read them (`read_pipeline_schedule_inputs`: a Maintainer, or
   * the schedule's owner while a Developer), in the list and GET; absent for everyone else, and from the
   * answers of create, update and take_ownership.
   */
  inputs: Type.Optional(Type.Array(PipelineScheduleInput)),
}

/**
 * `Entities::Ci::PipelineSchedule` (`lib/api/entities/ci/pipeline_schedule.rb`): a schedule in a list, in the
 * entity's key order (`inputs`, exposed `if:`, stays after `owner`).
 */
export const PipelineSchedule = Type.Object(fields, {
  title: 'PipelineSchedule',
  'x-optional-in-place': true,
})
export type PipelineSchedule = Static<typeof PipelineSchedule>

/**
 * `Entities::Ci::Variable` of a `Ci::PipelineScheduleVariable`, which has no `protected`, `masked`,
 * `hidden`, `environment_scope` or `description`, so the entity leaves them out.
 */
export const PipelineScheduleVariable = Type.Object(
  { variable_type: CiVariableType, key: Type.String(), value: Type.String(), raw: Type.Boolean() },
  { title: 'PipelineScheduleVariable' },
)
export type PipelineScheduleVariable = Static<typeof PipelineScheduleVariable>

/**
 * `Entities::Ci::PipelineScheduleDetails`: the schedule with its newest pipeline and, for a Maintainer or
 * the schedule's owner (`read_pipeline_schedule_variables`), its variables, when the route presents it
 * with the caller (the list and GET do; create, update and take_ownership do not, and show neither
 * `inputs` nor `variables`). Keys in the entities' order: `inputs` before `last_pipeline`.
 */
export const PipelineScheduleDetails = Type.Object(
  {
    ...fields,
    last_pipeline: Nullable(PipelineListItem),
    variables: Type.Optional(Type.Array(PipelineScheduleVariable)),
  },
  { title: 'PipelineScheduleDetails', 'x-optional-in-place': true },
)
export type PipelineScheduleDetails = Static<typeof PipelineScheduleDetails>

/** `GET /projects/:id/pipeline_schedules`. */
export const PipelineScheduleListQuery = Type.Object({
  ...PageQuery.properties,
  scope: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])),
})
export type PipelineScheduleListQuery = Static<typeof PipelineScheduleListQuery>

/** `GET /projects/:id/pipeline_schedules/:pipeline_schedule_id/pipelines`: oldest first unless `sort=desc`. */
export const PipelineSchedulePipelinesQuery = Type.Object({
  ...Type.Pick(PipelineListQuery, [
    'page',
    'per_page',
    'scope',
    'status',
    'updated_before',
    'updated_after',
    'created_before',
    'created_after',
  ]).properties,
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
})
export type PipelineSchedulePipelinesQuery = Static<typeof PipelineSchedulePipelinesQuery>

/** `POST /projects/:id/pipeline_schedules`: `cron_timezone` defaults to `UTC`, `active` to true. */
export const PipelineScheduleCreate = Type.Object({
  description: Type.String(),
  ref: nonBlankString({ description: 'branch or tag, short (main) or full (refs/heads/main)' }),
  cron: Type.String(),
  cron_timezone: Type.Optional(Type.String({ default: 'UTC' })),
  active: Type.Optional(boolParam({ default: true })),
  /** The CI inputs its pipelines get (GitLab 17.11 and later; ignored before). */
  inputs: Type.Optional(Type.Array(Type.Object({ name: Type.String(), value: CiInputValue }))),
})
export type PipelineScheduleCreate = Static<typeof PipelineScheduleCreate>

/** `PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id`: what is given changes. */
export const PipelineScheduleUpdate = Type.Object({
  description: Type.Optional(Type.String()),
  ref: Type.Optional(Type.String()),
  cron: Type.Optional(Type.String()),
  cron_timezone: Type.Optional(Type.String()),
  active: Type.Optional(boolParam()),
  /** Inputs to set (by name: a new one is added) or, with `destroy: true`, to remove. */
  inputs: Type.Optional(
    Type.Array(
      // `value` is required unless `destroy` is true (Grape's `given destroy: ->(v) { v != true }`)
      Type.Object({
        name: Type.String(),
        destroy: Type.Optional(boolParam()),
        value: Type.Optional(CiInputValue),
      }),
    ),
  ),
})
export type PipelineScheduleUpdate = Static<typeof PipelineScheduleUpdate>

/** `POST .../variables`. */
export const PipelineScheduleVariableCreate = Type.Object({
  key: Type.String(),
  value: Type.String(),
  variable_type: Type.Optional(CiVariableType),
})
export type PipelineScheduleVariableCreate = Static<typeof PipelineScheduleVariableCreate>

/** `PUT .../variables/:key`: the key comes from the path. */
export const PipelineScheduleVariableUpdate = Type.Object({
  value: Type.Optional(Type.String()),
  variable_type: Type.Optional(CiVariableType),
})
export type PipelineScheduleVariableUpdate = Static<typeof PipelineScheduleVariableUpdate>

/** `POST .../play`: GitLab's `created!`, the body of a 201 with nothing else to say. */
export const PipelineSchedulePlayed = Type.Object(
  { message: Type.String() },
  { title: 'PipelineSchedulePlayed' },
)
export type PipelineSchedulePlayed = Static<typeof PipelineSchedulePlayed>
