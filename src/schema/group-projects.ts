import { Type, type Static } from '@sinclair/typebox'
import { PageQuery, Visibility } from './common.js'
import { boolParam } from './params.js'

/**
 * `GET /groups/:id/projects` (GitLab's `lib/api/groups.rb`, the subset the export action and
 * backup scripts use): `include_subgroups`, `archived`, `visibility`, `search`, ordering, pages.
 * The flags after `sort` filter nothing here: they are declared with GitLab's defaults, which its
 * page links carry.
 */
export const GroupProjectsQuery = Type.Object({
  ...PageQuery.properties,
  include_subgroups: Type.Optional(boolParam({ default: false })),
  archived: Type.Optional(boolParam()),
  visibility: Type.Optional(Visibility),
  search: Type.Optional(Type.String()),
  simple: Type.Optional(boolParam({ default: false })),
  order_by: Type.Optional(
    Type.Union(
      ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'].map((v) => Type.Literal(v)),
      { default: 'created_at' },
    ),
  ),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
  owned: Type.Optional(boolParam({ default: false })),
  starred: Type.Optional(boolParam({ default: false })),
  with_issues_enabled: Type.Optional(boolParam({ default: false })),
  with_merge_requests_enabled: Type.Optional(boolParam({ default: false })),
  with_shared: Type.Optional(boolParam({ default: true })),
  include_ancestor_groups: Type.Optional(boolParam({ default: false })),
  with_custom_attributes: Type.Optional(boolParam({ default: false })),
})
export type GroupProjectsQuery = Static<typeof GroupProjectsQuery>
