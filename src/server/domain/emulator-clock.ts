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

/** Where the clock keeps its moves (a store's `emulator_meta` row): text, or undefined for none. */
export interface ClockKeep {
  get(): string | undefined
  set(text: string | undefined): void
}

/** A move the clock refuses: to an instant before its time (409 at `POST /-/emulator/clock`). */
export class ClockMoveError extends Error {}

/**
 * The server's clock as the emulator's controls move it (`/-/emulator/clock`): the start-up clock
 * (the system's, or `startServer({ clock })`'s) shifted by an offset, or frozen at an instant.
 * It never goes back: everything written so far (timestamps, the pipelines' due moves, the rate
 * limits' windows) stays in its past, so `set` and `freeze` refuse an earlier instant; `reset()`
 * (run by `POST /-/emulator/reset`, which also removes that data) returns to the start-up clock.
 * With `keepIn`, each move is kept (`{"frozen_at": ISO}` or `{"offset_ms": n}` from the start-up
 * clock), so that a restart of a `--data` directory goes on from it; a reset forgets it.
 */
export function emulatorClock(base: Clock, start?: { frozenAt: Date }) {
  let offset = 0
  let frozenAt: number | undefined
  let keep: ClockKeep | undefined
  /**
   * What `keep` holds, as last read or written: a reset, which returns to the start-up clock after
   * every test, writes only when a move is kept (the `DELETE` of no row was a write transaction of
   * its own, 6 of the reset's 17 file locks). It follows the store: the writes are outside any
   * transaction but an in-memory store's held one, where a move's row rolled back with the reset
   * leaves `kept` saying it is there, and the next save deletes it again (nothing to delete).
   */
  let kept: string | undefined
  const save = () => {
    const moved = frozenAt !== (start?.frozenAt.getTime() ?? undefined) || offset !== 0
    const text = !moved
      ? undefined
      : JSON.stringify(
          frozenAt !== undefined ? { frozen_at: new Date(frozenAt).toISOString() } : { offset_ms: offset },
        )
    if (!keep || (text === undefined && kept === undefined)) return
    keep.set(text)
    kept = text
  }
  const initial = () => {
    offset = 0
    frozenAt = start?.frozenAt.getTime()
    save()
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
    save()
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
      save()
    },
    /** Runs on from where it stands (the start-up clock's pace, shifted). */
    unfreeze(): void {
      if (frozenAt === undefined) return
      offset = frozenAt - baseMs()
      frozenAt = undefined
      save()
    },
    /** Jumps to `at`, which must not be before the clock's time. */
    set: (at: Date) => moveTo(at.getTime()),
    /** Moves `ms` (≥ 0) forward. */
    advance: (ms: number) => moveTo(nowMs() + ms),
    /** Back to the start-up clock. */
    reset: initial,
    /**
     * Keeps the moves in `where` from now on, after going on from what it holds (a restart of a
     * `--data` directory); something it cannot read is left for the start-up clock.
     */
    keepIn(where: ClockKeep): void {
      kept = where.get()
      const found = readKept(kept)
      if (found?.frozen_at !== undefined) frozenAt = found.frozen_at
      else if (found?.offset_ms !== undefined) [offset, frozenAt] = [found.offset_ms, undefined]
      keep = where
    },
  }
}
export type EmulatorClock = ReturnType<typeof emulatorClock>

/** A kept move: a frozen instant or an offset in milliseconds; undefined for none or anything else. */
function readKept(text: string | undefined): { frozen_at?: number; offset_ms?: number } | undefined {
  if (text === undefined) return undefined
  try {
    const kept = JSON.parse(text) as { frozen_at?: unknown; offset_ms?: unknown }
    const frozen = parseInstant(kept.frozen_at)
    if (frozen) return { frozen_at: frozen.getTime() }
    if (typeof kept.offset_ms === 'number' && Number.isFinite(kept.offset_ms))
      return { offset_ms: kept.offset_ms }
  } catch {
    // Not ours: the start-up clock.
  }
  return undefined
}
