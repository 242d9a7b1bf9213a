import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { BasicProjectDetails } from './namespace.js'
import { PipelineStatus } from './pipeline.js'
import { boolParam, csvParam } from './params.js'

/**
 * `POST /runners/reset_registration_token` and its project and group forms: GitLab's
 * `Entities::Ci::ResetTokenResult`, whose `token_expires_at` is exposed only for expirable tokens;
 * registration tokens never expire, so the body is `{"token": ...}` alone.
 */
export const RegistrationTokenReset = Type.Object(
  { token: Type.String() },
  { title: 'RegistrationTokenReset' },
)
export type RegistrationTokenReset = Static<typeof RegistrationTokenReset>

/** `POST /runners`: GitLab's `Entities::Ci::RunnerRegistrationDetails`. */
export const RunnerRegistration = Type.Object(
  { id: Type.Integer(), token: Type.String(), token_expires_at: Nullable(Timestamp) },
  { title: 'RunnerRegistration' },
)
export type RunnerRegistration = Static<typeof RunnerRegistration>

const deprecated = (description: string) => ({ description, deprecated: true })

/**
 * `POST /runners` parameters (GitLab's `lib/api/ci/runner.rb`): `token` is a registration token.
 * Deprecated since 15.6; the registration-token flow answers 410 from 17.0 (GitLab's doc/api/runners.md).
 */
export const RunnerRegister = Type.Object(
  {
    token: Type.String({ description: 'registration token (instance, group or project)' }),
    description: Type.Optional(Type.String()),
    maintainer_note: Type.Optional(Type.String(deprecated('use maintenance_note'))),
    maintenance_note: Type.Optional(Type.String()),
    info: Type.Optional(
      Type.Object({
        name: Type.Optional(Type.String()),
        version: Type.Optional(Type.String()),
        revision: Type.Optional(Type.String()),
        platform: Type.Optional(Type.String()),
        architecture: Type.Optional(Type.String()),
      }),
    ),
    active: Type.Optional(Type.Boolean(deprecated('use paused'))),
    paused: Type.Optional(Type.Boolean()),
    locked: Type.Optional(Type.Boolean()),
    access_level: Type.Optional(Type.Union([Type.Literal('not_protected'), Type.Literal('ref_protected')])),
    run_untagged: Type.Optional(Type.Boolean()),
    tag_list: Type.Optional(csvParam()),
    maximum_timeout: Type.Optional(Type.Integer()),
  },
  {
    title: 'RunnerRegister',
    'x-mutually-exclusive': [
      ['maintainer_note', 'maintenance_note'],
      ['active', 'paused'],
    ],
  },
)
export type RunnerRegister = Static<typeof RunnerRegister>

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)))

/** `Ci::Runner.runner_types`. */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const
export const RunnerType = literals(RUNNER_TYPES)
export type RunnerType = Static<typeof RunnerType>
/** `Ci::Runner.access_levels`. */
export const RunnerAccessLevel = literals(['not_protected', 'ref_protected'] as const)
/**
 * `Ci::Runner::AVAILABLE_STATUSES_INCL_DEPRECATED`: the `status` filter (and the deprecated `scope`);
 * `active` and `paused` are the deprecated statuses.
 */
export const RUNNER_STATUSES = ['active', 'paused', 'online', 'offline', 'never_contacted', 'stale'] as const

/**
 * `Entities::Ci::Runner` (lib/api/entities/ci/runner.rb). `ip_address` is always null (GitLab's too,
 * until v5), `status` is the deprecated REST status, `created_by` is shown only when its user exists,
 * `job_execution_status` is `idle` (no job ever runs on a runner here).
 */
export const Runner = Type.Object(
  {
    id: Type.Integer(),
    description: Nullable(Type.String()),
    ip_address: Type.Null(),
    active: Type.Boolean(),
    paused: Type.Boolean(),
    is_shared: Type.Boolean(),
    runner_type: RunnerType,
    name: Nullable(Type.String()),
    online: Type.Boolean(),
    created_by: Type.Optional(UserBasic),
    created_at: Timestamp,
    status: Type.String({ description: 'online, offline, stale, never_contacted or paused' }),
    job_execution_status: Type.String({ description: 'idle or active' }),
  },
  { title: 'Runner' },
)
export type Runner = Static<typeof Runner>

/** `Entities::BasicGroupDetails`: a runner's group. */
export const BasicGroupDetails = Type.Object(
  { id: Type.Integer(), web_url: Type.String(), name: Type.String() },
  { title: 'BasicGroupDetails' },
)
export type BasicGroupDetails = Static<typeof BasicGroupDetails>

/**
 * `Entities::Ci::RunnerDetails` (lib/api/entities/ci/runner_details.rb): `version`, `revision`,
 * `platform` and `architecture` come from the runner's managers (none here: null), `maintenance_note`
 * is null to those who may not update the runner, `projects` and `groups` list what the caller may see.
 */
export const RunnerDetails = Type.Object(
  {
    ...Runner.properties,
    tag_list: Type.Array(Type.String()),
    run_untagged: Type.Boolean(),
    locked: Type.Boolean(),
    maximum_timeout: Nullable(Type.Integer()),
    access_level: Type.String(),
    version: Nullable(Type.String()),
    revision: Nullable(Type.String()),
    platform: Nullable(Type.String()),
    architecture: Nullable(Type.String()),
    contacted_at: Nullable(Timestamp),
    maintenance_note: Nullable(Type.String()),
    projects: Type.Array(BasicProjectDetails),
    groups: Type.Array(BasicGroupDetails),
  },
  { title: 'RunnerDetails' },
)
export type RunnerDetails = Static<typeof RunnerDetails>

/** The runner attributes `POST /user/runners` and `PUT /runners/:id` share (lib/api/user_runners.rb). */
const runnerAttributes = {
  description: Type.Optional(Type.String()),
  maintenance_note: Type.Optional(
    Type.String({ description: 'free-form maintenance notes (1024 characters)' }),
  ),
  paused: Type.Optional(boolParam()),
  locked: Type.Optional(boolParam()),
  access_level: Type.Optional(RunnerAccessLevel),
  run_untagged: Type.Optional(boolParam()),
  tag_list: Type.Optional(csvParam()),
  maximum_timeout: Type.Optional(Type.Integer()),
}

/**
 * `POST /user/runners` (lib/api/user_runners.rb): `group_id` is required for a `group_type` runner,
 * `project_id` for a `project_type` one (Grape's `given`, checked by the service).
 */
export const RunnerCreate = Type.Object(
  {
    runner_type: RunnerType,
    group_id: Type.Optional(Type.Integer()),
    project_id: Type.Optional(Type.Integer()),
    ...runnerAttributes,
  },
  { title: 'RunnerCreate' },
)
export type RunnerCreate = Static<typeof RunnerCreate>

/** `PUT /runners/:id` (lib/api/ci/runners.rb): at least one attribute; `active` is the deprecated `paused`. */
export const RunnerUpdate = Type.Object(
  { ...runnerAttributes, active: Type.Optional(boolParam(deprecated('use paused'))) },
  {
    title: 'RunnerUpdate',
    'x-mutually-exclusive': [['active', 'paused']],
    'x-at-least-one-of': [
      'description',
      'active',
      'paused',
      'tag_list',
      'run_untagged',
      'locked',
      'access_level',
      'maximum_timeout',
      'maintenance_note',
    ],
  },
)
export type RunnerUpdate = Static<typeof RunnerUpdate>

const runnerFilters = {
  type: Type.Optional(RunnerType),
  paused: Type.Optional(boolParam()),
  status: Type.Optional(literals(RUNNER_STATUSES)),
  tag_list: Type.Optional(csvParam()),
  version_prefix: Type.Optional(Type.String({ description: "a version prefix, as '15.1.' or '16.'" })),
  ...PageQuery.properties,
}
/**
 * The runner lists' filters (lib/api/ci/runners.rb `filter_params`) with the deprecated `scope`
 * (`GET /runners`, `/runners/all`, `/projects/:id/runners`; checked by the service, whose values
 * differ by list).
 */
export const RunnerListQuery = Type.Object(
  { scope: Type.Optional(Type.String(deprecated('use type or status'))), ...runnerFilters },
  { title: 'RunnerListQuery' },
)
export type RunnerListQuery = Static<typeof RunnerListQuery>
/** `GET /groups/:id/runners`: the filters without `scope`. */
export const GroupRunnerListQuery = Type.Object(runnerFilters, { title: 'GroupRunnerListQuery' })

/** `POST /projects/:id/runners`. */
export const RunnerEnable = Type.Object({ runner_id: Type.Integer() }, { title: 'RunnerEnable' })
/** `POST /runners/verify` and `DELETE /runners` (lib/api/ci/runner.rb): the runner's authentication token. */
export const RunnerTokenParams = Type.Object(
  {
    token: Type.String({ description: "the runner's authentication token" }),
    system_id: Type.Optional(Type.String()),
  },
  { title: 'RunnerTokenParams' },
)
/** `POST /runners/:id/reset_authentication_token`: `Entities::Ci::ResetTokenResult` of an expirable token. */
export const RunnerTokenReset = Type.Object(
  { token: Type.String(), token_expires_at: Nullable(Timestamp) },
  { title: 'RunnerTokenReset' },
)
export type RunnerTokenReset = Static<typeof RunnerTokenReset>

/** `GET /runners/:id/jobs` (lib/api/ci/runners.rb). */
export const RunnerJobsQuery = Type.Object(
  {
    system_id: Type.Optional(Type.String()),
    status: Type.Optional(PipelineStatus),
    order_by: Type.Optional(Type.Literal('id')),
    sort: Type.Optional(literals(['asc', 'desc'] as const)),
    cursor: Type.Optional(Type.String()),
    ...PageQuery.properties,
  },
  { title: 'RunnerJobsQuery' },
)
