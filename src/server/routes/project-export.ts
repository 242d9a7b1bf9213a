import { open } from 'node:fs/promises'
import { Type } from '@sinclair/typebox'
import { AcceptedMessage, ProjectExportParams, ProjectExportStatus } from '../../schema/index.js'
import { messageError } from '../grape/gitlab-errors.js'
import { streamedBody } from '../http/head-requests.js'
import type { ExportService } from '../services/exports.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/** `lib/api/project_export.rb`: schedule an export, read its status, download the archive. */
export function projectExportRoutes(api: ApiContext, exports: ExportService) {
  const { route } = api

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/export',
      summary: 'Schedule an export of the project (Maintainer+)',
      auth: 'required',
      pathParams: IdPath,
      input: ProjectExportParams,
      response: { 202: AcceptedMessage },
    },
    (h) => {
      exports.schedule(h.actor, h.path.id, h.params)
      return h.reply.code(202).send({ message: '202 Accepted' })
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/export',
      summary: "The caller's export status of the project (Maintainer+)",
      auth: 'required',
      pathParams: IdPath,
      response: { 200: ProjectExportStatus },
    },
    (h) => exports.status(h.actor, h.path.id),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/export/download',
      summary: "Download the caller's finished export archive (Maintainer+)",
      auth: 'required',
      pathParams: IdPath,
      response: { 200: Type.String({ format: 'binary' }) },
    },
    async (h) => {
      const { file, name } = exports.download(h.actor, h.path.id)
      // Opened before answering: a new export removing the file cannot break a download under way.
      const handle = await open(file).catch(() => {
        throw messageError(404, '404 Not found or has expired')
      })
      const { size } = await handle.stat()
      return h.reply
        .header('content-type', 'application/octet-stream')
        .header(
          'content-disposition',
          `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('content-transfer-encoding', 'binary')
        .header('content-length', String(size))
        .send(streamedBody(h.reply.request, handle.createReadStream()))
    },
  )
}
