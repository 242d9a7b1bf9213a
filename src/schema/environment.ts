import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { BasicProjectDetails } from './namespace.js'
import { boolParam, dateTimeParam, rangeParam } from './params.js'
import { Job, oneOf } from './pipeline.js'

/** `Environment.tiers`. */
export const EnvironmentTier = oneOf(['production', 'staging', 'testing', 'development', 'other'] as const)
/** `Deployment.statuses`. */
export const DeploymentStatus = oneOf([
  'created',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'blocked',
] as const)
/** `Environment.auto_stop_settings`: `with_action` stops it only through stop actions. */
export const EnvironmentAutoStopSetting = oneOf(['always', 'with_action'] as const)
/** What the API may set a deployment to. */
const DeploymentApiStatus = oneOf(['running', 'success', 'failed', 'canceled'] as const)

const basicFields = {
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  external_url: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** `Entities::EnvironmentBasic`: the environment inside a deployment. */
export const EnvironmentBasic = Type.Object(basicFields, { title: 'EnvironmentBasic' })
export type EnvironmentBasic = Static<typeof EnvironmentBasic>

/** `Entities::Deployment` (and `DeploymentExtended`, the same in CE). */
export const Deployment = Type.Object(
  {
    id: Type.Integer(),
    iid: Type.Integer(),
    ref: Type.String(),
    sha: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
    user: Nullable(UserBasic),
    environment: EnvironmentBasic,
    deployable: Nullable(Job),
    status: DeploymentStatus,
  },
  { title: 'Deployment' },
)
export type Deployment = Static<typeof Deployment>

/**
 * `Entities::Environment`: with its project in lists, writes and stops; with its `last_deployment` (the
 * successful one that finished last) and without the project when read alone.
 */
export const Environment = Type.Object(
  {
    ...basicFields,
    tier: EnvironmentTier,
    project: Type.Optional(BasicProjectDetails),
    last_deployment: Type.Optional(Nullable(Deployment)),
    state: oneOf(['available', 'stopping', 'stopped'] as const),
    auto_stop_at: Nullable(Timestamp),
    description: Nullable(Type.String()),
    auto_stop_setting: EnvironmentAutoStopSetting,
  },
  { title: 'Environment', 'x-optional-in-place': true },
)
export type Environment = Static<typeof Environment>

/** `GET /projects/:id/environments`. */
export const EnvironmentListQuery = Type.Object({
  ...PageQuery.properties,
  name: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ description: 'at least 3 characters' })),
  states: Type.Optional(oneOf(['available', 'stopping', 'stopped'] as const)),
})
export type EnvironmentListQuery = Static<typeof EnvironmentListQuery>

/**
 * `POST /projects/:id/environments`; `slug` is refused (it is made from the name); `description` at most
 * 10,000 characters, a blank one none.
 */
export const EnvironmentCreate = Type.Object({
  name: Type.String(),
  external_url: Type.Optional(Type.String()),
  tier: Type.Optional(EnvironmentTier),
  description: Type.Optional(Type.String()),
  auto_stop_setting: Type.Optional(EnvironmentAutoStopSetting),
  slug: Type.Optional(
    Type.String({ description: 'refused: is automatically generated and cannot be changed' }),
  ),
})
export type EnvironmentCreate = Static<typeof EnvironmentCreate>

/**
 * `PUT /projects/:id/environments/:environment_id`: what is given changes. No `name`: GitLab 16.0 stopped
 * renaming through the API (a `name` given is ignored, as any undeclared parameter).
 */
export const EnvironmentUpdate = Type.Object({
  external_url: Type.Optional(Type.String()),
  tier: Type.Optional(EnvironmentTier),
  description: Type.Optional(Type.String()),
  auto_stop_setting: Type.Optional(EnvironmentAutoStopSetting),
  slug: Type.Optional(
    Type.String({ description: 'refused: is automatically generated and cannot be changed' }),
  ),
})
export type EnvironmentUpdate = Static<typeof EnvironmentUpdate>

/** `POST .../environments/:environment_id/stop`; `force` stops at once, without playing the `on_stop` job. */
export const EnvironmentStop = Type.Object({ force: Type.Optional(boolParam({ default: false })) })
export type EnvironmentStop = Static<typeof EnvironmentStop>

/** `POST /projects/:id/environments/stop_stale`: those neither changed nor deployed to since `before`. */
export const EnvironmentStopStale = Type.Object({ before: dateTimeParam() })
export type EnvironmentStopStale = Static<typeof EnvironmentStopStale>

/**
 * `DELETE /projects/:id/environments/review_apps`: the stopped environments of the `review` folder made
 * before `before` (30 days before now unless given) and not yet scheduled, the oldest first, at most `limit`
 * (1 to 1000, 100); a dry run (`dry_run`, true unless told) schedules nothing.
 */
export const ReviewAppsDeleteQuery = Type.Object({
  before: Type.Optional(dateTimeParam()),
  limit: Type.Optional(rangeParam(1, 1000, { default: 100 })),
  dry_run: Type.Optional(boolParam({ default: true })),
})
export type ReviewAppsDeleteQuery = Static<typeof ReviewAppsDeleteQuery>

/** What `DELETE .../environments/review_apps` answers: those it schedules for deletion, and those it may not. */
export const ReviewAppsDeletion = Type.Object(
  {
    scheduled_entries: Type.Array(EnvironmentBasic),
    unprocessable_entries: Type.Array(EnvironmentBasic),
  },
  { title: 'ReviewAppsDeletion' },
)
export type ReviewAppsDeletion = Static<typeof ReviewAppsDeletion>

/** `GET /projects/:id/deployments` (`DeploymentsFinder`): `id` ascending unless told. */
export const DeploymentListQuery = Type.Object({
  ...PageQuery.properties,
  order_by: Type.Optional(oneOf(['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'] as const)),
  sort: Type.Optional(oneOf(['asc', 'desc'] as const)),
  updated_after: Type.Optional(dateTimeParam()),
  updated_before: Type.Optional(dateTimeParam()),
  finished_after: Type.Optional(dateTimeParam()),
  finished_before: Type.Optional(dateTimeParam()),
  environment: Type.Optional(Type.String()),
  status: Type.Optional(DeploymentStatus),
})
export type DeploymentListQuery = Static<typeof DeploymentListQuery>

/** `POST /projects/:id/deployments`: a deployment made outside GitLab CI. */
export const DeploymentCreate = Type.Object({
  environment: Type.String(),
  sha: Type.String(),
  ref: Type.String(),
  tag: boolParam(),
  status: DeploymentApiStatus,
})
export type DeploymentCreate = Static<typeof DeploymentCreate>

/** `PUT /projects/:id/deployments/:deployment_id`. */
export const DeploymentUpdate = Type.Object({ status: DeploymentApiStatus })
export type DeploymentUpdate = Static<typeof DeploymentUpdate>
