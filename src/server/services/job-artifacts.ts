import { isoNow } from '../domain/clock.js'
import type { JobArtifactRow } from '../store/job-outputs.js'
import type { Store } from '../store/index.js'
import type { ServiceContext } from './context.js'

/**
 * Removes job archives (`Ci::JobArtifacts::DestroyBatchService`): the archive and its files go, the
 * trace stays, and the build keeps the `artifacts_expire_at` it had (`ci_builds` is not touched), which
 * its entity still shows.
 */
export function destroyArtifacts(store: Store, rows: readonly JobArtifactRow[]): number {
  if (rows.length === 0) return 0
  store.transaction(() => {
    for (const row of rows) {
      store.jobOutputs.dropArtifact(row.build_id)
      store.jobOutputs.setState(row.build_id, { artifacts_expire_at: row.expire_at })
    }
  })
  return rows.length
}

/**
 * `Ci::JobArtifacts::DestroyAllExpiredService` (the `ExpireBuildArtifactsWorker` cron) at the clock's
 * time: archives whose `expire_at` has passed are destroyed, except those of pipelines whose artifacts
 * are locked (`expired_before(...).artifact_unlocked`; migration 46 says which are). GitLab runs it every
 * 7 minutes; here each clock move runs it. The number destroyed.
 */
export function expireArtifacts(ctx: ServiceContext): number {
  return destroyArtifacts(ctx.store, ctx.store.jobOutputs.expiredUnlocked(isoNow(ctx.clock)))
}
