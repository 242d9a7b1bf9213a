import { COMPLETED } from '../domain/composite-status.js'
import type { JobOutputs } from '../present/pipelines.js'
import type { Store } from '../store/index.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import { readCommit } from '../git/history.js'

/**
 * What a job left (trace, archive), its state beyond `ci_builds` and its pipeline's commit (as the
 * repository holds it), as its entity shows them.
 */
export function jobOutputsOf(store: Store, job: JobRow, pipeline: Pick<PipelineRow, 'sha'>): JobOutputs {
  const state = store.jobOutputs.state(job.id)
  const definition = store.jobDefinitions.get(job.id)
  const artifact = store.jobOutputs.artifact(job.id)
  const traceSize = COMPLETED.has(job.status) ? store.jobOutputs.traceSize(job.id) : undefined
  const player = state.user_id === null ? undefined : store.users.get(state.user_id)
  const commit = readCommit(store.gitObjects, pipeline.sha)
  return {
    allowFailure: definition?.allow_failure === true || state.allow_failure === 1,
    erasedAt: state.erased_at,
    ...(player ? { player } : {}),
    ...(artifact ? { artifact } : {}),
    ...(traceSize !== undefined ? { traceSize } : {}),
    ...(commit ? { commit } : {}),
  }
}
