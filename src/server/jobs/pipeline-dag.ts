import type { JobDefinition } from '../ci/job-definition.js'
import { startInSeconds } from '../ci/start-in.js'
import { COMPLETED } from '../domain/composite-status.js'
import type { Store } from '../store/index.js'
import type { JobRow } from '../store/pipelines.js'

/*
 * When the jobs of a pipeline made from a `.gitlab-ci.yml` start (`Ci::PipelineProcessing::AtomicProcessingService`):
 * a job waits for the jobs it `needs`, or without `needs` for every job of the stages before its own;
 * once they are done their composite status and the job's `when` decide: `on_success` (and `manual`,
 * `delayed`) runs after success, `on_failure` after a failure, `always` after anything; otherwise it is
 * `skipped`. A failed job that allows failure counts as a success, and so does a manual job that allows
 * failure and waits (it blocks nothing); a manual job that does not allow failure blocks what follows.
 */

/** A job of a planned pipeline with what decides its turn. */
export interface PlannedJobRow {
  job: JobRow
  stageIdx: number
  bridge: boolean
  definition: JobDefinition
}

const allowsFailure = (d: JobDefinition) => d.allow_failure === true

/** The status a finished (or waiting optional manual) job counts as for those after it; `undefined` while it is not done. */
export function settledStatus(p: PlannedJobRow): 'success' | 'failed' | 'canceled' | 'skipped' | undefined {
  const s = p.job.status
  if (s === 'manual') return allowsFailure(p.definition) ? 'skipped' : undefined
  if (!COMPLETED.has(s)) return undefined
  if ((s === 'failed' || s === 'canceled') && allowsFailure(p.definition)) return 'success'
  if (s === 'success' || s === 'failed' || s === 'canceled' || s === 'skipped') return s
  return 'success'
}

/** What a job's turn brings: start it, skip it, or wait. */
export function decide(job: PlannedJobRow, all: PlannedJobRow[]): 'start' | 'skip' | 'wait' {
  const needs = job.definition.needs
  const deps = all.filter(
    (o) =>
      o.job.id !== job.job.id && (needs !== null ? needs.includes(o.job.name) : o.stageIdx < job.stageIdx),
  )
  const settled = deps.map(settledStatus)
  if (settled.some((s) => s === undefined)) return 'wait'
  const failed = settled.some((s) => s === 'failed' || s === 'canceled')
  const when = job.definition.when
  if (when === 'always') return 'start'
  if (when === 'on_failure') return failed ? 'start' : 'skip'
  return failed ? 'skip' : 'start'
}

/** The planned jobs of a pipeline (current ones, not retried), or none for a seed-shortcut pipeline. */
export function plannedJobs(store: Store, pipelineId: number): PlannedJobRow[] {
  const places = new Map(store.ciProcessables.ofPipeline(pipelineId).map((p) => [p.build_id, p]))
  if (places.size === 0) return []
  const out: PlannedJobRow[] = []
  for (const job of store.pipelines.jobs(pipelineId)) {
    if (job.retried !== 0) continue
    const place = places.get(job.id)
    const definition = store.jobDefinitions.get(job.id)
    if (!place || !definition) continue
    // A failure its `allow_failure: exit_codes` allowed is an allowed failure (`Ci::Build#drop_with_exit_code!`).
    const allowed = store.jobOutputs.state(job.id).allow_failure === 1
    out.push({
      job,
      stageIdx: place.stage_idx,
      bridge: place.bridge === 1,
      definition: allowed ? { ...definition, allow_failure: true } : definition,
    })
  }
  return out
}

/**
 * Gives every waiting job of a planned pipeline its turn at `at`: due then (it starts, or turns
 * `manual` or `scheduled` on its move), or `skipped` at once, which may settle more; answers the jobs skipped.
 */
export function advancePlanned(store: Store, pipelineId: number, at: string): JobRow[] {
  const skipped: JobRow[] = []
  for (let changed = true; changed;) {
    changed = false
    const all = plannedJobs(store, pipelineId)
    for (const p of all) {
      if (p.job.status !== 'created' || p.job.due_at !== null) continue
      const turn = decide(p, all)
      if (turn === 'start') store.pipelines.setJob({ ...p.job, due_at: at })
      else if (turn === 'skip') {
        const next = { ...p.job, status: 'skipped' }
        store.pipelines.setJob(next)
        skipped.push(next)
        changed = true
      }
    }
  }
  return skipped
}

/** When a delayed job that starts at `at` leaves `scheduled` (its `start_in` later). */
export function scheduledUntil(definition: JobDefinition, at: string): string {
  const seconds = startInSeconds(definition.start_in) ?? 0
  return new Date(Date.parse(at) + seconds * 1000).toISOString()
}

/**
 * A job's status for its pipeline's composite (`Gitlab::Ci::Status::Composite` with allowed failures):
 * an allowed failure, or an optional manual job, counts as a success.
 */
export function compositeInput(p: PlannedJobRow): string {
  const s = p.job.status
  if (allowsFailure(p.definition) && (s === 'failed' || s === 'canceled' || s === 'manual')) return 'success'
  return s
}
