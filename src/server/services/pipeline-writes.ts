import type { PipelineStatus } from '../../schema/index.js'
import { COMPLETED } from '../domain/composite-status.js'
import { CREATED_MS } from '../domain/pipeline-schedule.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { Store } from '../store/index.js'
import type { PipelineRow, VariableRow } from '../store/pipelines.js'
import type { ProjectRow } from '../store/projects.js'
import type { PipelinePlan } from '../ci/pipeline-plan.js'
import { ensureJobEnvironment } from './job-environments.js'
import { insertPlannedJobs } from './planned-jobs.js'

export interface NewPipelineInput {
  project: ProjectRow
  ref: string
  sha: string
  /** The ref is a tag (`Chain::Build`: `tag: @command.tag_exists?`). */
  tag: boolean
  userId: number | null
  /** `CI_PIPELINE_SOURCE`: `trigger`, `pipeline` (a job token or a multi-project bridge), `api`, `web`, `push`, `parent_pipeline`. */
  source: 'trigger' | 'pipeline' | 'api' | 'web' | 'push' | 'parent_pipeline' | 'schedule'
  triggerId?: number
  /** The pipeline schedule that made it (`source: schedule`). */
  scheduleId?: number
  upstream?: { pipelineId: number; jobId: number }
  variables: VariableRow[]
  /** The jobs of the `.gitlab-ci.yml` at `sha` (services/ci-plans.ts); none: the seed's `ci_jobs` shortcut. */
  plan?: PipelinePlan
  /** `inputs` given with the request (`POST /pipeline`, triggers), checked against the config's `spec:inputs`. */
  inputs?: Record<string, unknown>
}

/*
 * The writes behind create, retry and force, each run inside the caller's transaction: a
 * pipeline's rows as the runner then moves them.
 */

/** A new pipeline in `created` with the project's jobs; the first moves after CREATED_MS. */
export function insertPipeline(
  store: Store,
  runner: PipelineRunner,
  input: NewPipelineInput,
  now: string,
): PipelineRow {
  const p = input.project
  const id = store.pipelines.insert({
    project_id: p.id,
    ref: input.ref,
    sha: input.sha,
    tag: input.tag ? 1 : 0,
    status: 'created',
    source: input.source,
    user_id: input.userId,
    trigger_id: input.triggerId ?? null,
    upstream_pipeline_id: input.upstream?.pipelineId ?? null,
    upstream_job_id: input.upstream?.jobId ?? null,
    created_at: now,
    updated_at: now,
  })
  store.pipelines.addVariables(id, input.variables)
  if (input.scheduleId !== undefined) store.pipelineSchedules.linkPipeline(id, input.scheduleId)
  if (input.plan) {
    insertPlannedJobs(store, runner, { pipelineId: id, plan: input.plan, project: p, now })
    return store.pipelines.byId(id) as PipelineRow
  }
  const names = JSON.parse(p.ci_jobs) as string[]
  names.forEach((name, n) =>
    store.pipelines.insertJob({
      pipeline_id: id,
      name,
      stage: name,
      position: n,
      status: 'created',
      outcome: n === names.length - 1 ? p.ci_outcome : 'success',
      duration_ms: p.ci_job_duration_ms,
      ...runner.newJobToken(),
      created_at: now,
      queued_at: null,
      started_at: null,
      finished_at: null,
      due_at: n === 0 ? new Date(Date.parse(now) + CREATED_MS).toISOString() : null,
    }),
  )
  return store.pipelines.byId(id) as PipelineRow
}

/**
 * Failed and canceled jobs replaced by new ones (the old ones `retried`), skipped ones run again.
 * `replaceFailed: false` for a caller without `retry_job` (the builds feature closed to them):
 * `Ci::RetryPipelineService` passes over those jobs, and still runs the skipped ones again.
 */
export function retryJobs(
  store: Store,
  runner: PipelineRunner,
  pipeline: PipelineRow,
  now: string,
  replaceFailed = true,
): PipelineRow {
  const again: number[] = []
  for (const job of store.pipelines.jobs(pipeline.id)) {
    if (job.retried !== 0) continue
    const fresh = {
      queued_at: null,
      started_at: null,
      finished_at: null,
      failure_reason: null,
      due_at: null,
    }
    if (job.status === 'skipped') {
      const manual = store.jobDefinitions.get(job.id)?.when === 'manual'
      store.pipelines.setJob({ ...job, ...fresh, status: 'created', outcome: manual ? 'manual' : 'success' })
      again.push(job.position)
    } else if (replaceFailed && (job.status === 'failed' || job.status === 'canceled')) {
      store.pipelines.setJob({ ...job, retried: 1, due_at: null })
      const id = store.pipelines.insertJob({
        ...job,
        ...fresh,
        ...runner.newJobToken(),
        status: 'created',
        outcome: 'success',
        created_at: now,
      })
      copyPlace(store, pipeline, job.id, id, now)
      again.push(job.position)
    }
  }
  if (again.length === 0) return pipeline
  if (store.ciProcessables.isPlanned(pipeline.id)) {
    // A planned pipeline gives the jobs their turn again by stages and needs (pipeline-dag.ts).
    runner.advance(pipeline.id, now)
    return runner.refresh({ ...pipeline, finished_at: null }, now)
  }
  const first = Math.min(...again)
  const [next] = store.pipelines.jobs(pipeline.id).filter((j) => j.retried === 0 && j.position === first)
  if (next) store.pipelines.setJob({ ...next, due_at: now })
  return runner.refresh({ ...pipeline, finished_at: null }, now)
}

/** A retried job's new row keeps the old one's definition and place in the plan (none for shortcut jobs). */
export function copyPlace(store: Store, pipeline: PipelineRow, from: number, to: number, now: string): void {
  const definition = store.jobDefinitions.get(from)
  const place = store.ciProcessables.get(from)
  if (definition) {
    store.jobDefinitions.put(to, definition)
    // The new job deploys again (`Ci::RetryJobService` clones the job, with a new deployment).
    if (!place?.bridge) ensureJobEnvironment(store, pipeline, to, definition.environment, now)
  }
  if (place) store.ciProcessables.put({ ...place, build_id: to, downstream_pipeline_id: null })
}

/** The pipeline and its unfinished jobs take `status`, off the automatic schedule. */
export function forceStatus(store: Store, pipeline: PipelineRow, status: PipelineStatus, now: string): void {
  const done = COMPLETED.has(status)
  for (const job of store.pipelines.jobs(pipeline.id)) {
    if (job.retried !== 0 || COMPLETED.has(job.status)) continue
    store.pipelines.setJob({
      ...job,
      status,
      due_at: null,
      queued_at: job.queued_at ?? (status === 'created' ? null : now),
      started_at: job.started_at ?? (['running', 'canceling'].includes(status) || done ? now : null),
      finished_at: done ? now : null,
      failure_reason: status === 'failed' ? 'script_failure' : null,
    })
  }
  store.pipelines.setState({
    id: pipeline.id,
    status,
    started_at: pipeline.started_at ?? (status === 'running' || done ? now : null),
    finished_at: done ? now : null,
    updated_at: now,
  })
}
