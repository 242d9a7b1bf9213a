import { Type, type Static } from '@sinclair/typebox'
import { boolParam } from './params.js'

/**
 * `Entities::ProjectJobTokenScope` (lib/api/entities/project_job_token_scope.rb): whether job tokens of
 * other projects are limited to the allowlists (`inbound_enabled`), and the deprecated outbound scope.
 */
export const JobTokenScope = Type.Object(
  { inbound_enabled: Type.Boolean(), outbound_enabled: Type.Boolean() },
  { title: 'ProjectJobTokenScope' },
)
export type JobTokenScope = Static<typeof JobTokenScope>

/** `PATCH /projects/:id/job_token_scope`: `enabled` sets `inbound_enabled`. */
export const JobTokenScopeUpdate = Type.Object({
  enabled: boolParam({
    'x-allow-blank': false,
    description: 'limit access to this project to the allowlists',
  }),
})
export type JobTokenScopeUpdate = Static<typeof JobTokenScopeUpdate>

/** `POST /projects/:id/job_token_scope/allowlist`. */
export const JobTokenAllowlistAdd = Type.Object({
  target_project_id: Type.Integer({
    'x-allow-blank': false,
    description: 'the project whose job tokens may come in',
  }),
})
export type JobTokenAllowlistAdd = Static<typeof JobTokenAllowlistAdd>

/** `POST /projects/:id/job_token_scope/groups_allowlist`. */
export const JobTokenGroupsAllowlistAdd = Type.Object({
  target_group_id: Type.Integer({
    'x-allow-blank': false,
    description: 'the group whose projects may send job tokens in',
  }),
})
export type JobTokenGroupsAllowlistAdd = Static<typeof JobTokenGroupsAllowlistAdd>

/** `Entities::ProjectScopeLink`: a project added to the inbound allowlist of `source_project_id`. */
export const JobTokenProjectLink = Type.Object(
  { source_project_id: Type.Integer(), target_project_id: Type.Integer() },
  { title: 'ProjectScopeLink' },
)
export type JobTokenProjectLink = Static<typeof JobTokenProjectLink>

/** `Entities::GroupScopeLink`: a group added to the allowlist of `source_project_id`. */
export const JobTokenGroupLink = Type.Object(
  { source_project_id: Type.Integer(), target_group_id: Type.Integer() },
  { title: 'GroupScopeLink' },
)
export type JobTokenGroupLink = Static<typeof JobTokenGroupLink>
