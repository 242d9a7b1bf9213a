import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { ExtractLimits } from '../archive/extract-limits.js'
import { collectAfterJob } from '../archive/garbage.js'
import { TreeError } from '../archive/ndjson-reader.js'
import { removeTree } from '../archive/remove-tree.js'
import { ArchiveError } from '../archive/safe-extract.js'
import type { ServiceContext } from '../services/context.js'
import { extractImport, filterMessage } from './import-job.js'
import { restoreSingleRelation } from './import-restore.js'

export interface RelationImportJobEnv {
  ctx: ServiceContext
  workDir: string
  limits: ExtractLimits
  aborted: () => boolean
}

/**
 * `Projects::ImportExport::RelationImportWorker` (app/workers/projects/import_export/relation_import_worker.rb):
 * the tracker `created` -> `started`, the uploaded archive extracted safely and its `VERSION` checked, the one
 * relation restored into the project (duplicates by iid skipped), then `finished`. Any error marks it `failed`
 * and is recorded as an import failure of source `RelationImportWorker#perform` under the tracker's
 * correlation id (so the project's own import keeps its `failed_relations`). GitLab's Sidekiq retries the
 * worker up to 6 times first; we fail at once. The archive and work files are removed whatever happens.
 * Never throws.
 */
export async function runRelationImport(env: RelationImportJobEnv, trackerId: number, archive: string) {
  const { store } = env.ctx
  const now = () => env.ctx.clock.now().toISOString()
  const dir = join(env.workDir, `relation-import-${trackerId}-${randomBytes(6).toString('hex')}`)
  const cleanUp = () => Promise.all([removeTree(dir), rm(archive, { force: true })])
  const tracker = store.relationImports.get(trackerId)
  let bytes = 0
  try {
    const importer = tracker && store.users.get(tracker.user_id)
    if (!tracker || !importer || tracker.status !== 'created') return
    store.relationImports.setStatus(trackerId, 'started', now())
    bytes = await extractImport(archive, dir, env.limits)
    await restoreSingleRelation(
      {
        store,
        gitlabVersion: env.ctx.instance.version,
        projectId: tracker.project_id,
        importer,
        correlationId: tracker.correlation_id,
        treeDir: join(dir, 'tree'),
        overrideParams: {},
        now,
        aborted: env.aborted,
      },
      tracker.relation,
    )
    await cleanUp()
    store.relationImports.setStatus(trackerId, 'finished', now())
  } catch (err) {
    await cleanUp()
    if (!tracker) return
    try {
      store.transaction(() => {
        store.imports.addFailure({
          project_id: tracker.project_id,
          correlation_id: tracker.correlation_id,
          relation_key: tracker.relation,
          relation_index: 0,
          exception_class:
            err instanceof TreeError || err instanceof ArchiveError ? 'StandardError' : 'RuntimeError',
          exception_message: filterMessage((err as Error).message).slice(0, 255),
          source: 'RelationImportWorker#perform',
          created_at: now(),
        })
        store.relationImports.setStatus(trackerId, 'failed', now())
      })
    } catch {
      /* the project is gone (reset or removal): nothing to record */
    }
  } finally {
    await cleanUp()
    collectAfterJob(bytes)
  }
}
