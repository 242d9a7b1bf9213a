import { COMPLETED } from '../domain/composite-status.js'
import type { JobOutputs } from '../present/pipelines.js'
import type { Store } from '../store/index.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import { readCommit, type HistoryCommit } from '../git/history.js'

/** A pipeline's commit as the repository holds it (read once for all the jobs of a pipeline one answer shows). */
export const pipelineCommit = (store: Store, pipeline: Pick<PipelineRow, 'sha'>) =>
  readCommit(store.gitObjects, pipeline.sha)

/**
 * What a job left (trace, archive), its state beyond `ci_builds` and its pipeline's commit
 * (`pipelineCommit`), as its entity shows them.
 */
export function jobOutputsOf(store: Store, job: JobRow, commit: HistoryCommit | undefined): JobOutputs {
  const state = store.jobOutputs.state(job.id)
  const definition = store.jobDefinitions.get(job.id)
  const artifact = store.jobOutputs.artifact(job.id)
  const traceSize = COMPLETED.has(job.status) ? store.jobOutputs.traceSize(job.id) : undefined
  const player = state.user_id === null ? undefined : store.users.get(state.user_id)
  return {
    allowFailure: definition?.allow_failure === true || state.allow_failure === 1,
    erasedAt: state.erased_at,
    goneArtifactsExpireAt: state.artifacts_expire_at,
    ...(player ? { player } : {}),
    ...(artifact ? { artifact } : {}),
    ...(traceSize !== undefined ? { traceSize } : {}),
    ...(commit ? { commit } : {}),
  }
}
