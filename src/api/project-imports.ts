import type { ResourceRef } from '../schema/common.js'
import { ProjectImportStatus } from '../schema/project-import.js'
import { RelationImportTracker, type ImportableRelation } from '../schema/relation-import.js'
import { Type } from '@sinclair/typebox'
import type { CallOptions, Http } from './http.js'
import { streamedMultipart, type FormField } from './multipart.js'
import { path } from './path.js'
import { poll, type PollTiming } from './poll.js'

/** Parameters every import takes (GitLab's doc/api/project_import_export.md). */
export interface ImportTarget {
  /** Path of the new project (required by GitLab). */
  path: string
  name?: string
  /** Namespace id or full path (default: the caller's own namespace). */
  namespace?: string | number
  overwrite?: boolean
  /** Project attributes that win over the archive's (`visibility`, `description`, ...). */
  override_params?: Record<string, string | number | boolean>
}

/** `POST /projects/remote-import-s3` credentials and location. */
export interface S3Source {
  region: string
  bucket_name: string
  file_key: string
  access_key_id: string
  secret_access_key: string
}

/** How waitForImport is paced and what it reports. */
export interface ImportWaitOptions extends PollTiming {
  /** Called whenever the status changes (not for the record the wait starts from). */
  onChange?: (record: ProjectImportStatus, elapsedMs: number) => void
}

export interface ImportWaitResult {
  /** The last record read: `finished` or `failed`, or at the timeout whatever it was. */
  record: ProjectImportStatus
  ended: 'done' | 'timeout'
  elapsedMs: number
}

/** The statuses of `ImportStatusValue` an import never leaves. */
const FINAL: ReadonlySet<string> = new Set(['finished', 'failed'])

/** The form fields of an import, `override_params[key]` as Rails reads nested hashes. */
function fieldsOf(target: ImportTarget): FormField[] {
  const out: FormField[] = [['path', target.path]]
  if (target.name !== undefined) out.push(['name', target.name])
  if (target.namespace !== undefined) out.push(['namespace', String(target.namespace)])
  if (target.overwrite !== undefined) out.push(['overwrite', String(target.overwrite)])
  for (const [k, v] of Object.entries(target.override_params ?? {}))
    out.push([`override_params[${k}]`, String(v)])
  return out
}

/** GitLab's doc/api/project_import_export.md: project imports from an uploaded file, a URL or S3, and their status. */
export function projectImports(http: Http) {
  const status = (project: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/import`, { ...options, response: ProjectImportStatus })

  /**
   * Waits for the import that `started` describes (the answer of `fromFile`, `fromUrl` or `fromS3`)
   * to end `finished` or `failed` (poll.ts: backoff, transient errors ridden out), or for the
   * timeout. The first read comes one interval after the call; a `started` already final is returned.
   */
  async function waitForImport(
    started: ProjectImportStatus,
    options: ImportWaitOptions = {},
  ): Promise<ImportWaitResult> {
    if (FINAL.has(started.import_status)) return { record: started, ended: 'done', elapsedMs: 0 }
    const { onChange, ...timing } = options
    let last = started.import_status as string
    const r = await poll({
      ...timing,
      waitFirst: true,
      read: (signal) => status(started.id, { signal }),
      key: (record) => record.import_status,
      onRead: (record, elapsed) => {
        if (record.import_status !== last) onChange?.(record, elapsed)
        last = record.import_status
      },
      done: (record) => FINAL.has(record.import_status),
    })
    return { record: r.value ?? started, ended: r.ended, elapsedMs: r.elapsedMs }
  }

  const relationImports = (project: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/relation-imports`, {
      ...options,
      response: Type.Array(RelationImportTracker),
    })

  /**
   * Waits for the relation import `started` (the answer of `importRelation`) to end `finished` or `failed`,
   * reading the project's trackers (poll.ts pacing), or for the timeout.
   */
  async function waitForRelationImport(
    started: RelationImportTracker,
    options: PollTiming = {},
  ): Promise<{ tracker: RelationImportTracker; ended: 'done' | 'timeout'; elapsedMs: number }> {
    if (FINAL.has(started.status)) return { tracker: started, ended: 'done', elapsedMs: 0 }
    const r = await poll({
      ...options,
      waitFirst: true,
      read: async (signal) =>
        (await relationImports(started.project_path, { signal })).find((t) => t.id === started.id) ?? started,
      key: (tracker) => tracker.status,
      done: (tracker) => FINAL.has(tracker.status),
    })
    return { tracker: r.value ?? started, ended: r.ended, elapsedMs: r.elapsedMs }
  }

  return {
    /**
     * `POST /projects/import` (multipart): uploads `file` as a stream with a known length. A streamed
     * body is never retried by the client, so a 429 reaches the caller (who may open the file again).
     */
    fromFile: async (file: string, target: ImportTarget, options: CallOptions = {}) =>
      http.request('POST', '/projects/import', {
        ...options,
        body: await streamedMultipart(fieldsOf(target), {
          field: 'file',
          path: file,
          contentType: 'application/gzip',
        }),
        response: ProjectImportStatus,
      }),
    /** `POST /projects/remote-import`: GitLab fetches the archive from `url` (gzip, Content-Length, <= 10 GB). */
    fromUrl: (url: string, target: ImportTarget, options: CallOptions = {}) =>
      http.request('POST', '/projects/remote-import', {
        ...options,
        json: { ...target, url },
        response: ProjectImportStatus,
      }),
    /** `POST /projects/remote-import-s3` (`remote-import-s3`, not `remote-import` as gitbeaker sends it). */
    fromS3: (source: S3Source, target: ImportTarget, options: CallOptions = {}) =>
      http.request('POST', '/projects/remote-import-s3', {
        ...options,
        json: { ...target, ...source },
        response: ProjectImportStatus,
      }),
    /** `GET /projects/:id/import`: `import_status`, `import_error`, up to 100 `failed_relations`. */
    status,
    waitForImport,
    /**
     * `POST /projects/import-relation` (multipart, GitLab 17.1+; 16.11 behind a flag): re-imports one
     * relation of the archive `file` into the existing project at full path `project`, skipping items whose
     * iid it holds. Answers the tracker, `created`; 409 while an import of the project is under way.
     */
    importRelation: async (
      file: string,
      target: { path: string; relation: ImportableRelation },
      options: CallOptions = {},
    ) =>
      http.request('POST', '/projects/import-relation', {
        ...options,
        body: await streamedMultipart(
          [
            ['path', target.path],
            ['relation', target.relation],
          ],
          { field: 'file', path: file, contentType: 'application/gzip' },
        ),
        response: RelationImportTracker,
      }),
    /** `GET /projects/:id/relation-imports`: the project's relation import trackers, oldest first (Maintainer+). */
    relationImports,
    waitForRelationImport,
  }
}
export type ProjectImportsApi = ReturnType<typeof projectImports>
