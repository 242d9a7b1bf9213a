import type { Store } from '../store/index.js'
import type { Instance } from '../present/context.js'
import type { Access } from './access.js'

/** Injected time, so that tests and jobs never depend on the wall clock. */
export interface Clock {
  now(): Date
}
export const systemClock: Clock = { now: () => new Date() }

/** Everything a service needs: the store, the access rules, the instance settings and a clock. */
export interface ServiceContext {
  store: Store
  access: Access
  instance: Instance
  clock: Clock
}

/** ISO timestamp with milliseconds, as GitLab prints them. */
export const isoNow = (clock: Clock) => clock.now().toISOString()
/** `YYYY-MM-DD` (UTC) of the clock's time; every cached list's key holds it, so it is made once a day. */
export const today = (clock: Clock) => dayOf(clock.now().getTime())
const DAY_MS = 86_400_000
let lastDay = NaN
let lastDayText = ''
function dayOf(ms: number): string {
  const day = Math.floor(ms / DAY_MS)
  if (day !== lastDay) {
    lastDay = day
    lastDayText = new Date(day * DAY_MS).toISOString().slice(0, 10)
  }
  return lastDayText
}

/** The HTTP `Date` header's text for the clock's time, made once a second. */
export const httpDate = (clock: Clock) => secondOf(clock.now().getTime())
let lastSecond = NaN
let lastSecondText = ''
function secondOf(ms: number): string {
  const second = Math.floor(ms / 1000)
  if (second !== lastSecond) {
    lastSecond = second
    lastSecondText = new Date(second * 1000).toUTCString()
  }
  return lastSecondText
}
