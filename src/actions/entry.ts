/*
 * What every bundle entry does around its action: the runner's IO, cancellation on SIGINT/SIGTERM
 * (GitHub sends SIGINT, then SIGTERM 7.5 s later, then kills), and a definite exit.
 */
import { actionsIO, type ActionIO } from './io.js'

/** The reason a cancelled job's signal carries. */
export class JobCancelled extends Error {
  override readonly name = 'JobCancelled'
  constructor(readonly signalName: string) {
    super(`the workflow job was cancelled (${signalName})`)
  }
}

/**
 * Runs `action` with the runner's IO and a signal that aborts on the first SIGINT or SIGTERM (later
 * signals are ignored while the action cleans up, e.g. cancels the GitLab pipeline). Errors become
 * `io.fail`. The process then exits with the code `io.fail` set: keep-alive sockets and timers of
 * an aborted wait must not keep it alive (as actions/cache's restoreImpl exits).
 */
export function runEntry(
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
    .catch((err: unknown) => io.fail(err))
    .finally(() => process.exit())
}
