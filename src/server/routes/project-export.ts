import { Type } from '@sinclair/typebox'
import { AcceptedMessage, ProjectExportParams, ProjectExportStatus } from '../../schema/index.js'
import { messageError } from '../grape/gitlab-errors.js'
import { sendDownload } from '../http/file-download.js'
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
      return sendDownload(h.reply, file, name, () => messageError(404, '404 Not found or has expired'))
    },
  )
}
