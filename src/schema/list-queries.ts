import { Type, type Static } from '@sinclair/typebox'
import { KeysetQuery, PageQuery, Visibility } from './common.js'
import { boolParam } from './params.js'

const literalUnion = <T extends string>(values: T[], defaultValue: T) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { default: defaultValue },
  )

/**
 * `GET /projects` (lib/api/projects.rb `collection_params` and `statistics_params`, the subset
 * scripts use): filters, ordering (`created_at desc` by default), `simple`, offset pages, and
 * keyset pages (`pagination=keyset`, `order_by=id` only, lib/gitlab/pagination/keyset.rb).
 * `starred`, `imported`, `with_*_enabled` and `with_custom_attributes` filter nothing here: they are
 * declared with GitLab's defaults, which its page links carry, and checked as Grape checks them.
 */
export const ProjectListQuery = Type.Object(
  {
    ...PageQuery.properties,
    pagination: KeysetQuery.properties.pagination,
    id_after: Type.Optional(Type.Integer()),
    id_before: Type.Optional(Type.Integer()),
    order_by: Type.Optional(
      literalUnion(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'], 'created_at'),
    ),
    sort: Type.Optional(literalUnion(['asc', 'desc'], 'desc')),
    archived: Type.Optional(boolParam()),
    visibility: Type.Optional(Visibility),
    search: Type.Optional(Type.String()),
    owned: Type.Optional(boolParam({ default: false })),
    membership: Type.Optional(boolParam({ default: false })),
    starred: Type.Optional(boolParam({ default: false })),
    imported: Type.Optional(boolParam({ default: false })),
    with_issues_enabled: Type.Optional(boolParam({ default: false })),
    with_merge_requests_enabled: Type.Optional(boolParam({ default: false })),
    simple: Type.Optional(boolParam({ default: false })),
    statistics: Type.Optional(boolParam({ default: false })),
    with_custom_attributes: Type.Optional(boolParam({ default: false })),
  },
  { title: 'ProjectListQuery' },
)
export type ProjectListQuery = Static<typeof ProjectListQuery>

/**
 * `GET /users` (lib/api/users.rb): `username` (exact), `search`, `active`, `blocked`; `order_by`
 * and `sort` count for administrators only, as GitLab drops them for others. `pagination` and
 * `cursor` are read by `paginate_with_strategies` (16.5+) without being declared, so any
 * `pagination` value is taken (only `keyset` pages by cursor), never refused. `external`,
 * `exclude_external`, `without_projects`, `exclude_internal`, `admins` and `with_custom_attributes`
 * filter nothing here: they are declared with GitLab's defaults, which its page links carry.
 */
export const UserListQuery = Type.Object(
  {
    ...PageQuery.properties,
    pagination: Type.Optional(Type.String()),
    cursor: Type.Optional(Type.String()),
    username: Type.Optional(Type.String()),
    search: Type.Optional(Type.String()),
    active: Type.Optional(boolParam({ default: false })),
    external: Type.Optional(boolParam({ default: false })),
    exclude_external: Type.Optional(boolParam({ default: false })),
    blocked: Type.Optional(boolParam({ default: false })),
    without_projects: Type.Optional(boolParam({ default: false })),
    exclude_internal: Type.Optional(boolParam({ default: false })),
    admins: Type.Optional(boolParam({ default: false })),
    with_custom_attributes: Type.Optional(boolParam({ default: false })),
    order_by: Type.Optional(literalUnion(['id', 'name', 'username', 'created_at', 'updated_at'], 'id')),
    sort: Type.Optional(literalUnion(['asc', 'desc'], 'desc')),
  },
  { title: 'UserListQuery' },
)
export type UserListQuery = Static<typeof UserListQuery>

/**
 * `GET /groups` (lib/api/groups.rb `group_list_params`, the subset modelled); `statistics` and
 * `with_custom_attributes` are declared only for their defaults, which GitLab's page links carry.
 */
export const GroupListQuery = Type.Object(
  {
    ...PageQuery.properties,
    all_available: Type.Optional(boolParam()),
    search: Type.Optional(Type.String()),
    owned: Type.Optional(boolParam({ default: false })),
    visibility: Type.Optional(Visibility),
    top_level_only: Type.Optional(boolParam()),
    order_by: Type.Optional(literalUnion(['name', 'path', 'id'], 'name')),
    sort: Type.Optional(literalUnion(['asc', 'desc'], 'asc')),
    statistics: Type.Optional(boolParam({ default: false })),
    with_custom_attributes: Type.Optional(boolParam({ default: false })),
  },
  { title: 'GroupListQuery' },
)
export type GroupListQuery = Static<typeof GroupListQuery>

/** `GET /namespaces` (lib/api/namespaces.rb). */
export const NamespaceListQuery = Type.Object(
  {
    ...PageQuery.properties,
    search: Type.Optional(Type.String()),
    owned_only: Type.Optional(boolParam()),
    top_level_only: Type.Optional(boolParam({ default: false })),
  },
  { title: 'NamespaceListQuery' },
)
export type NamespaceListQuery = Static<typeof NamespaceListQuery>
