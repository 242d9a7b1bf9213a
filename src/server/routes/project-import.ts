import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import {
  ProjectImportParams,
  ProjectImportStatus,
  RemoteImportParams,
  S3ImportParams,
} from '../../schema/index.js'
import { multipartParams } from '../form-params.js'
import { GitLabError, messageError, paramError, unauthorized } from '../gitlab-errors.js'
import { s3ObjectUrl, signV4 } from '../jobs/import-s3.js'
import { parseParams } from '../params.js'
import { writeUpload } from '../upload-files.js'
import type { ImportService } from '../services/imports.js'
import { BlockedUrlError, checkUrl } from '../services/outbound-url.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const NOT_GZ = { error: 'You need to upload a GitLab project export archive (ending in .gz).' }
/** The HEAD checks of remote imports, with undici: loaded on the first remote import, not at start-up. */
const remoteFile = () => import('../jobs/import-remote.js')

/** `RemoteFileValidator` on a HEAD's headers: a refused file is GitLab's 400 with its message. */
async function acceptRemoteFile(headers: Record<string, string>): Promise<void> {
  const { validateRemoteFile, RemoteFileError } = await remoteFile()
  try {
    validateRemoteFile(headers)
  } catch (err) {
    if (err instanceof RemoteFileError) throw messageError(400, err.message)
    throw err
  }
}

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
async function readUpload(req: FastifyRequest, dir: string): Promise<Upload> {
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

/** `lib/api/project_import.rb`: the three ways to import a project, and the import status. */
export function projectImportRoutes(
  api: ApiContext,
  imports: ImportService,
  opts: { uploadDir: string; s3Endpoint?: string },
) {
  const { app, route } = api
  const allowLocal = api.settings.allowLocalRequests
  const remoteError = (err: unknown, prefix: string): never => {
    const cause = (err as { cause?: unknown }).cause
    if (err instanceof BlockedUrlError || cause instanceof BlockedUrlError)
      throw messageError(
        400,
        `File url is blocked: ${(err instanceof BlockedUrlError ? err : (cause as Error)).message}`,
      )
    throw messageError(400, `${prefix}${(err as Error).message}`)
  }

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
      const errors: string[] = []
      let params: ReturnType<typeof parseParams<typeof ProjectImportParams>> | undefined
      try {
        params = parseParams(ProjectImportParams, upload.fields)
      } catch (err) {
        if (
          !(err instanceof GitLabError) ||
          typeof err.body !== 'object' ||
          !err.body ||
          !('error' in err.body)
        )
          throw err
        errors.push(...err.body.error.split(', '))
      }
      const fileError = upload.fileInvalid ? 'file is invalid' : upload.file ? undefined : 'file is missing'
      if (fileError) errors.splice(errors[0]?.startsWith('path ') ? 1 : 0, 0, fileError)
      if (errors.length > 0 || !params || !upload.file) throw paramError(errors.join(', '))
      const file = upload.file
      const record = await imports.create(
        req.actor,
        params,
        'gitlab_project',
        { kind: 'file', file: file.path },
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
      const source: { kind: 'url'; url: string; maxBytes?: number } = { kind: 'url', url: h.params.url }
      const record = await imports.create(h.actor, h.params, 'gitlab_project', source, async () => {
        let url: URL
        try {
          url = checkUrl(h.params.url, allowLocal ? ['http', 'https'] : ['https'], allowLocal)
        } catch (err) {
          return remoteError(err, '')
        }
        const { headOf } = await remoteFile()
        const head = await headOf(url, {}, allowLocal).catch((err) =>
          remoteError(err, 'Failed to retrive headers: '),
        )
        if (head.headers.server === 'AmazonS3' && head.headers['x-amz-request-id'])
          throw messageError(400, 'To import from AWS S3 use `projects/remote-import-s3`')
        await acceptRemoteFile(head.headers)
        // A GET bringing more than its HEAD announced is cut off while streaming.
        source.maxBytes = Number(head.headers['content-length'])
      })
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
      const p = h.params
      const source = {
        kind: 's3' as const,
        region: p.region,
        bucket: p.bucket_name,
        key: p.file_key,
        accessKeyId: p.access_key_id,
        secretAccessKey: p.secret_access_key,
        endpoint: opts.s3Endpoint,
      }
      const record = await imports.create(h.actor, p, 'gitlab_project', source, async () => {
        for (const [value, label] of [
          [p.region, 'Region'],
          [p.bucket_name, 'Bucket name'],
          [p.file_key, 'File key'],
          [p.access_key_id, 'Access key id'],
          [p.secret_access_key, 'Secret access key'],
        ] as const)
          if (value.trim() === '') throw messageError(400, `${label} can't be blank`)
        const failed = `Failed to open '${p.file_key}' in '${p.bucket_name}': `
        let url: URL
        try {
          url = s3ObjectUrl(p.bucket_name, p.region, p.file_key, opts.s3Endpoint)
        } catch {
          // A region or bucket that cannot form a host name: the client's mistake, not a 500.
          throw messageError(400, `${failed}invalid region or bucket name`)
        }
        // The wall clock, not the server's: S3 checks a signature's time against its own.
        const headers = signV4({ method: 'HEAD', url, ...source, now: new Date() })
        const { headOf } = await remoteFile()
        const head = await headOf(url, headers, allowLocal || opts.s3Endpoint !== undefined).catch((err) =>
          remoteError(err, failed),
        )
        if (head.status === 404)
          throw messageError(400, `File not found '${p.file_key}' in '${p.bucket_name}'`)
        if (head.status < 200 || head.status > 299) throw messageError(400, `${failed}HTTP ${head.status}`)
        await acceptRemoteFile(head.headers)
      })
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
