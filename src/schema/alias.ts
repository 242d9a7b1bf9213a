import { Type, type Static } from '@sinclair/typebox'

/** spec 2.15, reference §15: a project alias (EE, administrators). */
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
