import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { Store } from '../store/index.js'
import type { JobStateRow } from '../store/job-outputs.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import { copyPlace } from './pipeline-writes.js'

/**
 * Starts a manual or delayed job now (`Ci::PlayBuildService#execute`, the access checks being the
 * caller's): a delayed job leaves `scheduled` at once, a manual one starts as a created job would, and
 * its pipeline moves on. `state` is what the play records on the job (its user, its variables). A job
 * that cannot be played is retried instead (`retryJob`), as that service does.
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

/**
 * `Ci::RetryJobService` (the access checks being the caller's): a new job in the finished `job`'s place
 * (the old one `retried`, the new one run at once, its environment and deployment made again), the
 * skipped jobs after it waiting again (`ResetSkippedJobsService`). The new job's id.
 */
export function retryJob(
  store: Store,
  runner: PipelineRunner,
  job: JobRow,
  pipeline: PipelineRow,
  now: string,
): number {
  const id = store.transaction(() => {
    store.pipelines.setJob({ ...job, retried: 1, due_at: null })
    const fresh = store.pipelines.insertJob({
      ...job,
      ...runner.newJobToken(),
      status: 'created',
      outcome: 'success',
      created_at: now,
      queued_at: null,
      started_at: null,
      finished_at: null,
      due_at: now,
    })
    copyPlace(store, pipeline, job.id, fresh, now)
    for (const j of store.pipelines.jobs(job.pipeline_id))
      if (j.retried === 0 && j.position > job.position && j.status === 'skipped')
        store.pipelines.setJob({ ...j, status: 'created', due_at: null })
    runner.catchUp()
    runner.refresh({ ...(store.pipelines.byId(pipeline.id) as PipelineRow), finished_at: null }, now)
    return fresh
  })
  runner.poke()
  return id
}
