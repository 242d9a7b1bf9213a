import { Type, type Static } from '@sinclair/typebox'
import { Timestamp } from './common.js'

/** `Projects::ImportExport::RelationImportService::IMPORTABLE_RELATIONS`, in GitLab's order. */
export const IMPORTABLE_RELATIONS = ['issues', 'merge_requests', 'milestones', 'ci_pipelines'] as const
export type ImportableRelation = (typeof IMPORTABLE_RELATIONS)[number]

/** `RelationImportTracker`'s states (app/models/projects/import_export/relation_import_tracker.rb). */
export const RelationImportStatus = Type.Union([
  Type.Literal('created'),
  Type.Literal('started'),
  Type.Literal('finished'),
  Type.Literal('failed'),
])
export type RelationImportStatus = Static<typeof RelationImportStatus>

/** `lib/api/entities/relation_import_tracker.rb`: one single relation import. */
export const RelationImportTracker = Type.Object(
  {
    id: Type.Integer(),
    project_path: Type.String(),
    relation: Type.String(),
    status: RelationImportStatus,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'RelationImportTracker' },
)
export type RelationImportTracker = Static<typeof RelationImportTracker>

/**
 * `POST /projects/import-relation` (`lib/api/project_import.rb`): the fields besides the `file` part
 * (multipart). `relation` is any string to Grape; the service checks it against IMPORTABLE_RELATIONS.
 */
export const RelationImportParams = Type.Object({ path: Type.String(), relation: Type.String() })
export type RelationImportParams = Static<typeof RelationImportParams>
