import { epochMs, type Clock } from './clock.js'

/** What `GET /-/emulator/clock` shows. */
export interface ClockState {
  now: string
  frozen: boolean
}

/** ISO 8601 with a zone: a time without one would depend on the server's zone. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/

/** The instant an ISO 8601 time with a zone names; undefined for anything else. */
export function parseInstant(text: unknown): Date | undefined {
  const ms = typeof text === 'string' && ISO_TIME.test(text) ? Date.parse(text) : NaN
  return Number.isFinite(ms) ? new Date(ms) : undefined
}

/** A move the clock refuses: to an instant before its time (409 at `POST /-/emulator/clock`). */
export class ClockMoveError extends Error {}

/**
 * The server's clock as the emulator's controls move it (`/-/emulator/clock`): the start-up clock
 * (the system's, or `startServer({ clock })`'s) shifted by an offset, or frozen at an instant.
 * It never goes back: everything written so far (timestamps, the pipelines' due moves, the rate
 * limits' windows) stays in its past, so `set` and `freeze` refuse an earlier instant; `reset()`
 * (run by `POST /-/emulator/reset`, which also removes that data) returns to the start-up clock.
 * Kept in memory: a restart of a `--data` directory starts on the start-up clock again.
 */
export function emulatorClock(base: Clock, start?: { frozenAt: Date }) {
  let offset = 0
  let frozenAt: number | undefined
  const initial = () => {
    offset = 0
    frozenAt = start?.frozenAt.getTime()
  }
  initial()
  // Without a Date where the start-up clock can: the clock is read several times on every request.
  const baseMs = () => epochMs(base)
  const nowMs = () => frozenAt ?? baseMs() + offset
  /** Moves to `ms`, frozen or running as before. */
  const moveTo = (ms: number) => {
    if (ms < nowMs())
      throw new ClockMoveError(
        `time ${new Date(ms).toISOString()} is before the server's time ${new Date(nowMs()).toISOString()}; the clock never goes back (POST /-/emulator/reset returns it to the start)`,
      )
    if (frozenAt !== undefined) frozenAt = ms
    else offset = ms - baseMs()
  }
  return {
    now: () => new Date(nowMs()),
    nowMs,
    state: (): ClockState => ({ now: new Date(nowMs()).toISOString(), frozen: frozenAt !== undefined }),
    /** Stops the clock, at `at` (not before its time) or where it stands. */
    freeze(at?: Date): void {
      // At `at` itself: reading a running clock again after the move would freeze it later by the time between.
      const ms = at ? at.getTime() : nowMs()
      if (at) moveTo(ms)
      frozenAt = ms
    },
    /** Runs on from where it stands (the start-up clock's pace, shifted). */
    unfreeze(): void {
      if (frozenAt === undefined) return
      offset = frozenAt - baseMs()
      frozenAt = undefined
    },
    /** Jumps to `at`, which must not be before the clock's time. */
    set: (at: Date) => moveTo(at.getTime()),
    /** Moves `ms` (≥ 0) forward. */
    advance: (ms: number) => moveTo(nowMs() + ms),
    /** Back to the start-up clock. */
    reset: initial,
  }
}
export type EmulatorClock = ReturnType<typeof emulatorClock>
