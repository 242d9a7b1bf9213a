import { isEnvironmentName } from '../ci/environment.js'
import type { PipelinePlan } from '../ci/pipeline-plan.js'
import { CREATED_MS } from '../domain/pipeline-schedule.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { Store } from '../store/index.js'
import type { ProjectRow } from '../store/projects.js'
import { ensureJobEnvironment } from './job-environments.js'

/**
 * The jobs of a planned pipeline (`Chain::Populate`, `Chain::Create`), in GitLab's order (stage, then as
 * written): each with its definition (what the job runner emulates) and its place (stage, bridge);
 * those whose turn comes first are due after CREATED_MS. A manual job's outcome is `manual` (it waits
 * for a person when its turn comes); every other job's is decided when it runs.
 */
export function insertPlannedJobs(
  store: Store,
  runner: PipelineRunner,
  input: { pipelineId: number; plan: PipelinePlan; project: ProjectRow; now: string },
): void {
  const { pipelineId, plan, project, now } = input
  let failed = false
  const pipeline = store.pipelines.byId(pipelineId)!
  plan.jobs.forEach((job, position) => {
    // `Chain::EnsureEnvironments`: a job whose environment name its variables made invalid fails at once.
    const environment = job.bridge ? undefined : job.definition.environment
    const unusable = environment !== undefined && !isEnvironmentName(environment.name)
    failed ||= unusable
    const id = store.pipelines.insertJob({
      pipeline_id: pipelineId,
      name: job.name,
      stage: job.stage,
      position,
      status: unusable ? 'failed' : 'created',
      outcome: job.definition.when === 'manual' ? 'manual' : 'success',
      duration_ms: project.ci_job_duration_ms,
      ...runner.newJobToken(),
      created_at: now,
      queued_at: null,
      started_at: null,
      finished_at: null,
      due_at: null,
    })
    if (unusable)
      store.pipelines.setJob({ ...store.pipelines.job(id)!, failure_reason: 'environment_creation_failure' })
    store.jobDefinitions.put(id, job.definition)
    ensureJobEnvironment(store, pipeline, id, environment, now)
    store.ciProcessables.put({
      build_id: id,
      pipeline_id: pipelineId,
      stage_idx: job.stageIndex,
      bridge: job.bridge ? 1 : 0,
      downstream_pipeline_id: null,
    })
  })
  runner.advance(pipelineId, new Date(Date.parse(now) + CREATED_MS).toISOString())
  // The failed job counts at once, as GitLab processes the new pipeline (it may have nothing else to run).
  if (failed) runner.refresh(store.pipelines.byId(pipelineId)!, now)
}
