import { randomBytes } from 'node:crypto'
import type { Clock } from '../domain/clock.js'
import type { Store } from '../store/index.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import { COMPLETED, compositeStatus } from '../domain/composite-status.js'
import { QUEUE_MS } from '../domain/pipeline-schedule.js'
import { jobEmulation } from './job-emulation.js'

/** Told of every status a pipeline or a job moves to (webhooks), inside the write that moved it. */
export interface PipelineObserver {
  pipelineChanged(pipeline: PipelineRow): void
  jobChanged(job: JobRow): void
}

/** Longest wait of the background timer; a far-off job is looked at again after this. */
const MAX_TIMER_MS = 60_000

const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString()

/**
 * Runs the emulator's pipelines: every job carries the time of its
 * next move (`due_at`), and `catchUp()` applies every move due by `clock.now()` in time order,
 * so the state is a function of the clock and of the requests made, never of when we looked.
 * Services call `catchUp()` before they read or change a pipeline (tests drive a manual clock and
 * never sleep); `start()` arms a timer for the next due move so that a server on the system clock
 * also progresses, and persists progress, on its own (not while `standsStill()`: a frozen clock).
 *
 * Schedule (our choice; GitLab's timing depends on its runners): a pipeline is `created` for
 * CREATED_MS; its jobs then run one after another in seed order, each `pending` for QUEUE_MS and
 * `running` for the project's `ci_job_duration`, ending as its `outcome`. The project's
 * `ci_outcome` applies to the last job (`failed`, `canceled`, or `manual`, which waits for a
 * person and leaves the pipeline `manual`); a job that does not succeed skips the jobs after it.
 */
export function pipelineRunner(
  store: Store,
  clock: Clock,
  standsStill: () => boolean = () => false,
  observer?: PipelineObserver,
) {
  const box = store.secrets
  const emulation = jobEmulation(store)
  let timer: NodeJS.Timeout | undefined
  let stopped = false

  /** Recomputes a pipeline's status and times from its current (not retried) jobs. */
  function refresh(pipeline: PipelineRow, now: string): PipelineRow {
    const jobs = store.pipelines.jobs(pipeline.id).filter((j) => j.retried === 0)
    const status = compositeStatus(jobs.map((j) => j.status))
    const starts = jobs.map((j) => j.started_at).filter((s): s is string => s !== null)
    const next: PipelineRow = {
      ...pipeline,
      status,
      started_at: pipeline.started_at ?? (starts.sort()[0] || null),
      finished_at: COMPLETED.has(status) ? (pipeline.finished_at ?? now) : null,
      updated_at: status === pipeline.status ? pipeline.updated_at : now,
    }
    store.pipelines.setState(next)
    if (next.status !== pipeline.status) observer?.pipelineChanged(next)
    return next
  }

  /** One due move of one job, at its due time. */
  function step(job: JobRow): void {
    const due = job.due_at as string
    const pipeline = store.pipelines.byId(job.pipeline_id)
    if (!pipeline) return
    const next: JobRow = { ...job, due_at: null }
    if (job.status === 'created' && job.outcome === 'manual') next.status = 'manual'
    else if (job.status === 'created')
      Object.assign(next, { status: 'pending', queued_at: due, due_at: at(due, QUEUE_MS) })
    else if (job.status === 'pending')
      Object.assign(next, { status: 'running', started_at: due, due_at: at(due, job.duration_ms) })
    else if (job.status === 'running') {
      Object.assign(next, { status: job.outcome, finished_at: due })
      if (job.outcome === 'failed') next.failure_reason = 'script_failure'
    }
    // Its trace and artifacts; a job's script decides how it ends (job-emulation.ts).
    emulation.moved(job, next)
    store.pipelines.setJob(next)
    if (next.status !== job.status) observer?.jobChanged(next)
    if (COMPLETED.has(next.status)) {
      const later = store.pipelines
        .jobs(job.pipeline_id)
        .filter((j) => j.retried === 0 && j.position > job.position && j.status === 'created')
      const [first] = later
      if (next.status === 'success' && first) store.pipelines.setJob({ ...first, due_at: due })
      else if (next.status !== 'success')
        for (const j of later) store.pipelines.setJob({ ...j, status: 'skipped' })
    }
    refresh(pipeline, due)
  }

  /** Applies every move due by now, oldest first; answers how many. */
  function catchUp(): number {
    const now = clock.now().toISOString()
    let moves = 0
    store.transaction(() => {
      for (
        let job = store.pipelines.nextDue();
        job?.due_at && job.due_at <= now;
        job = store.pipelines.nextDue()
      ) {
        step(job)
        moves++
      }
    })
    return moves
  }

  function arm(): void {
    if (timer) clearTimeout(timer)
    timer = undefined
    // A frozen clock brings nothing due: whoever moves it pokes the runner.
    if (stopped || standsStill()) return
    const next = store.pipelines.nextDue()
    if (!next?.due_at) return
    const wait = Math.min(Math.max(Date.parse(next.due_at) - clock.now().getTime(), 20), MAX_TIMER_MS)
    timer = setTimeout(() => {
      if (stopped) return
      catchUp()
      arm()
    }, wait)
    timer.unref()
  }

  return {
    catchUp,
    refresh,
    /** Re-arms the background timer after a change to the schedule (new, retried pipelines). */
    poke: arm,
    /** Starts the background timer; returns the function that stops it for good. */
    start(): () => void {
      arm()
      return () => {
        stopped = true
        if (timer) clearTimeout(timer)
      }
    },
    /** A new job token (`glcbt-` + 40 hex; our format) and its sealed copy for administrators. */
    newJobToken(): { token: string; token_encrypted: string } {
      const token = `glcbt-${randomBytes(20).toString('hex')}`
      return { token, token_encrypted: box.seal(token) }
    },
    /** The plain job token, for the emulator's administrators. */
    openJobToken: (job: JobRow) => box.open(job.token_encrypted),
  }
}
export type PipelineRunner = ReturnType<typeof pipelineRunner>
