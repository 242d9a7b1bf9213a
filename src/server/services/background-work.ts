import type { EmulatorSettled, EmulatorUnsettled } from '../../schema/emulator-clock.js'
import type { EmulatorClock } from '../domain/emulator-clock.js'
import type { JobQueue } from '../jobs/export-queue.js'
import type { HookDelivery } from '../jobs/hook-delivery.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { Store } from '../store/index.js'

/** How long a clock move or a settle waits for export and import jobs by default, in seconds. */
export const DEFAULT_SETTLE_TIMEOUT_S = 10
/** Pipelines named in a settle's 409, at most. */
const STALLED_SHOWN = 20

/** A settle that could not end; `status` 409 (stalled pipelines) or 504 (past its timeout). */
export class UnsettledError extends Error {
  constructor(
    readonly status: 409 | 504,
    readonly body: EmulatorUnsettled,
  ) {
    super(body.message)
  }
}

/**
 * The emulator's clock controls and settle over the server's background work: the pipeline
 * runner (moves due by the clock, src/server/jobs/pipeline-runner.ts), the export and import
 * job queue (src/server/jobs/export-queue.ts), which runs on the event loop, not on the clock, and
 * (settle only) the pipelines being made in the background (a push's or a child's, fetching remote includes)
 * and the webhook deliveries queued or under way (src/server/jobs/hook-delivery.ts).
 */
export function backgroundWork(deps: {
  store: Store
  clock: EmulatorClock
  runner: PipelineRunner
  queue: JobQueue
  deliveries: HookDelivery
  /** The pipeline schedules: those due run once per clock move (never in a settle, which would not end). */
  schedules: { fireDue(): Promise<number> }
  /**
   * The environments whose `auto_stop_at` has passed: stopped on each clock move, as the schedules run;
   * the stopped ones whose `auto_delete_at` has passed: deleted then.
   */
  autoStops: { stopDue(): number; deleteDue(): number }
  /** The job artifacts past their `expire_at`, unless locked: destroyed on each clock move. */
  artifacts: { expireDue(): number }
}) {
  const { store, clock, runner, queue, deliveries, schedules, autoStops, artifacts } = deps

  /** Waits until `idle` resolves or `deadline` (ms since epoch, wall time) passes; true when idle. */
  async function until(idle: () => Promise<void>, deadline: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))
    })
    try {
      return await Promise.race([idle().then(() => true), late])
    } finally {
      clearTimeout(timer)
    }
  }
  /** Waits until the queue is idle or `deadline` passes; true when idle. */
  const drain = async (deadline: number) =>
    queue.pending() === 0 || (await until(() => queue.idle(), deadline))

  // Jobs often end before a settle starts (they run at once): each report counts those that ended
  // since the previous one, so that the count does not depend on how fast a job was.
  let reported = 0
  /** Runs `work` and reports what ran, with the clock after it; the runner's timer is re-armed. */
  async function running(work: (ran: EmulatorSettled['ran']) => Promise<void>): Promise<EmulatorSettled> {
    const ran = { pipeline_moves: 0, transfer_jobs: 0 }
    try {
      await work(ran)
    } finally {
      ran.transfer_jobs = queue.finished() - reported
      reported += ran.transfer_jobs
      runner.poke()
    }
    return { clock: clock.state(), ran }
  }

  const unsettled = (status: 409 | 504, message: string, report: EmulatorSettled) => {
    const inFlight = deliveries.pending()
    return new UnsettledError(status, {
      message,
      ...report,
      pending: {
        pipelines: store.pipelines.stalled(STALLED_SHOWN),
        transfer_jobs: queue.pending(),
        ...(inFlight > 0 ? { webhook_deliveries: inFlight } : {}),
      },
    })
  }

  return {
    /** The clock's time and whether it stands still. */
    clock: () => clock.state(),
    /**
     * Moves the clock (`move` calls one of its methods, which may throw a `ClockMoveError`), runs the
     * pipeline schedules due by its new time (one pipeline each) and applies every pipeline move due by then, oldest first (each stamped with its own due
     * time), stops the environments whose auto-stop time has passed (playing their stop actions), deletes
     * the stopped ones whose auto-delete time has passed, destroys
     * the job artifacts past their `expire_at` that no locked pipeline keeps, then
     * waits (up to `timeoutMs`) for export and import jobs under way.
     */
    moveClock: (move: (c: EmulatorClock) => void, timeoutMs: number) =>
      running(async (ran) => {
        move(clock)
        // `PipelineScheduleWorker` at the new time: each due schedule's pipeline, then every move due.
        await schedules.fireDue()
        ran.pipeline_moves += runner.catchUp()
        // `Environments::AutoStopCronWorker` after those moves (a deployment may have set a time already
        // passed): the environments due stop, their stop actions played now.
        if (autoStops.stopDue() > 0) ran.pipeline_moves += runner.catchUp()
        // `Environments::AutoDeleteCronWorker`: the stopped review apps whose scheduled deletion has come.
        autoStops.deleteDue()
        // `ExpireBuildArtifactsWorker` once the moves have unlocked what newer successful pipelines unlock.
        artifacts.expireDue()
        await drain(Date.now() + timeoutMs)
      }),

    /**
     * Runs all background work to its end: export and import jobs until the queue is idle,
     * pipelines move by move (those still being made awaited), the clock jumping forward to each next
     * due move (never back), then the webhook deliveries queued or under way. Throws an
     * `UnsettledError`: 504 when jobs, pipelines being made or deliveries are still under way after
     * `timeoutMs`, 409 when a pipeline
     * cannot finish on its own (waiting for a manual job); what did run stays done.
     */
    async settle(timeoutMs: number): Promise<EmulatorSettled> {
      const deadline = Date.now() + timeoutMs
      let idle = true
      const report = await running(async (ran) => {
        for (;;) {
          ran.pipeline_moves += runner.catchUp()
          idle = (await drain(deadline)) && Date.now() <= deadline
          if (!idle) return
          if (runner.pendingCreations() > 0) {
            // A pipeline fetching its remote includes (a push's, a child's): once made, it has moves of its own.
            idle = await until(() => runner.created(), deadline)
            if (!idle) return
            continue
          }
          const next = store.pipelines.nextDue()
          if (!next?.due_at) {
            // A job that ended may have queued another (an import's follow-up): go round again.
            if (queue.pending() === 0) return
            continue
          }
          const due = new Date(next.due_at)
          if (due > clock.now()) clock.set(due)
        }
      })
      // Webhook deliveries change nothing the loop reads: those the moves queued are awaited once, together.
      if (idle && deliveries.pending() > 0) idle = await until(() => deliveries.idle(), deadline)
      if (!idle)
        throw unsettled(
          504,
          queue.pending() > 0
            ? `settle timed out after ${timeoutMs / 1000} s: export or import jobs are still running`
            : runner.pendingCreations() > 0
              ? `settle timed out after ${timeoutMs / 1000} s: pipelines are still fetching their remote includes`
              : `settle timed out after ${timeoutMs / 1000} s: webhook deliveries are still under way`,
          report,
        )
      if (store.pipelines.stalled(1).length > 0)
        throw unsettled(
          409,
          'settle cannot finish every pipeline: some wait for a manual job or a person',
          report,
        )
      return report
    },
  }
}
export type BackgroundWork = ReturnType<typeof backgroundWork>
