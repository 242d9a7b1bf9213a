import { Type, type Static } from '@sinclair/typebox'
import { PageQuery, Visibility } from './common.js'
import { boolParam } from './params.js'

/**
 * `GET /groups/:id/projects` (GitLab's `lib/api/groups.rb`, the subset the export action and
 * backup scripts use): `include_subgroups`, `archived`, `visibility`, `search`, ordering, pages.
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
})
export type GroupProjectsQuery = Static<typeof GroupProjectsQuery>
