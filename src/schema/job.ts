import { Type, type Static } from '@sinclair/typebox'
import { Nullable, PageQuery } from './common.js'
import { boolParam } from './params.js'
import { JobBasic, PipelineBasic, PipelineStatus } from './pipeline.js'

/**
 * `GET /projects/:id/jobs` and `GET .../pipelines/:pipeline_id/bridges` (`lib/api/ci/jobs.rb`'s
 * `optional_scope`): `scope` is one status or a list of them (`scope[]=`).
 */
export const JobScopeQuery = Type.Object({
  ...PageQuery.properties,
  scope: Type.Optional(Type.Union([PipelineStatus, Type.Array(PipelineStatus)])),
})
export type JobScopeQuery = Static<typeof JobScopeQuery>

/** `POST .../jobs/:job_id/play`: variables for a manual job's run. */
export const JobPlayBody = Type.Object({
  job_variables_attributes: Type.Optional(
    Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
  ),
})
export type JobPlayBody = Static<typeof JobPlayBody>

/** `POST .../jobs/:job_id/cancel`: `force` cancels a `canceling` job (Maintainer). */
export const JobCancelBody = Type.Object({ force: Type.Optional(boolParam()) })
export type JobCancelBody = Static<typeof JobCancelBody>

/** `GET /projects/:id/jobs/artifacts/:ref_name/download` and `.../raw/*artifact_path`: the job's name. */
export const ArtifactsByRefQuery = Type.Object({ job: Type.String() })
export type ArtifactsByRefQuery = Static<typeof ArtifactsByRefQuery>

/** `Entities::Ci::Bridge`: a trigger job and the pipeline it started (none yet: null). */
export const Bridge = Type.Object(
  { ...JobBasic.properties, downstream_pipeline: Nullable(PipelineBasic) },
  { title: 'Bridge', 'x-optional-in-place': true },
)
export type Bridge = Static<typeof Bridge>
