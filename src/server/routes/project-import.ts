import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Type, type Static, type TObject } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import {
  ProjectImportParams,
  ProjectImportStatus,
  RemoteImportParams,
  S3ImportParams,
} from '../../schema/index.js'
import { multipartParams } from '../http/form-params.js'
import { GitLabError, messageError, paramError, unauthorized } from '../grape/gitlab-errors.js'
import { parseParams } from '../grape/params.js'
import { writeUpload } from '../http/upload-files.js'
import type { ImportService } from '../services/imports.js'
import type { ImportSources } from '../services/import-sources.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const NOT_GZ = { error: 'You need to upload a GitLab project export archive (ending in .gz).' }

interface Upload {
  fields: Record<string, unknown>
  file?: { path: string; filename: string }
  fileInvalid: boolean
}

/**
 * Reads a multipart body part by part: fields kept (brackets parsed as Grape does), the `file`
 * part streamed to `dir` (never buffered); a second file or one under another name is drained.
 * A file over the size limit throws 413. The caller removes `file` when it refuses the request.
 */
export async function readUpload(req: FastifyRequest, dir: string): Promise<Upload> {
  const out: Upload = { fields: {}, fileInvalid: false }
  if (!req.isMultipart()) {
    const body = { ...(req.query as object), ...(req.body && typeof req.body === 'object' ? req.body : {}) }
    return { fields: body, fileInvalid: 'file' in body }
  }
  try {
    out.fields = await multipartParams(req, async (part) => {
      if (part.fieldname !== 'file' || out.file) {
        part.file.resume()
        return
      }
      const path = join(dir, `upload-${randomBytes(8).toString('hex')}.part`)
      out.file = { path, filename: part.filename }
      await writeUpload(part.file, path)
      if (part.file.truncated) throw messageError(413, '413 Request Entity Too Large')
    })
  } catch (err) {
    if (out.file) await rm(out.file.path, { force: true })
    throw err instanceof GitLabError ? err : paramError('file is invalid')
  }
  if ('file' in out.fields && !out.file) out.fileInvalid = true
  return out
}

/**
 * The fields of an upload parsed Grape-style with `schema`, and its file: a missing or invalid file
 * is reported in Grape's order (after `path`, declared first, before the others), all in one 400.
 */
export function uploadParams<S extends TObject>(
  schema: S,
  upload: Upload,
): { params: Static<S>; file: { path: string; filename: string } } {
  const errors: string[] = []
  let params: Static<S> | undefined
  try {
    params = parseParams(schema, upload.fields)
  } catch (err) {
    if (!(err instanceof GitLabError) || typeof err.body !== 'object' || !err.body || !('error' in err.body))
      throw err
    errors.push(...String(err.body.error).split(', '))
  }
  const fileError = upload.fileInvalid ? 'file is invalid' : upload.file ? undefined : 'file is missing'
  if (fileError) errors.splice(errors[0]?.startsWith('path ') ? 1 : 0, 0, fileError)
  if (errors.length > 0 || !params || !upload.file) throw paramError(errors.join(', '))
  return { params, file: upload.file }
}

/** `lib/api/project_import.rb`: the three ways to import a project, and the import status. */
export function projectImportRoutes(
  api: ApiContext,
  imports: ImportService,
  opts: { uploadDir: string; sources: ImportSources },
) {
  const { app, route } = api

  api.route.document({
    method: 'POST',
    url: '/api/v4/projects/import',
    errors: [413, 422],
    summary: 'Import a project from an uploaded export archive (multipart/form-data)',
    body: Type.Object({ ...ProjectImportParams.properties, file: Type.String({ format: 'binary' }) }),
    response: { 201: ProjectImportStatus },
  })
  app.post('/api/v4/projects/import', async (req, reply) => {
    if (!req.actor.user) {
      // Refused without storing anything: the body is read to nowhere, so the client sees the 401.
      if (!req.raw.readableEnded)
        await new Promise((done) => req.raw.on('end', done).on('error', done).resume())
      throw unauthorized()
    }
    const upload = await readUpload(req, opts.uploadDir)
    try {
      const { params, file } = uploadParams(ProjectImportParams, upload)
      const record = await imports.create(
        req.actor,
        params,
        'gitlab_project',
        { kind: 'file', file: file.path },
        req.id,
        async () => {
          if (!file.filename.toLowerCase().endsWith('.gz')) throw messageError(422, NOT_GZ)
        },
      )
      return reply.code(201).type('application/json').send(record)
    } catch (err) {
      await imports.discard(upload.file?.path)
      throw err
    }
  })

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/remote-import',
      errors: [422],
      summary: 'Import a project from an archive at a URL',
      auth: 'required',
      input: RemoteImportParams,
      response: { 201: ProjectImportStatus },
    },
    async (h) => {
      const { source, check } = opts.sources.url(h.params)
      const record = await imports.create(h.actor, h.params, 'gitlab_project', source, h.req.id, check)
      return h.reply.code(201).send({ ...record, import_error: null })
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/remote-import-s3',
      errors: [422],
      summary: 'Import a project from an archive in an S3 bucket',
      auth: 'required',
      input: S3ImportParams,
      response: { 201: ProjectImportStatus },
    },
    async (h) => {
      const { source, check } = opts.sources.s3(h.params)
      const record = await imports.create(h.actor, h.params, 'gitlab_project', source, h.req.id, check)
      return h.reply.code(201).send(record)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/import',
      summary: 'The import status of a project',
      auth: 'required',
      pathParams: IdPath,
      response: { 200: ProjectImportStatus },
    },
    (h) => imports.status(h.actor, h.path.id),
  )
}
