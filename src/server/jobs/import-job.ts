import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { request } from 'undici'
import type { ExtractLimits } from '../archive/extract-limits.js'
import { removeTree } from '../archive/remove-tree.js'
import { ArchiveError, extractArchive } from '../archive/safe-extract.js'
import { collectAfterJob } from '../archive/garbage.js'
import { EXPORT_VERSION } from '../archive/layout.js'
import { TreeError } from '../archive/ndjson-reader.js'
import { followingRedirects, outboundAgent } from '../outbound/outbound-agent.js'
import { accessLevels } from '../../schema/common.js'
import type { ServiceContext } from '../services/context.js'
import type { RemovedFiles, Removals } from '../services/removals.js'
import { restoreRepository } from './import-repository.js'
import { guardedTransfer, type TransferLimits } from '../outbound/transfer-guard.js'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-files.js'
import { restoreTree } from './import-restore.js'
import { s3ObjectUrl, signV4 } from './import-s3.js'

/** Where the archive of one import comes from; the file of an upload is removed after the job. */
export type ImportSource =
  | { kind: 'file'; file: string }
  /** `maxBytes`: the Content-Length its HEAD announced; the download may bring no more. */
  | { kind: 'url'; url: string; maxBytes?: number }
  | {
      kind: 's3'
      region: string
      bucket: string
      key: string
      accessKeyId: string
      secretAccessKey: string
      endpoint?: string
    }

export interface ImportJobEnv {
  ctx: ServiceContext
  workDir: string
  allowLocal: boolean
  limits: ExtractLimits
  /** Bytes a download may bring (remote imports: 10 GiB). */
  maxDownloadBytes: number
  /** Deadline and minimum rate of the download. */
  transfer: TransferLimits
  aborted: () => boolean
  /** Aborts when the server shuts down: a download under way stops. */
  stop: AbortSignal
  /** How an overwrite removes the project it replaces: rows, bots, then files. */
  removals: Removals
}

/** `Projects::ImportErrorFilter`: every whitespace-delimited token holding a `/` becomes `[FILTERED]`. */
export const filterMessage = (message: string) =>
  message
    .split(/(\s+)/)
    .map((t) => (t.includes('/') ? '[FILTERED]' : t))
    .join('')

/**
 * Streams a remote archive to `file`, refusing more than `max` bytes, within the deadline and
 * minimum rate of `env.transfer` (TransferError otherwise). Throws on non-2xx.
 */
async function download(
  env: ImportJobEnv,
  url: URL,
  headers: Record<string, string>,
  file: string,
  allowLocal: boolean,
  max = env.maxDownloadBytes,
) {
  const agent = outboundAgent(allowLocal)
  try {
    await guardedTransfer('download', env.transfer, env.stop, async (guard) => {
      const res = await request(url, {
        method: 'GET',
        headers,
        dispatcher: followingRedirects(agent),
        signal: guard.signal,
      })
      if (res.statusCode < 200 || res.statusCode > 299) {
        await res.body.dump()
        throw new Error(`Failed to download the archive: HTTP ${res.statusCode}`)
      }
      let seen = 0
      const cap = new Transform({
        transform(chunk: Buffer, _e, done) {
          seen += chunk.length
          done(seen > max ? new Error('Content length is too big') : null, chunk)
        },
      })
      await pipeline(res.body, guard.meter(), cap, createWriteStream(file, { mode: PRIVATE_FILE_MODE }))
    })
  } finally {
    await agent.close()
  }
}

/**
 * `Gitlab::VersionInfo::MAX_VERSION_LENGTH`: GitLab parses no longer version (against ReDoS), so a
 * longer first line of `VERSION` never matches. Only that much of the file is read (a 500 MB
 * `VERSION` was read whole: 1.14 GB).
 */
const MAX_VERSION_LENGTH = 128

/** `VersionChecker` (`lib/gitlab/import_export/version_checker.rb`): the first line of `VERSION`. */
async function checkVersion(dir: string): Promise<void> {
  const head = Buffer.alloc(MAX_VERSION_LENGTH + 1)
  let bytes: number
  try {
    const file = await open(join(dir, 'VERSION'), 'r')
    try {
      bytes = (await file.read(head, 0, head.length, 0)).bytesRead
    } finally {
      await file.close()
    }
  } catch {
    throw new TreeError('No such file or directory @ rb_sysopen - [FILTERED]')
  }
  const newline = head.subarray(0, bytes).indexOf('\n')
  if (newline === -1 && bytes > MAX_VERSION_LENGTH) throw new TreeError('Incorrect VERSION format')
  const first = head.toString('utf8', 0, newline === -1 ? bytes : newline).trim()
  if (!/^\d+\.\d+\.\d+$/.test(first)) throw new TreeError('Incorrect VERSION format')
  if (first !== EXPORT_VERSION)
    throw new TreeError(`Import version mismatch: Required ${EXPORT_VERSION} but was ${first}`)
}

/**
 * `Gitlab::ImportExport::FileImporter` for both kinds of import: an empty archive refused, the archive
 * extracted safely into `dir` (made private), `VERSION` checked and a `tree/` folder required. Returns
 * the bytes extracted; throws ArchiveError or TreeError with GitLab's message.
 */
export async function extractImport(archive: string, dir: string, limits: ExtractLimits): Promise<number> {
  if ((await stat(archive)).size === 0) throw new ArchiveError('Decompressed archive size validation failed.')
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  const bytes = await extractArchive(archive, dir, limits)
  await checkVersion(dir)
  if (!(await stat(join(dir, 'tree')).catch(() => undefined))?.isDirectory())
    throw new TreeError('invalid import format')
  return bytes
}

/**
 * Runs one import: `scheduled` -> `started`, the archive fetched (upload, URL or S3,
 * streamed to disk), extracted safely, `VERSION` checked, the tree restored, an `overwrite`
 * applied; then `finished`, or `failed` with GitLab's filtered message in `import_error`.
 * Work files are removed whatever happens. Never throws.
 */
export async function runImport(env: ImportJobEnv, projectId: number, source: ImportSource): Promise<void> {
  const { store } = env.ctx
  const now = () => env.ctx.clock.now().toISOString()
  const dir = join(env.workDir, `import-${projectId}-${randomBytes(6).toString('hex')}`)
  const archive = source.kind === 'file' ? source.file : `${dir}.tar.gz`
  // Work files go before the final status is recorded: a client seeing it finds nothing left over.
  const cleanUp = () => Promise.all([removeTree(dir), rm(archive, { force: true })])
  let bytes = 0
  try {
    const row = store.imports.byProject(projectId)
    const importer = row && store.users.get(row.user_id)
    if (!row || !importer) return
    store.imports.setStatus(projectId, 'started', null, now())
    if (source.kind === 'url')
      await download(
        env,
        new URL(source.url),
        {},
        archive,
        env.allowLocal,
        Math.min(env.maxDownloadBytes, source.maxBytes ?? Infinity),
      )
    if (source.kind === 's3') {
      const url = s3ObjectUrl(source.bucket, source.region, source.key, source.endpoint)
      // Signed with the wall clock, not the injected one: S3 refuses requests signed far from its time.
      const headers = signV4({ method: 'GET', url, ...source, now: new Date() })
      await download(env, url, headers, archive, env.allowLocal || source.endpoint !== undefined)
    }
    bytes = await extractImport(archive, dir, env.limits)
    // GitLab's importer restores the repository first (`Gitlab::ImportExport::Importer#restorers`).
    await restoreRepository(store, projectId, join(dir, 'project.bundle'))
    await restoreTree({
      store,
      gitlabVersion: env.ctx.instance.version,
      projectId,
      importer,
      correlationId: row.correlation_id,
      treeDir: join(dir, 'tree'),
      overrideParams: JSON.parse(row.override_params) as Record<string, unknown>,
      now,
      aborted: env.aborted,
    })
    if (env.aborted()) return
    const finalId = row.overwrite_path ? overwrite(env, projectId, row.overwrite_path, importer) : projectId
    await cleanUp()
    store.imports.setStatus(finalId, 'finished', null, now())
  } catch (err) {
    // Also when the server is closing: the store is still open, and the job says why it stopped.
    const message =
      err instanceof ArchiveError || err instanceof TreeError ? err.message : (err as Error).message
    await cleanUp()
    try {
      store.imports.setStatus(projectId, 'failed', filterMessage(message), now())
    } catch {
      /* the project is gone (reset): nothing to record */
    }
  } finally {
    await cleanUp()
    collectAfterJob(bytes)
  }
}

/**
 * `overwrite=true` (`lib/api/project_import.rb`, `Projects::OverwriteProjectService`): the import ran in a
 * project at a temporary path; the old project's members and group shares move to it (its access-token bots
 * among the members, so their tokens work on the new project), the old project is removed as
 * `Projects::DestroyService` removes one (rows, bots left, then its files) and the new one takes its
 * path. The importer must be able to admin the old project (Maintainer+), else GitLab's `cannot overwrite`
 * error. Returns the id the import record now belongs to.
 */
function overwrite(
  env: ImportJobEnv,
  projectId: number,
  fullPath: string,
  importer: { id: number; username: string },
) {
  const { store, access } = env.ctx
  const writer = store.importWriter()
  const old = store.projects.byPath(fullPath)
  const user = store.users.get(importer.id)!
  const ns = fullPath.slice(0, fullPath.lastIndexOf('/'))
  const files = store.transaction(() => {
    let removed: RemovedFiles | undefined
    if (old) {
      store.deferForeignKeys()
      if (!access.userAtLeast(user, old, accessLevels.maintainer))
        throw new TreeError(`User ${importer.username} (${importer.id}) cannot overwrite a project in ${ns}`)
      writer.moveAccess(old.id, projectId)
      removed = env.removals.projectRows(old)
    }
    writer.renameProject(projectId, fullPath.slice(fullPath.lastIndexOf('/') + 1), fullPath)
    return removed
  })
  if (files) env.removals.discard(files)
  return projectId
}
