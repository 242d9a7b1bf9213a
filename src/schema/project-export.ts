import { Type, type Static } from '@sinclair/typebox'
import { projectIdentityFields } from './namespace.js'

/**
 * `export_status` (`lib/api/entities/project_export_status.rb`). `failed` is GitLab's current
 * `Project#export_status` value for a failed export job (the spec's list predates it); we answer it rather
 * than `none`.
 */
export const ExportStatusValue = Type.Union([
  Type.Literal('none'),
  Type.Literal('queued'),
  Type.Literal('started'),
  Type.Literal('finished'),
  Type.Literal('regeneration_in_progress'),
  Type.Literal('failed'),
])
export type ExportStatusValue = Static<typeof ExportStatusValue>

/** GitLab's doc/api/project_import_export.md: `GET /projects/:id/export`; `_links` only while `finished`. */
export const ProjectExportStatus = Type.Object(
  {
    ...projectIdentityFields,
    export_status: ExportStatusValue,
    _links: Type.Optional(Type.Object({ api_url: Type.String(), web_url: Type.String() })),
  },
  { title: 'ProjectExportStatus' },
)
export type ProjectExportStatus = Static<typeof ProjectExportStatus>

/**
 * GitLab's doc/api/project_import_export.md: `POST /projects/:id/export` parameters (lib/api/project_export.rb). `upload` and both
 * its keys are optional: go-gitlab sends `"upload": {}` on every export, and an upload without a
 * `url` (`upload[http_method]` alone) is no upload, the export is kept for download. A given
 * `upload[http_method]` must still be PUT or POST (defaults to PUT).
 */
export const ProjectExportParams = Type.Object({
  description: Type.Optional(Type.String()),
  upload: Type.Optional(
    Type.Object({
      url: Type.Optional(Type.String()),
      http_method: Type.Optional(Type.Union([Type.Literal('PUT'), Type.Literal('POST')])),
    }),
  ),
})
export type ProjectExportParams = Static<typeof ProjectExportParams>

/** `{"message":"202 Accepted"}`: the answer to a scheduled export. */
export const AcceptedMessage = Type.Object({ message: Type.String() })
