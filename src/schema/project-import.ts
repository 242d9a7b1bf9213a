import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp } from './common.js'
import { projectIdentityFields } from './namespace.js'

/**
 * `lib/api/entities/project_import_failed_relation.rb`: one failed relation; `exception_message` is always
 * null in the API.
 */
export const FailedRelation = Type.Object(
  {
    id: Type.Integer(),
    created_at: Timestamp,
    exception_class: Type.String(),
    exception_message: Nullable(Type.String()),
    source: Type.String(),
    relation_name: Type.String(),
    line_number: Type.Integer(),
  },
  { title: 'ProjectImportFailedRelation' },
)
export type FailedRelation = Static<typeof FailedRelation>

export const ImportStatusValue = Type.Union([
  Type.Literal('none'),
  Type.Literal('scheduled'),
  Type.Literal('started'),
  Type.Literal('finished'),
  Type.Literal('failed'),
])
export type ImportStatusValue = Static<typeof ImportStatusValue>

/** `lib/api/entities/project_import_status.rb`: the import record (`ProjectImportStatus`). */
export const ProjectImportStatus = Type.Object(
  {
    ...projectIdentityFields,
    import_status: ImportStatusValue,
    import_type: Nullable(Type.String()),
    correlation_id: Nullable(Type.String()),
    failed_relations: Type.Array(FailedRelation),
    import_error: Nullable(Type.String()),
    stats: Type.Null(),
  },
  { title: 'ProjectImportStatus' },
)
export type ProjectImportStatus = Static<typeof ProjectImportStatus>

const common = {
  path: Type.String(),
  name: Type.Optional(Nullable(Type.String())),
  namespace: Type.Optional(Type.String()),
  overwrite: Type.Optional(Type.Boolean()),
  override_params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
}

/** GitLab's doc/api/project_import_export.md: the fields of `POST /projects/import` besides the `file` part (multipart). */
export const ProjectImportParams = Type.Object(common)
export type ProjectImportParams = Static<typeof ProjectImportParams>

/** GitLab's doc/api/project_import_export.md: `POST /projects/remote-import`. */
export const RemoteImportParams = Type.Object({ url: Type.String(), ...common })
export type RemoteImportParams = Static<typeof RemoteImportParams>

/** `POST /projects/remote-import-s3` (`lib/api/project_import.rb`). */
export const S3ImportParams = Type.Object({
  region: Type.String(),
  bucket_name: Type.String(),
  file_key: Type.String(),
  access_key_id: Type.String(),
  secret_access_key: Type.String(),
  ...common,
})
export type S3ImportParams = Static<typeof S3ImportParams>
