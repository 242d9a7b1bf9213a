import { Type, type Static } from '@sinclair/typebox'

/** `ee/lib/ee/api/entities/project_alias.rb`: a project alias (EE, administrators). */
export const ProjectAlias = Type.Object(
  { id: Type.Integer(), project_id: Type.Integer(), name: Type.String() },
  { title: 'ProjectAlias' },
)
export type ProjectAlias = Static<typeof ProjectAlias>

/** `POST /project_aliases`: `project_id` is an id or a full path. */
export const ProjectAliasCreate = Type.Object({
  project_id: Type.Union([Type.Integer(), Type.String()]),
  name: Type.String(),
})
export type ProjectAliasCreate = Static<typeof ProjectAliasCreate>
