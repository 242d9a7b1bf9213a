import { Transform } from 'node:stream'
import { humanSize } from '../domain/human-size.js'

/**
 * Bounds on every outbound transfer (remote and S3 imports, export uploads): undici's body timeout
 * restarts with each byte, so a server that sends one byte now and then would hold the job, and
 * the shutdown that waits for it, for ever. Our choice of defaults: 4 hours in all, and at least
 * 10 KiB every 30 seconds (a 10 GiB archive at 10 MiB/s takes 17 minutes).
 */
export interface TransferLimits {
  /** Longest a transfer may take, in milliseconds; 0 = no limit. */
  deadlineMs: number
  /** Bytes that must move in every window of `windowMs`; 0 = no minimum. */
  minBytes: number
  windowMs: number
}

export const DEFAULT_TRANSFER_LIMITS: TransferLimits = {
  deadlineMs: 4 * 60 * 60 * 1000,
  minBytes: 10 * 1024,
  windowMs: 30_000,
}

/** Why a transfer was cut short; its message becomes the job's failure text. */
export class TransferError extends Error {}

const seconds = (ms: number) => `${Number((ms / 1000).toPrecision(3))} s`

/** What a guarded transfer gets: the signal to pass to its request, and a meter for its bytes. */
export interface TransferGuard {
  signal: AbortSignal
  /** A pass-through stream that counts what flows through it as progress. */
  meter(): Transform
}

/**
 * Runs `transfer` (named `what`, e.g. `download`) under `limits`, and stops it when `stop`
 * aborts (the server shutting down). A transfer cut short rejects with a TransferError whatever
 * error the request itself reported.
 */
export async function guardedTransfer<T>(
  what: string,
  limits: TransferLimits,
  stop: AbortSignal,
  transfer: (guard: TransferGuard) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  const cut = (why: string) => {
    if (!controller.signal.aborted) controller.abort(new TransferError(`The ${what} was stopped: ${why}`))
  }
  let moved = 0
  const timers: NodeJS.Timeout[] = []
  if (limits.deadlineMs > 0)
    timers.push(setTimeout(() => cut(`it took longer than ${seconds(limits.deadlineMs)}`), limits.deadlineMs))
  if (limits.minBytes > 0)
    timers.push(
      setInterval(() => {
        if (moved < limits.minBytes)
          cut(`less than ${humanSize(limits.minBytes)} moved in ${seconds(limits.windowMs)}`)
        moved = 0
      }, limits.windowMs),
    )
  const onStop = () => cut('the server is shutting down')
  stop.addEventListener('abort', onStop)
  if (stop.aborted) onStop()
  const meter = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        moved += chunk.length
        done(null, chunk)
      },
    })
  try {
    return await transfer({ signal: controller.signal, meter })
  } catch (err) {
    throw controller.signal.aborted ? (controller.signal.reason as Error) : err
  } finally {
    for (const timer of timers) clearTimeout(timer)
    stop.removeEventListener('abort', onStop)
  }
}
