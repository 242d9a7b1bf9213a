import type { ResourceRef } from '../schema/common.js'
import type { ProjectImportStatus } from '../schema/project-import.js'
import type { CallOptions, Http } from './http.js'
import { streamedMultipart, type FormField } from './multipart.js'
import { path } from './path.js'

/** Parameters every import takes (spec 4.1). */
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

/** spec 4.1: project imports from an uploaded file, a URL or S3, and their status. */
export const projectImports = (http: Http) => ({
  /**
   * `POST /projects/import` (multipart): uploads `file` as a stream with a known length. A streamed
   * body is never retried by the client, so a 429 reaches the caller (who may open the file again).
   */
  fromFile: async (file: string, target: ImportTarget, options: CallOptions = {}) =>
    http.request<ProjectImportStatus>('POST', '/projects/import', {
      ...options,
      body: await streamedMultipart(fieldsOf(target), {
        field: 'file',
        path: file,
        contentType: 'application/gzip',
      }),
    }),
  /** `POST /projects/remote-import`: GitLab fetches the archive from `url` (gzip, Content-Length, <= 10 GB). */
  fromUrl: (url: string, target: ImportTarget, options: CallOptions = {}) =>
    http.request<ProjectImportStatus>('POST', '/projects/remote-import', {
      ...options,
      json: { ...target, url },
    }),
  /** `POST /projects/remote-import-s3` (`remote-import-s3`, not `remote-import` as gitbeaker sends it). */
  fromS3: (source: S3Source, target: ImportTarget, options: CallOptions = {}) =>
    http.request<ProjectImportStatus>('POST', '/projects/remote-import-s3', {
      ...options,
      json: { ...target, ...source },
    }),
  /** `GET /projects/:id/import`: `import_status`, `import_error`, up to 100 `failed_relations`. */
  status: (project: ResourceRef, options: CallOptions = {}) =>
    http.request<ProjectImportStatus>('GET', path`/projects/${project}/import`, options),
})
export type ProjectImportsApi = ReturnType<typeof projectImports>
