import { Type } from '@sinclair/typebox'
import type { FastifyReply } from 'fastify'
import { ArchiveQuery } from '../../schema/index.js'
import { GitLabError } from '../grape/gitlab-errors.js'
import { streamedBody } from '../http/head-requests.js'
import { ARCHIVE_FORMATS, type RepositoryArchive } from '../services/repository/archive.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const FormatPath = Type.Object({ id: Type.String(), format: Type.String() })

/**
 * `GET /projects/:id/repository/archive[.format]` (`lib/api/repositories.rb`): the headers
 * Workhorse's `git-archive` sends (`internal/git/archive.go`): `attachment` with the file name,
 * `application/zip` for a zip and `application/octet-stream` for the others, `binary` transfer.
 */
export function repositoryArchiveRoutes(api: ApiContext): void {
  const { route } = api
  const archives = api.services.repository.archive
  const response = { 200: Type.String({ description: 'the archive' }) }

  const send = (h: { reply: FastifyReply }, a: RepositoryArchive) =>
    h.reply
      .header('content-disposition', `attachment; filename="${a.fileName}"`)
      .header('content-transfer-encoding', 'binary')
      .type(a.contentType)
      .send(streamedBody(h.reply.request, a.body))

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/archive',
      summary: 'Download an archive of a ref (format: tar.gz (default), tar, zip)',
      pathParams: IdPath,
      input: ArchiveQuery,
      response,
    },
    (h) => send(h, archives.archive(h.actor, h.path.id, h.params, undefined)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/archive.:format',
      summary: 'Download an archive of a ref in a format: tar.gz, tgz, gz, tar, zip',
      pathParams: FormatPath,
      input: ArchiveQuery,
      response,
    },
    (h) => {
      // Grape's route requirement: another extension matches no route.
      if (!ARCHIVE_FORMATS.includes(h.path.format)) throw new GitLabError(404, { error: '404 Not Found' })
      return send(h, archives.archive(h.actor, h.path.id, h.params, h.path.format))
    },
  )
}
