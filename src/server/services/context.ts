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
export const today = (clock: Clock) => clock.now().toISOString().slice(0, 10)
