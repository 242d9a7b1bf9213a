import { Type, type Static } from '@sinclair/typebox'
import { DateString, Nullable, PageQuery, Visibility } from './common.js'
import { boolParam, csvParam } from './params.js'

/** A feature's access level (`ProjectFeature::STRING_OPTIONS`). */
const FeatureLevel = Type.Union([
  Type.Literal('disabled'),
  Type.Literal('private'),
  Type.Literal('enabled'),
  Type.Literal('public'),
])

/**
 * The project attributes `POST` and `PUT /projects` share (lib/api/helpers/projects_helpers.rb
 * `optional_project_params_ce`, the part our surface reads): description, visibility, topics
 * (`tag_list` is their deprecated name), the feature access levels and their legacy booleans, and
 * `public_jobs` (`public_builds` its deprecated name), `mr_default_target_self` and
 * `keep_latest_artifact`.
 */
const projectAttributes = {
  description: Type.Optional(Type.String()),
  visibility: Type.Optional(Visibility),
  topics: Type.Optional(csvParam()),
  tag_list: Type.Optional(csvParam({ deprecated: true })),
  issues_access_level: Type.Optional(FeatureLevel),
  merge_requests_access_level: Type.Optional(FeatureLevel),
  builds_access_level: Type.Optional(FeatureLevel),
  repository_access_level: Type.Optional(FeatureLevel),
  wiki_access_level: Type.Optional(FeatureLevel),
  snippets_access_level: Type.Optional(FeatureLevel),
  issues_enabled: Type.Optional(boolParam()),
  merge_requests_enabled: Type.Optional(boolParam()),
  jobs_enabled: Type.Optional(boolParam()),
  wiki_enabled: Type.Optional(boolParam()),
  snippets_enabled: Type.Optional(boolParam()),
  public_builds: Type.Optional(boolParam({ deprecated: true })),
  public_jobs: Type.Optional(boolParam()),
  /** Forks: merge requests created in the fork target the fork itself by default. */
  mr_default_target_self: Type.Optional(boolParam()),
  /** Keep the artifacts of each ref's latest successful pipeline past their `expire_in` (default true). */
  keep_latest_artifact: Type.Optional(boolParam()),
}

const createFields = {
  name: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  default_branch: Type.Optional(Type.String()),
  initialize_with_readme: Type.Optional(boolParam()),
  ...projectAttributes,
}

/** `POST /projects` (lib/api/projects.rb): a name or a path, the namespace (default: the caller's). */
export const ProjectCreate = Type.Object(
  { ...createFields, namespace_id: Type.Optional(Type.Integer()) },
  { title: 'ProjectCreate', 'x-at-least-one-of': ['name', 'path'] },
)
export type ProjectCreate = Static<typeof ProjectCreate>

/** `POST /projects/user/:user_id` (administrators): `name` is required there. */
export const ProjectCreateForUser = Type.Object(
  { ...createFields, name: Type.String(), namespace_id: Type.Optional(Type.Integer()) },
  { title: 'ProjectCreateForUser' },
)
export type ProjectCreateForUser = Static<typeof ProjectCreateForUser>

/** `PUT /projects/:id`: at least one attribute (`update_params_at_least_one_of`, the part modelled). */
export const ProjectUpdate = Type.Object(
  {
    name: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    default_branch: Type.Optional(Type.String()),
    ...projectAttributes,
  },
  {
    title: 'ProjectUpdate',
    'x-at-least-one-of': ['name', 'path', 'default_branch', ...Object.keys(projectAttributes)],
  },
)
export type ProjectUpdate = Static<typeof ProjectUpdate>

/** `DELETE /projects/:id`: `permanently_remove` a project marked for deletion, naming its `full_path`. */
export const ProjectDeleteQuery = Type.Object({
  permanently_remove: Type.Optional(boolParam()),
  full_path: Type.Optional(Type.String()),
})
export type ProjectDeleteQuery = Static<typeof ProjectDeleteQuery>

/** `PUT /projects/:id/transfer`: the target namespace by id or full path. */
export const ProjectTransfer = Type.Object({ namespace: Type.String() }, { title: 'ProjectTransfer' })
export type ProjectTransfer = Static<typeof ProjectTransfer>

/** `Gitlab::Access.all_values`: the levels a share may give (Grape's `values:` on `group_access`). */
export const GROUP_ACCESS_VALUES = [10, 15, 20, 30, 40, 50]

/** `POST /projects/:id/share`. */
export const ProjectShare = Type.Object(
  {
    group_id: Type.Integer(),
    group_access: Type.Integer({ description: 'one of GROUP_ACCESS_VALUES' }),
    expires_at: Type.Optional(DateString),
  },
  { title: 'ProjectShare' },
)
export type ProjectShare = Static<typeof ProjectShare>

/** `Entities::ProjectGroupLink`: the answer to `POST /projects/:id/share`. */
export const ProjectGroupLink = Type.Object(
  {
    id: Type.Integer(),
    project_id: Type.Integer(),
    group_id: Type.Integer(),
    group_access: Type.Integer(),
    expires_at: Nullable(DateString),
  },
  { title: 'ProjectGroupLink' },
)
export type ProjectGroupLink = Static<typeof ProjectGroupLink>

/** `GET /users/:user_id/projects` (`collection_params`, the part modelled). */
export const UserProjectsQuery = Type.Object(
  {
    ...PageQuery.properties,
    order_by: Type.Optional(
      Type.Union(
        ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'].map((v) => Type.Literal(v)),
        { default: 'created_at' },
      ),
    ),
    sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
    archived: Type.Optional(boolParam()),
    visibility: Type.Optional(Visibility),
    search: Type.Optional(Type.String()),
    simple: Type.Optional(boolParam({ default: false })),
  },
  { title: 'UserProjectsQuery' },
)
export type UserProjectsQuery = Static<typeof UserProjectsQuery>
