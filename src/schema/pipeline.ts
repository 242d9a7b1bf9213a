import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox'
import { Commit } from './commit.js'
import { Nullable, PageQuery, Timestamp, UserBasic } from './common.js'
import { dateTimeParam, boolParam } from './params.js'

/** A string parameter or field that takes one of `values` (Grape's `values:`). */
export const oneOf = <T extends string>(values: readonly T[], options: object = {}): TUnion<TLiteral<T>[]> =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  )

/**
 * GitLab's pipeline and job statuses (`Ci::HasStatus::AVAILABLE_STATUSES`,
 * `app/models/concerns/ci/has_status.rb`).
 */
export const PipelineStatus = oneOf([
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const)
export type PipelineStatus = Static<typeof PipelineStatus>

/**
 * Whether a job or pipeline in each status is completed, moves no more on its own
 * (`Ci::HasStatus::COMPLETED_STATUSES`, `app/models/concerns/ci/has_status.rb`). Keyed by the whole
 * union, so that a new status cannot be added without deciding.
 */
const completed: Record<PipelineStatus, boolean> = {
  created: false,
  waiting_for_resource: false,
  preparing: false,
  waiting_for_callback: false,
  pending: false,
  running: false,
  success: true,
  failed: true,
  canceling: false,
  canceled: true,
  skipped: true,
  manual: false,
  scheduled: false,
}

/** The completed statuses: success, failed, canceled, skipped. */
export const COMPLETED_STATUSES: readonly PipelineStatus[] = PipelineStatus.anyOf
  .map((literal) => literal.const)
  .filter((status) => completed[status])

/** `Ci::Pipeline.sources`: `trigger` for trigger tokens, `pipeline` for CI/CD job tokens. */
export const PipelineSource = oneOf([
  'unknown',
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
  'security_orchestration_policy',
  'container_registry_push',
  'duo_workflow',
  'pipeline_execution_policy_schedule',
] as const)
export type PipelineSource = Static<typeof PipelineSource>

/** `DetailedStatusEntity`: how GitLab's UI would draw the status. */
export const DetailedStatus = Type.Object(
  {
    icon: Type.String(),
    text: Type.String(),
    label: Type.String(),
    group: Type.String(),
    tooltip: Type.String(),
    has_details: Type.Boolean(),
    details_path: Type.String(),
    illustration: Nullable(Type.Unknown()),
    favicon: Type.String(),
  },
  { title: 'DetailedStatus' },
)
export type DetailedStatus = Static<typeof DetailedStatus>

const basic = {
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  sha: Type.String(),
  ref: Type.String(),
  status: PipelineStatus,
  source: PipelineSource,
  created_at: Timestamp,
  updated_at: Timestamp,
  web_url: Type.String(),
}
const details = {
  before_sha: Type.String(),
  tag: Type.Boolean(),
  yaml_errors: Nullable(Type.String()),
  user: Nullable(UserBasic),
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  committed_at: Nullable(Timestamp),
  duration: Nullable(Type.Integer({ description: 'seconds' })),
  queued_duration: Nullable(Type.Number({ description: 'seconds' })),
  coverage: Nullable(Type.String()),
  detailed_status: DetailedStatus,
}

/** `Entities::Ci::PipelineBasic`, embedded in jobs. */
export const PipelineBasic = Type.Object(basic, { title: 'PipelineBasic' })
export type PipelineBasic = Static<typeof PipelineBasic>
/** List items of `GET /projects/:id/pipelines` (`PipelineBasicWithMetadata`). */
export const PipelineListItem = Type.Object(
  { ...basic, name: Nullable(Type.String()) },
  { title: 'PipelineListItem' },
)
export type PipelineListItem = Static<typeof PipelineListItem>
/** GitLab's doc/api/pipeline_triggers.md: the trigger, cancel and retry responses (`Entities::Ci::Pipeline`). */
export const Pipeline = Type.Object({ ...basic, ...details }, { title: 'Pipeline' })
export type Pipeline = Static<typeof Pipeline>
/** `GET /projects/:id/pipelines/:pipeline_id` (`PipelineWithMetadata`). */
export const PipelineWithMetadata = Type.Object(
  { ...basic, ...details, name: Nullable(Type.String()) },
  { title: 'PipelineWithMetadata' },
)
export type PipelineWithMetadata = Static<typeof PipelineWithMetadata>

/** `Entities::Ci::Variable` as pipeline variables show it. */
export const PipelineVariable = Type.Object(
  { variable_type: Type.String(), key: Type.String(), value: Type.String() },
  { title: 'PipelineVariable' },
)
export type PipelineVariable = Static<typeof PipelineVariable>

/** `Entities::Ci::JobBasic`'s fields; `failure_reason` only on failed jobs. */
const jobBasic = {
  id: Type.Integer(),
  status: PipelineStatus,
  stage: Type.String(),
  name: Type.String(),
  ref: Type.String(),
  tag: Type.Boolean(),
  coverage: Nullable(Type.Number()),
  allow_failure: Type.Boolean(),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
  erased_at: Nullable(Timestamp),
  duration: Nullable(Type.Number()),
  queued_duration: Nullable(Type.Number()),
  user: Nullable(UserBasic),
  /** The pipeline's commit (`Ci::Build#commit`); null when the repository does not hold it. */
  commit: Nullable(Commit),
  pipeline: PipelineBasic,
  failure_reason: Type.Optional(Type.String()),
  web_url: Type.String(),
  project: Type.Object({ ci_job_token_scope_enabled: Type.Boolean() }),
}

/** `Entities::Ci::JobBasic`, what a bridge (a trigger job) shows besides its downstream pipeline. */
export const JobBasic = Type.Object(jobBasic, { title: 'JobBasic', 'x-optional-in-place': true })
export type JobBasic = Static<typeof JobBasic>

/** `Entities::Ci::JobArtifact`: one of a job's artifacts (its archive, its trace). */
export const JobArtifact = Type.Object(
  {
    file_type: Type.String(),
    size: Type.Integer(),
    filename: Type.String(),
    file_format: Nullable(Type.String()),
  },
  { title: 'JobArtifact' },
)
export type JobArtifact = Static<typeof JobArtifact>

/** `Entities::Ci::JobArtifactFile`: the archive, on jobs that have one. */
export const JobArtifactFile = Type.Object(
  { filename: Type.String(), size: Type.Integer() },
  { title: 'JobArtifactFile' },
)

/** `Entities::Ci::Job` (`GET .../pipelines/:pipeline_id/jobs`, `GET /projects/:id/jobs`). */
export const Job = Type.Object(
  {
    ...jobBasic,
    artifacts_file: Type.Optional(JobArtifactFile),
    artifacts: Type.Array(JobArtifact),
    runner: Nullable(Type.Unknown()),
    runner_manager: Nullable(Type.Unknown()),
    artifacts_expire_at: Nullable(Timestamp),
    archived: Type.Boolean(),
    tag_list: Type.Array(Type.String()),
  },
  // `failure_reason` and `artifacts_file` where Grape writes them, among the others.
  { title: 'Job', 'x-optional-in-place': true },
)
export type Job = Static<typeof Job>

/** `GET /projects/:id/pipelines` (the basic filters of `lib/api/ci/pipelines.rb`). */
export const PipelineListQuery = Type.Object({
  ...PageQuery.properties,
  scope: Type.Optional(oneOf(['running', 'pending', 'finished', 'branches', 'tags'] as const)),
  status: Type.Optional(PipelineStatus),
  ref: Type.Optional(Type.String()),
  sha: Type.Optional(Type.String()),
  yaml_errors: Type.Optional(boolParam()),
  username: Type.Optional(Type.String()),
  updated_before: Type.Optional(dateTimeParam()),
  updated_after: Type.Optional(dateTimeParam()),
  created_before: Type.Optional(dateTimeParam()),
  created_after: Type.Optional(dateTimeParam()),
  order_by: Type.Optional(
    oneOf(['id', 'status', 'ref', 'updated_at', 'user_id'] as const, { default: 'id' }),
  ),
  sort: Type.Optional(oneOf(['asc', 'desc'] as const, { default: 'desc' })),
  source: Type.Optional(PipelineSource),
  name: Type.Optional(Type.String()),
})
export type PipelineListQuery = Static<typeof PipelineListQuery>

/** `GET .../pipelines/:pipeline_id/jobs`: `scope` is one status or a list of them. */
export const JobListQuery = Type.Object({
  ...PageQuery.properties,
  include_retried: Type.Optional(boolParam({ default: false })),
  scope: Type.Optional(Type.Union([PipelineStatus, Type.Array(PipelineStatus)])),
})
export type JobListQuery = Static<typeof JobListQuery>

/** Body of the emulator control `PUT /-/emulator/projects/:id/pipelines/:pipeline_id`. */
export const EmulatorPipelineUpdate = Type.Object({ status: PipelineStatus })
export type EmulatorPipelineUpdate = Static<typeof EmulatorPipelineUpdate>

/**
 * The emulator's view `GET /-/emulator/projects/:id/pipelines/:pipeline_id` (ours): the pipeline as
 * `Pipeline`, and each of its jobs, retried ones too, with the CI/CD job token of a running one.
 */
export const EmulatorPipelineView = Type.Object({
  pipeline: Pipeline,
  jobs: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      status: PipelineStatus,
      retried: Type.Boolean(),
      token: Nullable(
        Type.String({ description: 'The job token while the job is `running` or `canceling`, else null' }),
      ),
    }),
  ),
})
export type EmulatorPipelineView = Static<typeof EmulatorPipelineView>

/** `POST /projects/:id/pipeline` (`lib/api/ci/pipelines.rb`): `inputs` from GitLab 17.10. */
export const PipelineCreate = Type.Object({
  ref: Type.String({ description: 'branch or tag' }),
  variables: Type.Optional(
    Type.Array(
      Type.Object({
        key: Type.Optional(Type.String()),
        value: Type.Optional(Type.String()),
        variable_type: Type.Optional(Type.Union([Type.Literal('env_var'), Type.Literal('file')])),
      }),
    ),
  ),
  inputs: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'checked against spec:inputs' }),
  ),
})
export type PipelineCreate = Static<typeof PipelineCreate>
