import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream'
import { text } from 'node:stream/consumers'
import { request } from 'undici'
import { exportFileName } from '../archive/layout.js'
import { writeExportTree } from '../archive/export-tree.js'
import { personalOwnerOf } from '../archive/export-members.js'
import { TarGzWriter } from '../archive/tar-gz-writer.js'
import { collectAfterJob } from '../archive/garbage.js'
import type { ServiceContext } from '../services/context.js'
import { outboundAgent } from '../outbound/outbound-agent.js'
import { guardedTransfer, type TransferLimits } from '../outbound/transfer-guard.js'

export interface ExportJobEnv {
  ctx: ServiceContext
  workDir: string
  allowLocal: boolean
  /** Deadline and minimum rate of the upload. */
  transfer: TransferLimits
  aborted: () => boolean
  /** Aborts when the server shuts down: an upload under way stops. */
  stop: AbortSignal
}

/**
 * `WebUploadStrategy` (`lib/gitlab/import_export/after_export_strategies/web_upload_strategy.rb`): streams
 * the archive to the URL with `Content-Type: application/gzip` and its `Content-Length`; a non-2xx answer
 * fails the export with `Error uploading the project. Code <code>: <body>`. Redirects are not followed (HTTParty would
 * replay a redirected PUT as a bodiless GET and call that success).
 */
async function upload(env: ExportJobEnv, file: string, url: string, method: string): Promise<void> {
  const { size } = await stat(file)
  const agent = outboundAgent(env.allowLocal)
  try {
    await guardedTransfer('upload', env.transfer, env.stop, async (guard) => {
      // Progress is what leaves (the archive) and what comes back (the answer).
      const res = await request(url, {
        method: method === 'POST' ? 'POST' : 'PUT',
        headers: { 'content-type': 'application/gzip', 'content-length': String(size) },
        body: pipeline(createReadStream(file), guard.meter(), () => undefined),
        dispatcher: agent,
        signal: guard.signal,
      })
      const body = (await text(pipeline(res.body, guard.meter(), () => undefined))).slice(0, 1000)
      if (res.statusCode < 200 || res.statusCode > 299)
        throw new Error(`Error uploading the project. Code ${res.statusCode}: ${body}`)
    })
  } finally {
    await agent.close()
  }
}

/**
 * Runs one export: `queued` -> `started`, the tree written from the store in batches
 * straight into `<workDir>/export-<id>-<random>.tar.gz` (compressed as it is written), then
 * either kept for download (`finished`) or uploaded and removed (GitLab deletes the file after a
 * web upload, so the status then reads `none`). Any failure leaves the export `failed` with its
 * message and no file. Never throws.
 */
export async function runExport(env: ExportJobEnv, exportId: number): Promise<void> {
  const { store, clock, instance } = env.ctx
  const now = () => clock.now().toISOString()
  const file = join(env.workDir, `export-${exportId}-${randomBytes(6).toString('hex')}.tar.gz`)
  let keep = false
  let bytes = 0
  try {
    const row = store.exports.get(exportId)
    const project = row && store.projects.get(row.project_id)
    if (!row || !project || row.status !== 'queued') return
    store.exports.setStatus(exportId, 'started', null, now())
    const namespaceIds: number[] = []
    for (let ns = store.namespaces.get(project.namespace_id); ns;) {
      namespaceIds.push(ns.id)
      ns = ns.parent_id ? store.namespaces.get(ns.parent_id) : undefined
    }
    const archive = await TarGzWriter.create(file, clock.now())
    try {
      await writeExportTree(archive, {
        reader: store.exportReader(),
        project,
        namespaceIds,
        publicBuilds: (store.projectSettings.get(project.id)?.public_builds ?? 1) === 1,
        description: row.description,
        personalOwner: personalOwnerOf(store.namespaces.get(project.namespace_id), project, instance.version),
        // `Gitlab::VERSION` reads `18.6.0-ee` on Enterprise Edition, as `GET /version` does.
        gitlabVersion: `${instance.version}${instance.edition === 'ee' ? '-ee' : ''}`,
        aborted: env.aborted,
      })
      await archive.close()
    } catch (err) {
      await archive.destroy()
      throw err
    } finally {
      bytes = archive.contentBytes
    }
    if (env.aborted()) return
    if (row.upload_url) {
      await upload(env, file, row.upload_url, row.upload_method ?? 'PUT')
      store.exports.setFile(exportId, null, null, now())
    } else {
      // Kept only while its row exists: an emulator reset during the export removed the row.
      const name = exportFileName(clock.now(), project.full_path)
      keep = store.exports.setFile(exportId, file, name, now()).changes > 0
    }
    store.exports.setStatus(exportId, 'finished', null, now())
  } catch (err) {
    // Also when the server is closing: the store is still open, and the job says why it stopped.
    try {
      store.exports.setStatus(exportId, 'failed', (err as Error).message, now())
    } catch {
      /* the export row is gone (reset): nothing to record */
    }
  } finally {
    if (!keep) await rm(file, { force: true })
    collectAfterJob(bytes)
  }
}
