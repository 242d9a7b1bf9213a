import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ResourceRef } from '../schema/common.js'
import { AcceptedMessage, ProjectExportStatus, type ExportStatusValue } from '../schema/project-export.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'
import { poll, type PollTiming } from './poll.js'

/** `POST /projects/:id/export` parameters (GitLab's doc/api/project_import_export.md). */
export interface ExportParams {
  description?: string
  /** Have GitLab PUT (or POST) the archive to this URL (pre-signed; must sign `Content-Type: application/gzip`). */
  upload?: { url: string; http_method?: 'PUT' | 'POST' }
}

/** A download in progress: the body as a stream (never buffered) and what the headers said. */
export interface ExportDownload {
  body: Readable
  /** The suggested file name of `Content-Disposition` (GitLab: `<time>_<path>_export.tar.gz`). */
  filename?: string
  /** `Content-Length` when sent. */
  length?: number
}

/** A downloaded archive: where it is, how big, and its SHA-256 (hex). */
export interface SavedArchive {
  path: string
  size: number
  sha256: string
  filename?: string
}

/** How waitForExport is paced and what it reports. */
export interface ExportWaitOptions extends PollTiming {
  /**
   * The export was asked to upload its archive: GitLab deletes its copy once uploaded
   * (`WebUploadStrategy#strategy_execute` calls `remove_exported_project_file`; a failed upload raises
   * before), so `none` after the schedule is the upload done, however fast it went.
   */
  upload?: boolean
  /** Called on the first read and whenever the status changes. */
  onChange?: (status: ExportStatusValue, elapsedMs: number) => void
}

export interface ExportWaitResult {
  /** `finished`, `none` (an upload done), or at the timeout the last status read (if any). */
  status: ExportStatusValue | undefined
  ended: 'done' | 'timeout'
  /** The export was seen queued or running: a `finished` read after that is this export's. */
  seenProgress: boolean
  elapsedMs: number
}

const IN_PROGRESS: ReadonlySet<ExportStatusValue> = new Set(['queued', 'started', 'regeneration_in_progress'])
/** How many reads of `none` in a row, with no progress seen, mean the export never started. */
const NONE_LIMIT = 5

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** The file name of a Content-Disposition header (`filename*=UTF-8''...` preferred), or undefined. */
export function dispositionFilename(value: string | undefined): string | undefined {
  if (!value) return undefined
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(value)
  if (star) {
    try {
      return decodeURIComponent(star[1] as string)
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(value)
  return plain?.[1]
}

/**
 * When GitLab made an export, from its file name (`2026-01-20_12-34-789_acme_widgets_export.tar.gz`:
 * date, hour, minute, milliseconds; no seconds, see `export_filename` in `lib/gitlab/import_export.rb`),
 * as epoch ms of the start of that minute (UTC), or undefined when the name does not carry it.
 */
export function exportTimeOf(filename: string | undefined): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})-\d{3}_/.exec(filename ?? '')
  if (!m) return undefined
  const [, y, mo, d, h, mi] = m.map(Number) as number[]
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi)
}

/** A pass-through that counts and hashes (SHA-256) what flows through it; `result` once it has ended. */
export function hashingTap() {
  const hash = createHash('sha256')
  let size = 0
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk)
      size += chunk.length
      done(null, chunk)
    },
  })
  return { stream, result: () => ({ size, sha256: hash.digest('hex') }) }
}

/** A file download: its body as a stream (never buffered), GitLab's error thrown for a 3xx-5xx. */
export async function streamDownload(
  http: Http,
  p: string,
  options: CallOptions = {},
): Promise<ExportDownload> {
  const res = await http.raw('GET', p, { ...options, headers: { accept: '*/*', ...options.headers } })
  if (res.status >= 300) await http.read('GET', p, res) // throws GitLabApiError with GitLab's message
  const length = Number(header(res.headers['content-length']))
  return {
    body: Readable.from(res.body),
    filename: dispositionFilename(header(res.headers['content-disposition'])),
    length: Number.isFinite(length) ? length : undefined,
  }
}

/** GitLab's doc/api/project_import_export.md: project export. Status describes only the latest export (no `failed` on older GitLab). */
export function projectExports(http: Http) {
  const download = (project: ResourceRef, options: CallOptions = {}): Promise<ExportDownload> =>
    streamDownload(http, path`/projects/${project}/export/download`, options)

  const status = (project: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/export`, { ...options, response: ProjectExportStatus })

  /**
   * Waits for the export just scheduled (poll.ts: backoff, transient errors ridden out): resolves at
   * `finished` (or `none` after an upload, see `upload`) or the timeout. Throws when GitLab reports
   * the export failed (`failed`, or `none` after it was seen in progress: older GitLab has no
   * `failed`) or never started it (`none` 5 times). The first read comes one interval after the call.
   * GitLab's status describes only the latest export: `seenProgress` tells the caller whether a
   * `finished` may be an earlier export's.
   */
  async function waitForExport(
    project: ResourceRef,
    options: ExportWaitOptions = {},
  ): Promise<ExportWaitResult> {
    const { upload, onChange, ...timing } = options
    let seenProgress = false
    let nones = 0
    const r = await poll({
      ...timing,
      waitFirst: true,
      read: async (signal) => (await status(project, { signal })).export_status,
      onRead: (s, elapsed, changed) => changed && onChange?.(s, elapsed),
      done: (s) => {
        if (IN_PROGRESS.has(s)) seenProgress = true
        else if (s === 'none' && upload) return true
        else if (s === 'failed' || (s === 'none' && seenProgress))
          throw new Error(
            'GitLab reports the export failed (its status fell back to none); see its Sidekiq logs',
          )
        else if (s === 'none' && ++nones >= NONE_LIMIT)
          throw new Error(`the export never started (status none ${NONE_LIMIT} times)`)
        return s === 'finished'
      },
    })
    return { status: r.value, ended: r.ended, seenProgress, elapsedMs: r.elapsedMs }
  }

  return {
    /** `POST /projects/:id/export` (Maintainer): 202 `{"message":"202 Accepted"}`. Retried only on 429. */
    schedule: (project: ResourceRef, params: ExportParams = {}, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/export`, {
        ...options,
        json: params,
        response: AcceptedMessage,
      }),
    /** `GET /projects/:id/export`: the latest export's status (`_links` only when finished). */
    status,
    waitForExport,
    /**
     * `GET /projects/:id/export/download` as a stream: the caller must consume or destroy `body`.
     * A 429 (GitLab allows 1 download per minute per user by default) is retried by the client's
     * retry layer after `Retry-After`. Throws GitLabApiError 404 when no finished export exists.
     */
    download,
    /**
     * Streams the archive into `file` (written as `file.part`, renamed when complete), hashing as
     * it goes: memory stays flat whatever the size. Throws, leaving no file, when the body ends
     * short of `Content-Length` or the connection breaks.
     */
    async downloadTo(project: ResourceRef, file: string, options: CallOptions = {}): Promise<SavedArchive> {
      const got = await download(project, options)
      const tap = hashingTap()
      const part = `${file}.part`
      try {
        await pipeline(got.body, tap.stream, createWriteStream(part), { signal: options.signal })
        const { size, sha256 } = tap.result()
        if (got.length !== undefined && size !== got.length)
          throw new Error(`download ended after ${size} of ${got.length} bytes`)
        await rename(part, file)
        return { path: file, size, sha256, filename: got.filename }
      } catch (err) {
        await rm(part, { force: true })
        throw err
      }
    },
  }
}
export type ProjectExportsApi = ReturnType<typeof projectExports>
