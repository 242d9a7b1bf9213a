import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { Readable } from 'node:stream'
import type { ResourceRef } from '../schema/common.js'
import type { ProjectImportStatus } from '../schema/project-import.js'
import type { CallOptions, Http } from './http.js'
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

type Field = [name: string, value: string]

/** The form fields of an import, `override_params[key]` as Rails reads nested hashes. */
function fieldsOf(target: ImportTarget): Field[] {
  const out: Field[] = [['path', target.path]]
  if (target.name !== undefined) out.push(['name', target.name])
  if (target.namespace !== undefined) out.push(['namespace', String(target.namespace)])
  if (target.overwrite !== undefined) out.push(['overwrite', String(target.overwrite)])
  for (const [k, v] of Object.entries(target.override_params ?? {}))
    out.push([`override_params[${k}]`, String(v)])
  return out
}

const quote = (s: string) => s.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c))

/**
 * A multipart/form-data body whose file part streams from disk: its exact length is known up front
 * (text parts + file size), so it goes out with `Content-Length` and is never held in memory
 * (unlike go-gitlab's bytes.Buffer or a Blob; peers.md §0.5). Returns the body, its length and type.
 */
export async function multipartFromFile(
  fields: Field[],
  fileField: string,
  file: string,
  filename = basename(file),
) {
  const size = (await stat(file)).size
  const boundary = `----gitlab-actions-${randomBytes(12).toString('hex')}`
  const head = Buffer.from(
    fields
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(fileField)}"; filename="${quote(filename)}"\r\n` +
      'Content-Type: application/gzip\r\n\r\n',
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  async function* parts() {
    yield head
    yield* createReadStream(file)
    yield tail
  }
  return {
    data: Readable.from(parts(), { objectMode: false }),
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
  }
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
      body: await multipartFromFile(fieldsOf(target), 'file', file),
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
