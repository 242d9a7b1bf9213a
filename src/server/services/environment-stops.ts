import { isoNow } from '../domain/clock.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { EnvironmentRow } from '../store/environments.js'
import type { PipelineRow } from '../store/pipelines.js'
import type { ServiceContext } from './context.js'
import { playJob, retryJob } from './job-play.js'

/**
 * How environments stop (`Environments::StopService#unsafe_execute!`, `Environment#stop_with_actions!`,
 * `app/models/environment.rb`'s state machine), whoever asked: the API's stop, the auto-stop.
 * `runner` is read when a stop plays its actions (the runner is built after this service).
 */
export function environmentStops(ctx: ServiceContext, runner: () => PipelineRunner) {
  const { store } = ctx
  const table = store.environments

  /**
   * Stops `row`. `force` (`stop_complete`): an available or stopping environment is stopped at once,
   * its stop actions left. Otherwise only an available one moves: with stop actions (the manual jobs its
   * last finished deployments name in `on_stop`) it is `stopping` until one of them succeeds, and they
   * are played as their own users (`job.play(job.user)`), or retried when they already ran; without, it
   * is stopped at once when its `auto_stop_setting` is `always`, and left available when it is
   * `with_action`. A stop clears `auto_stop_at`. True when the state changed.
   */
  /** `Environment#stop_actions`, read once the jobs have moved as far as the clock says. */
  function stopActions(row: EnvironmentRow) {
    runner().catchUp()
    return table.stopActions(row.id)
  }

  function stop(row: EnvironmentRow, force: boolean): boolean {
    const now = isoNow(ctx.clock)
    const stopped = { ...row, state: 'stopped', auto_stop_at: null, updated_at: now }
    if (force) {
      if (row.state === 'stopped') return false
      table.update(stopped)
      return true
    }
    if (row.state !== 'available') return false
    const actions = stopActions(row)
    if (actions.length === 0) {
      if (row.auto_stop_setting === 'with_action') return false
      table.update(stopped)
      return true
    }
    table.update({ ...row, state: 'stopping', updated_at: now })
    // `job.play`: a waiting job starts, one that already ran runs again (`Ci::PlayBuildService`).
    for (const job of actions) {
      if (job.status === 'manual') playJob(store, runner(), job, job.pipeline_id, now)
      else retryJob(store, runner(), job, store.pipelines.byId(job.pipeline_id) as PipelineRow, now)
    }
    return true
  }

  return {
    stop,
    /** The jobs that stop `row` when played, oldest first. */
    actions: stopActions,
    /**
     * `Environments::StopStaleService`: the project's available environments neither updated nor deployed
     * to since `before` stop as a stop without `force` stops them (GitLab queues each to the auto-stop
     * worker; here they stop before the answer).
     */
    stopStale(projectId: number, before: string): void {
      for (const row of table.stale(projectId, before)) stop(row, false)
    },
    /**
     * `Environments::AutoStopService` and `AutoStopWorker` at the clock's time: every available environment
     * whose `auto_stop_at` has passed stops as a stop without `force` stops it, earliest first. The number
     * of environments whose state changed.
     */
    stopDue(): number {
      let changed = 0
      for (const row of table.autoStoppable(isoNow(ctx.clock))) if (stop(row, false)) changed++
      return changed
    },
  }
}
