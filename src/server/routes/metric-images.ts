import { randomUUID } from 'node:crypto'
import { createReadStream, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { imageType, MetricImage, MetricImageFields } from '../../schema/index.js'
import { GitLabError, badRequest, paramError } from '../grape/gitlab-errors.js'
import { streamedBody } from '../http/head-requests.js'
import { parseParams } from '../grape/params.js'
import { multipartField } from '../http/malformed-strings.js'
import type { Upload } from '../services/metric-images.js'
import { writeUpload } from '../http/upload-files.js'
import type { ApiContext } from './context.js'
import type { Route } from './define.js'
import { IssuePath, issueRoute } from './paths.js'

const ImagePath = Type.Object({
  id: Type.String(),
  issue_iid: Type.Integer(),
  metric_image_id: Type.Integer(),
})
/**
 * The request's text fields and its `file` part, streamed to `dir` (every path written is pushed to
 * `written`, for the caller to clean up); other file parts are drained. A body that is not valid
 * multipart is 400 `400 Bad request` (chosen: GitLab's Workhorse refuses it before Rails sees it).
 */
async function readUpload(req: FastifyRequest, dir: string, written: string[]) {
  try {
    return await readParts(req, dir, written)
  } catch (err) {
    throw err instanceof GitLabError ? err : badRequest()
  }
}

async function readParts(req: FastifyRequest, dir: string, written: string[]) {
  const fields: Record<string, unknown> = { ...(req.query as Record<string, unknown>) }
  let file: (Upload & { truncated: boolean }) | undefined
  if (!req.isMultipart()) {
    Object.assign(fields, req.body && typeof req.body === 'object' ? req.body : {})
    return { fields, file }
  }
  for await (const part of req.parts()) {
    if (part.type === 'file' && part.fieldname === 'file' && !file) {
      const path = join(dir, `upload-${randomUUID()}`)
      written.push(path)
      file = { path, filename: part.filename, truncated: false }
      await writeUpload(part.file, path)
      file.truncated = part.file.truncated
    } else if (part.type === 'file') part.file.resume()
    else {
      const [name, value] = multipartField(part.fieldname, String(part.value))
      fields[name] = value
    }
  }
  return { fields, file }
}

/**
 * Incident metric images (EE only; `ee/lib/ee/api/issues.rb`) and the download of their files at
 * `file_path`. The upload is in `metricImageUploadRoutes`, served under its own multipart limits.
 */
export function metricImageRoutes(api: ApiContext): void {
  const images = api.services.metricImages
  if (!images) return
  const { route, access } = api
  const onIssue = issueRoute(route, access)

  api.app.get('/uploads/-/system/issuable_metric_image/file/:image_id/:filename', (req, reply) => {
    const { image_id: id, filename } = req.params as Record<string, string>
    const path = /^\d+$/.test(id ?? '') ? images.file(req.actor, Number(id), filename ?? '') : undefined
    if (!path) return reply.code(404).type('application/json').send({ message: '404 Not Found' })
    const type = imageType(path)
    return reply.type(type).send(streamedBody(req, createReadStream(path)))
  })

  onIssue(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid/metric_images',
      summary: 'List the metric images of an incident',
      response: { 200: Type.Array(MetricImage) },
    },
    (h, { iid, project }) => images.list(h.actor, project, iid),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/issues/:issue_iid/metric_images/:metric_image_id',
      summary: 'Update the url and url_text of a metric image',
      auth: 'non_get',
      pathParams: ImagePath,
      input: MetricImageFields,
      response: { 200: MetricImage },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id)
      return images.update(h.actor, project, h.path.issue_iid, h.path.metric_image_id, h.params)
    },
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/issues/:issue_iid/metric_images/:metric_image_id',
      summary: 'Delete a metric image',
      auth: 'non_get',
      pathParams: ImagePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      images.remove(h.actor, access.project(h.actor, h.path.id), h.path.issue_iid, h.path.metric_image_id)
      return h.reply.code(204).send()
    },
  )
}

/** `POST …/metric_images`: a multipart upload, its file streamed to the service's upload folder. */
export function metricImageUploadRoutes(api: ApiContext, route: Route): void {
  const images = api.services.metricImages
  if (!images) return
  const { access } = api
  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/metric_images',
      summary: 'Upload a metric image to an incident (multipart: file, url, url_text)',
      auth: 'non_get',
      pathParams: IssuePath,
      readsParts: true,
      response: { 201: MetricImage },
    },
    async (h) => {
      const written: string[] = []
      try {
        const { fields, file } = await readUpload(h.req, images.uploadDir, written)
        const iid = h.path.issue_iid
        if (!file) throw paramError(fields.file === undefined ? 'file is missing' : 'file is invalid')
        const params = parseParams(MetricImageFields, fields)
        if (file.truncated) throw badRequest('File is too large')
        const project = access.project(h.actor, h.path.id)
        return h.reply.code(201).send(images.upload(h.actor, project, iid, file, params))
      } finally {
        for (const path of written) rmSync(path, { force: true })
      }
    },
  )
}
