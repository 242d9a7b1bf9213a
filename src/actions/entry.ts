/*
 * What every bundle entry does around its action: the runner's IO, cancellation on SIGINT/SIGTERM
 * (GitHub sends SIGINT, then SIGTERM 7.5 s later, then kills), and a definite exit.
 */
import { actionsIO, messageOf, type ActionIO } from './io.js'
import { heading, join, para } from './summary.js'

/** The reason a cancelled job's signal carries. */
export class JobCancelled extends Error {
  override readonly name = 'JobCancelled'
  constructor(readonly signalName: string) {
    super(`the workflow job was cancelled (${signalName})`)
  }
}

/**
 * The job summary of an action that stopped before writing its own (bad inputs, a refused token,
 * nothing triggered): what failed, so that the summary is never empty.
 */
export const failureSummary = (name: string, error: unknown) =>
  join(heading(`❌ ${name} failed`), para(messageOf(error)))

/**
 * Runs action `name` with the runner's IO and a signal that aborts on the first SIGINT or SIGTERM
 * (later signals are ignored while the action cleans up, e.g. cancels the GitLab pipeline). Errors
 * become `io.fail` and a job summary. The process then exits with the code `io.fail` set:
 * keep-alive sockets and timers of an aborted wait must not keep it alive (as actions/cache's
 * restoreImpl exits).
 */
export function runEntry(
  name: string,
  action: (io: ActionIO, signal: AbortSignal) => Promise<void>,
  io = actionsIO(),
): void {
  const controller = new AbortController()
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) return
    io.info(`Received ${name}: stopping`)
    controller.abort(new JobCancelled(name))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  action(io, controller.signal)
    .catch(async (err: unknown) => {
      io.fail(err)
      await io.summary(failureSummary(name, err)).catch((e: unknown) => io.warning(messageOf(e)))
    })
    .finally(() => process.exit())
}
