import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import multipart from '@fastify/multipart'
import { RAW_MULTIPART_FIELDS } from '../malformed-strings.js'
import { DEFAULT_EXTRACT_LIMITS } from '../archive/extract-limits.js'
import { jobQueue } from '../jobs/export-queue.js'
import { defaultMaxImportSize } from '../releases.js'
import { exportService, type ExportService } from '../services/exports.js'
import { importService, type ImportService } from '../services/imports.js'
import { fixedWindowLimiter } from '../services/rate-limits.js'
import { privateDir } from '../store/private-files.js'
import { DEFAULT_TRANSFER_LIMITS, type TransferLimits } from '../services/transfer-guard.js'
import type { ApiContext } from './context.js'

/** Start-up settings of exports and imports (ServerOptions.transfers); all optional. */
export interface TransferOptions {
  /** S3-compatible endpoint for `remote-import-s3` (path-style `<endpoint>/<bucket>/<key>`); hidden `--s3-endpoint`. */
  s3Endpoint?: string
  /** Bytes an archive may decompress to (GitLab's `max_decompressed_archive_size`, default 25 GiB; 0 = none). */
  maxDecompressedArchiveSize?: number
  /** Bytes an uploaded archive may have (`max_import_size`; default per release: 50 MB before 13.8, then 0 = none). */
  maxImportSize?: number
  /** Requests per minute (GitLab's defaults: export 6, download 1, import 6; 0 turns a limit off). */
  rateLimits?: { project_export?: number; project_download_export?: number; project_import?: number }
  /**
   * Bounds on downloads (remote and S3 imports) and export uploads: `deadlineMs` in all (default 4 h),
   * at least `minBytes` every `windowMs` (default 10 KiB per 30 s); 0 turns either off.
   */
  transferLimits?: Partial<TransferLimits>
}

/**
 * Removes what jobs of an earlier run left when the process died (a crash, SIGKILL): `.part`
 * uploads, import folders and downloads, export archives no record points to. Every job under
 * way then was just marked failed, so nothing here is still in use.
 */
function sweepAbandoned(workDir: string, kept: string[]) {
  const keep = new Set(kept.map((file) => basename(file)))
  for (const name of readdirSync(workDir))
    if (!keep.has(name)) rmSync(join(workDir, name), { recursive: true, force: true })
}

/** What the export and import routes share: their services, where uploads go, the S3 endpoint. */
export interface Transfers {
  exports: ExportService
  imports: ImportService
  uploadDir: string
  s3Endpoint?: string
}

/**
 * The services of project export and import, and the multipart settings of their uploads. Files
 * live in `<data>/transfers` with a persistent store, else in a temporary folder removed at close;
 * jobs still running at close are told to stop and awaited. A restart marks exports and imports
 * that were under way as failed.
 */
export function transferServices(api: ApiContext, options: TransferOptions = {}): Transfers {
  const { store } = api.ctx
  const memory = api.settings.data === ':memory:'
  const workDir = memory
    ? mkdtempSync(join(tmpdir(), 'gitlab-actions-transfers-'))
    : join(api.settings.data, 'transfers')
  privateDir(workDir)
  const now = api.ctx.clock.now().toISOString()
  for (const row of store.exports.unfinished()) store.exports.setStatus(row.id, 'failed', 'interrupted', now)
  for (const row of store.imports.unfinished())
    store.imports.setStatus(row.project_id, 'failed', 'Import interrupted: the server stopped', now)
  if (!memory) sweepAbandoned(workDir, store.exports.files())

  // The archives of finished exports go with their rows; jobs under way remove their own files.
  api.onReset(() => {
    const files = store.exports.files()
    return () => {
      for (const file of files) rmSync(file, { force: true })
    }
  })

  const queue = jobQueue()
  const limits = options.rateLimits ?? {}
  const limiters = {
    project_export: fixedWindowLimiter(api.ctx.clock, limits.project_export ?? 6),
    project_download_export: fixedWindowLimiter(api.ctx.clock, limits.project_download_export ?? 1),
    project_import: fixedWindowLimiter(api.ctx.clock, limits.project_import ?? 6),
  }
  const env = {
    workDir,
    allowLocal: api.settings.allowLocalRequests,
    queue,
    transfer: { ...DEFAULT_TRANSFER_LIMITS, ...options.transferLimits },
    limit: (name: keyof typeof limiters, key: string) => limiters[name](key),
  }
  const maxImportSize = options.maxImportSize ?? defaultMaxImportSize(api.instance.version)
  void api.app.register(multipart, {
    ...RAW_MULTIPART_FIELDS,
    limits: {
      files: 10,
      fields: 100,
      fieldSize: 1024 * 1024,
      fileSize: maxImportSize > 0 ? maxImportSize : Infinity,
    },
  })
  const exports = exportService(api.ctx, env)
  const imports = importService(api.ctx, {
    ...env,
    limits: {
      ...DEFAULT_EXTRACT_LIMITS,
      ...(options.maxDecompressedArchiveSize !== undefined
        ? { maxDecompressedBytes: options.maxDecompressedArchiveSize }
        : {}),
    },
    s3Endpoint: options.s3Endpoint,
  })
  api.onClose(async () => {
    await queue.close()
    if (memory) rmSync(workDir, { recursive: true, force: true })
  })
  return { exports, imports, uploadDir: workDir, s3Endpoint: options.s3Endpoint }
}
