/** Injected time, so that tests and jobs never depend on the wall clock. */
export interface Clock {
  now(): Date
  /** The same time in epoch milliseconds, where the clock tells it without a Date (read on every request). */
  nowMs?(): number
}
export const systemClock: Clock = { now: () => new Date(), nowMs: () => Date.now() }

/** The clock's time in epoch milliseconds. */
export const epochMs = (clock: Clock): number => (clock.nowMs ? clock.nowMs() : clock.now().getTime())

/**
 * `format` of the start of the clock's current period of `periodMs`, made again only when the clock
 * enters another period: every cached list's key holds the day, every answer the `Date` header.
 */
function perPeriod(periodMs: number, format: (start: Date) => string) {
  let last = NaN
  let text = ''
  return (clock: Clock): string => {
    const period = Math.floor(epochMs(clock) / periodMs)
    if (period !== last) {
      last = period
      text = format(new Date(period * periodMs))
    }
    return text
  }
}

/**
 * ISO timestamp with milliseconds, as GitLab prints them; made again only when the millisecond
 * moves (a write stamps several rows and its event with the same one: 0.7 µs a `toISOString`).
 * A function of its own, not a `perPeriod`: those share one call site of `format`.
 */
let isoMs = NaN
let isoText = ''
export const isoNow = (clock: Clock): string => {
  const ms = epochMs(clock)
  if (ms !== isoMs) {
    isoText = new Date(ms).toISOString()
    isoMs = ms
  }
  return isoText
}
/** `YYYY-MM-DD` (UTC) of the clock's time. */
export const today = perPeriod(86_400_000, (day) => day.toISOString().slice(0, 10))
/** The HTTP `Date` header's text for the clock's time. */
export const httpDate = perPeriod(1000, (second) => second.toUTCString())
