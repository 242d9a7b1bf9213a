import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { Store } from '../store/index.js'
import type { JobStateRow } from '../store/job-outputs.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'

/**
 * Starts a manual or delayed job now (`Ci::PlayBuildService#execute`, the access checks being the
 * caller's): a delayed job leaves `scheduled` at once, a manual one starts as a created job would, and
 * its pipeline moves on. `state` is what the play records on the job (its user, its variables).
 */
export function playJob(
  store: Store,
  runner: PipelineRunner,
  job: JobRow,
  pipelineId: number,
  now: string,
  state: Partial<Omit<JobStateRow, 'build_id'>> = {},
): void {
  store.transaction(() => {
    if (Object.keys(state).length > 0) store.jobOutputs.setState(job.id, state)
    const status = job.status === 'scheduled' ? 'scheduled' : 'created'
    store.pipelines.setJob({ ...job, status, outcome: 'success', due_at: now })
    runner.catchUp()
    runner.refresh(store.pipelines.byId(pipelineId) as PipelineRow, now)
  })
  runner.poke()
}
