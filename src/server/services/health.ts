import type { Store } from '../store/index.js'

/** What GitLab's readiness check asks of the database. */
export function healthService(store: Store) {
  return {
    /** True when the store answers a query. */
    databaseReady(): boolean {
      try {
        store.ping()
        return true
      } catch {
        return false
      }
    },
  }
}
export type HealthService = ReturnType<typeof healthService>
