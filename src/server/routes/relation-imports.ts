import { Type } from '@sinclair/typebox'
import { RelationImportParams, RelationImportTracker } from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import { messageError, notFound, unauthorized } from '../grape/gitlab-errors.js'
import type { Transfers } from '../services/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'
import { readUpload, uploadParams } from './project-import.js'

const NOT_GZ = { error: 'You need to upload a GitLab project export archive (ending in .gz).' }

/**
 * `lib/api/project_import.rb`: `POST /projects/import-relation` (one relation of an export archive
 * re-imported into an existing project) and `GET /projects/:id/relation-imports` (its trackers).
 * Per release (`singleRelationImport`, `singleRelationImportGa` in domain/releases.ts): before 16.11 no
 * routes (404); 16.11 to 17.0 behind the flag `single_relation_import`, off by default and not settable
 * here, so both answer 404 `{"message":"404 Not Found"}` after authentication (our reading: GitLab's
 * source of those releases is not at hand); from 17.1 as documented.
 */
export function relationImportRoutes(api: ApiContext, transfers: Transfers) {
  const version = api.instance.version
  if (!applies(version, 'singleRelationImport')) return
  const flagOff = !applies(version, 'singleRelationImportGa')
  const { app, route } = api
  const service = transfers.relationImports

  api.route.document({
    method: 'POST',
    url: '/api/v4/projects/import-relation',
    errors: [409, 413, 422],
    summary: 'Re-import one relation of an export archive into an existing project (multipart/form-data)',
    body: Type.Object({ ...RelationImportParams.properties, file: Type.String({ format: 'binary' }) }),
    response: { 201: RelationImportTracker },
  })
  app.post('/api/v4/projects/import-relation', async (req, reply) => {
    if (!req.actor.user || flagOff) {
      // Refused without storing anything: the body is read to nowhere, so the client sees the answer.
      if (!req.raw.readableEnded)
        await new Promise((done) => req.raw.on('end', done).on('error', done).resume())
      throw req.actor.user ? notFound() : unauthorized()
    }
    const upload = await readUpload(req, transfers.uploadDir)
    try {
      const { params, file } = uploadParams(RelationImportParams, upload)
      const tracker = service.create(req.actor, params, file.path, () => {
        if (!file.filename.toLowerCase().endsWith('.gz')) throw messageError(422, NOT_GZ)
      })
      return reply.code(201).type('application/json').send(tracker)
    } catch (err) {
      await transfers.imports.discard(upload.file?.path)
      throw err
    }
  })

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/relation-imports',
      summary: 'The single relation imports of a project',
      auth: 'required',
      pathParams: IdPath,
      response: { 200: Type.Array(RelationImportTracker) },
    },
    (h) => {
      if (flagOff) throw notFound()
      return service.list(h.actor, h.path.id)
    },
  )
}
