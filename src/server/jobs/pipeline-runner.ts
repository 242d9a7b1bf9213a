import { randomBytes } from 'node:crypto'
import type { Clock } from '../domain/clock.js'
import type { Store } from '../store/index.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import { COMPLETED, compositeStatus } from '../domain/composite-status.js'
import { QUEUE_MS } from '../domain/pipeline-schedule.js'
import type { JobDefinition } from '../ci/job-definition.js'
import { advancePlanned, compositeInput, plannedJobs, scheduledUntil } from './pipeline-dag.js'
import { jobEmulation } from './job-emulation.js'

/** Told of every status a pipeline or a job moves to (webhooks), inside the write that moved it. */
export interface PipelineObserver {
  pipelineChanged(pipeline: PipelineRow): void
  jobChanged(job: JobRow): void
  /** After a pipeline's jobs moved: their deployments may have moved with them (migration 43's rows). */
  deploymentsMoved(): void
}

/**
 * Starts the downstream pipeline of a trigger job (a bridge) at `at`; handed in by the services
 * (`onBridge`), as the runner creates no pipeline itself. Answers the new pipeline's id or why none, or
 * `waitFor`: what it needs first (a child's remote includes, fetched), resolving to the starter to ask
 * again, which holds what was fetched: nothing is kept for a bridge canceled meanwhile.
 */
export type DownstreamStarter = (
  bridge: JobRow,
  definition: JobDefinition,
  at: string,
) => { pipelineId: number } | { error: string; pipelineId?: number } | { waitFor: Promise<DownstreamStarter> }
// `error` is the bridge's `failure_reason` (`downstream_bridge_project_not_found`, `insufficient_bridge_permissions`, ...);
// with `pipelineId`, the failed downstream pipeline GitLab kept (a configuration error).

/** A `strategy: depend` bridge's status from its downstream pipeline's (`Ci::Bridge#inherit_status_from_downstream!`). */
const MIRRORED: Record<string, string> = {
  success: 'success',
  failed: 'failed',
  canceled: 'canceled',
  skipped: 'skipped',
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
 * A pipeline made from a `.gitlab-ci.yml` follows its plan instead (pipeline-dag.ts): stages, `needs`,
 * `when`, `allow_failure`, delayed jobs `scheduled` for their `start_in`, and bridges that start
 * downstream pipelines (a `strategy: depend` bridge then follows its downstream's status).
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
  let startDownstream: DownstreamStarter | undefined
  /** Pipelines being made in the background (a push's or a child's, fetching its remote includes). */
  const creating = new Set<Promise<unknown>>()
  /** Counts the times waiting bridges were asked again: a fetch begun before is not used after. */
  let asked = 0

  /** Recomputes a pipeline's status and times from its current (not retried) jobs. */
  function refresh(pipeline: PipelineRow, now: string): PipelineRow {
    const jobs = store.pipelines.jobs(pipeline.id).filter((j) => j.retried === 0)
    const planned = plannedJobs(store, pipeline.id)
    // Statuses external CI systems posted count as jobs do (`Ci::Pipeline#update_legacy_status`).
    const posted = store.commitStatuses.current(pipeline.id)
    const status = compositeStatus([
      ...(planned.length ? planned.map(compositeInput) : jobs.map((j) => j.status)),
      ...posted.map((s) => s.status),
    ])
    const starts = [...jobs, ...posted].map((j) => j.started_at).filter((s): s is string => s !== null)
    const next: PipelineRow = {
      ...pipeline,
      status,
      started_at: pipeline.started_at ?? (starts.sort()[0] || null),
      finished_at: COMPLETED.has(status) ? (pipeline.finished_at ?? now) : null,
      updated_at: status === pipeline.status ? pipeline.updated_at : now,
    }
    store.pipelines.setState(next)
    // Every write that moves a job refreshes its pipeline: the deployments that followed are told here.
    observer?.deploymentsMoved()
    if (next.status !== pipeline.status) {
      observer?.pipelineChanged(next)
      followDownstream(next, now)
    }
    return next
  }

  /** A `strategy: depend` bridge takes its downstream pipeline's status; its own pipeline moves on. */
  function followDownstream(downstream: PipelineRow, now: string): void {
    if (downstream.upstream_job_id === null) return
    const bridge = store.pipelines.job(downstream.upstream_job_id)
    const definition = bridge && store.jobDefinitions.get(bridge.id)
    if (!bridge || definition?.trigger?.strategy !== 'depend' || COMPLETED.has(bridge.status)) return
    const status = MIRRORED[downstream.status] ?? 'running'
    if (status === bridge.status) return
    const done = COMPLETED.has(status)
    const next: JobRow = { ...bridge, status, due_at: null, finished_at: done ? now : null }
    store.pipelines.setJob(next)
    observer?.jobChanged(next)
    moveOn(next, now)
  }

  /** After a job of a planned pipeline settles: the jobs whose turn it was, then the pipeline's status. */
  function moveOn(job: JobRow, at: string): void {
    for (const skipped of advancePlanned(store, job.pipeline_id, at)) observer?.jobChanged(skipped)
    const pipeline = store.pipelines.byId(job.pipeline_id)
    if (pipeline) refresh(pipeline, at)
  }

  /**
   * A bridge's turn: its downstream pipeline starts; the bridge succeeds, or runs along with `depend`. A
   * downstream pipeline that must wait (fetching) leaves the bridge `pending` until it is made.
   */
  function startBridge(
    next: JobRow,
    definition: JobDefinition,
    due: string,
    starter: DownstreamStarter | undefined = startDownstream,
  ): void {
    const started = starter?.(next, definition, due) ?? { error: 'downstream_pipeline_creation_failed' }
    if ('waitFor' in started) {
      Object.assign(next, { status: 'pending', queued_at: next.queued_at ?? due })
      const round = asked
      track(
        started.waitFor.then((again) => {
          // After a reset or a restore the bridge of that id was asked again (or is another one).
          if (round === asked) startWaitingBridge(next.id, definition, again)
        }),
      )
      return
    }
    Object.assign(next, { queued_at: due, started_at: due })
    if ('error' in started) {
      Object.assign(next, { status: 'failed', finished_at: due, failure_reason: started.error })
      if (started.pipelineId !== undefined) store.ciProcessables.setDownstream(next.id, started.pipelineId)
      return
    }
    store.ciProcessables.setDownstream(next.id, started.pipelineId)
    const downstream = store.pipelines.byId(started.pipelineId)
    const depend = definition.trigger?.strategy === 'depend'
    if (!depend) Object.assign(next, { status: 'success', finished_at: due })
    else if (downstream && MIRRORED[downstream.status])
      Object.assign(next, { status: MIRRORED[downstream.status], finished_at: due })
    else next.status = 'running'
  }

  /**
   * A bridge that waited for its downstream pipeline: started now by `starter` (or asked again from the
   * start), unless it was canceled meanwhile.
   */
  function startWaitingBridge(
    bridgeId: number,
    definition: JobDefinition,
    starter?: DownstreamStarter,
  ): void {
    if (stopped) return
    store.transaction(() => {
      const bridge = store.pipelines.job(bridgeId)
      if (bridge?.status !== 'pending') return
      const now = clock.now().toISOString()
      const next: JobRow = { ...bridge }
      startBridge(next, definition, now, starter)
      store.pipelines.setJob(next)
      if (next.status !== bridge.status) observer?.jobChanged(next)
      if (COMPLETED.has(next.status)) moveOn(next, now)
      else {
        const pipeline = store.pipelines.byId(next.pipeline_id)
        if (pipeline) refresh(pipeline, now)
      }
    })
    arm()
  }

  /**
   * Every bridge left waiting for its downstream pipeline is asked again from the start, as Sidekiq runs
   * a lost `CreateDownstreamPipelineWorker` again: their remote includes are fetched anew, and what
   * fetches were under way is dropped (the store they began in is gone).
   */
  function askWaitingBridges(): void {
    asked++
    for (const id of store.ciProcessables.waitingBridges()) {
      const definition = store.jobDefinitions.get(id)
      if (definition) startWaitingBridge(id, definition)
    }
  }

  /** Counts `work` (making a pipeline in the background) until it ends, for the emulator's settle. */
  function track(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work
      // Once stopped, work that outlived the store (a fetch answered after close) fails unheard.
      .catch((e: unknown) => {
        if (!stopped) process.emitWarning(`pipeline creation failed: ${(e as Error).message}`)
      })
      .finally(() => creating.delete(tracked))
    creating.add(tracked)
  }

  /** One due move of one job, at its due time. */
  function step(job: JobRow): void {
    const due = job.due_at as string
    const pipeline = store.pipelines.byId(job.pipeline_id)
    if (!pipeline) return
    const next: JobRow = { ...job, due_at: null }
    const place = store.ciProcessables.get(job.id)
    const definition = place && store.jobDefinitions.get(job.id)
    if (job.status === 'created' && job.outcome === 'manual') next.status = 'manual'
    else if (job.status === 'created' && definition?.when === 'delayed')
      Object.assign(next, { status: 'scheduled', due_at: scheduledUntil(definition, due) })
    else if (job.status === 'created' && place?.bridge === 1 && definition) startBridge(next, definition, due)
    else if (job.status === 'created' || job.status === 'scheduled')
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
    if (definition) {
      if (COMPLETED.has(next.status) || next.status === 'manual') moveOn(next, due)
      else refresh(pipeline, due)
      return
    }
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
    /** Gives the waiting jobs of a planned pipeline their turn at `at` (a new pipeline, a retry, a played job). */
    advance: (pipelineId: number, at: string) => {
      for (const skipped of advancePlanned(store, pipelineId, at)) observer?.jobChanged(skipped)
    },
    followDownstream,
    /**
     * Hands in what starts a bridge's downstream pipeline (the services, once built); bridges a previous
     * run left waiting (`--data`: its fetches died with it) are asked again.
     */
    onBridge(starter: DownstreamStarter): void {
      startDownstream = starter
      askWaitingBridges()
    },
    /** After a reset or a snapshot restore: the bridges it left waiting are asked again. */
    askWaitingBridges,
    creating: track,
    /** Pipelines still being made in the background. */
    pendingCreations: (): number => creating.size,
    /** Resolves once no pipeline is being made in the background. */
    async created(): Promise<void> {
      while (creating.size > 0) await Promise.allSettled([...creating])
    },
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
