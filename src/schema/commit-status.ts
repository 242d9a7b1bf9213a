import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { boolParam } from './params.js'
import { oneOf, PipelineStatus } from './pipeline.js'

/**
 * `Entities::CommitStatus` (`lib/api/entities/commit_status.rb`): a status an external CI system posted
 * on a commit, or a job of one of the commit's pipelines, as `GET .../commits/:sha/statuses` lists them.
 */
export const CommitStatus = Type.Object(
  {
    id: Type.Integer(),
    sha: Type.String(),
    ref: Type.String(),
    status: PipelineStatus,
    name: Type.String(),
    target_url: Nullable(Type.String()),
    description: Nullable(Type.String()),
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
    allow_failure: Type.Boolean(),
    coverage: Nullable(Type.Number()),
    pipeline_id: Type.Integer(),
    author: Nullable(UserBasic),
  },
  { title: 'CommitStatus' },
)
export type CommitStatus = Static<typeof CommitStatus>

/** The states `POST /projects/:id/statuses/:sha` takes (`lib/api/commit_statuses.rb`). */
export const COMMIT_STATUS_STATES = [
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
] as const

/**
 * `POST /projects/:id/statuses/:sha`: `name` (or its alias `context`, `default` without either) names the
 * status; without `pipeline_id` it goes to the newest pipeline of the sha (and `ref`), else a new one.
 */
export const CommitStatusCreate = Type.Object({
  state: oneOf(COMMIT_STATUS_STATES),
  ref: Type.Optional(Type.String()),
  target_url: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  context: Type.Optional(Type.String()),
  coverage: Type.Optional(Type.Number()),
  pipeline_id: Type.Optional(Type.Integer()),
})
export type CommitStatusCreate = Static<typeof CommitStatusCreate>

/**
 * `GET /projects/:id/repository/commits/:sha/statuses`: `all` keeps retried ones; ordered by `id` (or
 * `pipeline_id`, then `id`), ascending unless `sort` says otherwise.
 */
export const CommitStatusListQuery = Type.Object({
  ...PageQuery.properties,
  ref: Type.Optional(Type.String()),
  stage: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  pipeline_id: Type.Optional(Type.Integer()),
  all: Type.Optional(boolParam({ default: false })),
  order_by: Type.Optional(oneOf(['id', 'pipeline_id'] as const, { default: 'id' })),
  sort: Type.Optional(oneOf(['asc', 'desc'] as const, { default: 'asc' })),
})
export type CommitStatusListQuery = Static<typeof CommitStatusListQuery>
