import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp, Visibility } from './common.js'

/** The namespace embedded in a project (`NamespaceBasic`). */
export const NamespaceBasic = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    path: Type.String(),
    kind: Type.Union([Type.Literal('group'), Type.Literal('user')]),
    full_path: Type.String(),
    parent_id: Nullable(Type.Integer()),
    avatar_url: Nullable(Type.String()),
    web_url: Type.String(),
  },
  { title: 'NamespaceBasic' },
)
export type NamespaceBasic = Static<typeof NamespaceBasic>

/** `GET /groups/:id` (the fields of GitLab's `Group` entity that clients read). */
export const Group = Type.Object(
  {
    id: Type.Integer(),
    web_url: Type.String(),
    name: Type.String(),
    path: Type.String(),
    description: Type.String(),
    visibility: Visibility,
    full_name: Type.String(),
    full_path: Type.String(),
    created_at: Timestamp,
    parent_id: Nullable(Type.Integer()),
    avatar_url: Nullable(Type.String()),
    /** From 18.0: the day the group was marked for deletion, or null. */
    marked_for_deletion_on: Type.Optional(Nullable(Type.String({ description: 'YYYY-MM-DD' }))),
  },
  { title: 'Group' },
)
export type Group = Static<typeof Group>

/** GitLab's `ProjectIdentity` entity: the fields every project-shaped record starts with, in order. */
export const projectIdentityFields = {
  id: Type.Integer(),
  description: Nullable(Type.String()),
  name: Type.String(),
  name_with_namespace: Type.String(),
  path: Type.String(),
  path_with_namespace: Type.String(),
  created_at: Timestamp,
}
/** `ProjectIdentity` on its own, as a to-do embeds it (`lib/api/entities/project_identity.rb`). */
export const ProjectIdentity = Type.Object(projectIdentityFields, { title: 'ProjectIdentity' })
export type ProjectIdentity = Static<typeof ProjectIdentity>

/** GitLab's `BasicProjectDetails` entity (lib/api/entities/basic_project_details.rb), fields in order. */
const basicProjectDetailsFields = {
  ...projectIdentityFields,
  default_branch: Nullable(Type.String()),
  tag_list: Type.Array(Type.String()),
  topics: Type.Array(Type.String()),
  ssh_url_to_repo: Type.String(),
  http_url_to_repo: Type.String(),
  web_url: Type.String(),
  readme_url: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
  forks_count: Type.Integer(),
  star_count: Type.Integer(),
  last_activity_at: Timestamp,
  namespace: NamespaceBasic,
}
/** `GET /projects?simple=true`: `BasicProjectDetails` alone. */
export const BasicProjectDetails = Type.Object(basicProjectDetailsFields, { title: 'BasicProjectDetails' })
export type BasicProjectDetails = Static<typeof BasicProjectDetails>

/**
 * `ProjectDetails` (lib/api/entities/project_details.rb): what `GET /projects/:id` shows anonymous
 * callers, `BasicProjectDetails` and the project it was forked from when that one is public.
 */
export const ProjectDetails = Type.Object(
  { ...basicProjectDetailsFields, forked_from_project: Type.Optional(BasicProjectDetails) },
  { title: 'ProjectDetails' },
)
export type ProjectDetails = Static<typeof ProjectDetails>

/** `GET /projects/:id` (the fields of GitLab's `Project` entity that clients read first). */
export const Project = Type.Object(
  {
    ...basicProjectDetailsFields,
    _links: Type.Object({
      self: Type.String(),
      issues: Type.String(),
      merge_requests: Type.String(),
      repo_branches: Type.String(),
      labels: Type.String(),
      events: Type.String(),
      members: Type.String(),
      cluster_agents: Type.String(),
    }),
    archived: Type.Boolean(),
    visibility: Visibility,
    issues_enabled: Type.Boolean(),
    merge_requests_enabled: Type.Boolean(),
    wiki_enabled: Type.Boolean(),
    jobs_enabled: Type.Boolean(),
    snippets_enabled: Type.Boolean(),
    /** `ProjectFeature` levels: `disabled`, `private`, `enabled` (or `public`). */
    issues_access_level: Type.String(),
    repository_access_level: Type.String(),
    merge_requests_access_level: Type.String(),
    wiki_access_level: Type.String(),
    builds_access_level: Type.String(),
    snippets_access_level: Type.String(),
    open_issues_count: Type.Integer(),
    creator_id: Type.Integer(),
    /** Forks only: merge requests created in the fork target the fork itself rather than its source. */
    mr_default_target_self: Type.Optional(Type.Boolean()),
    /** The project this one was forked from, when the caller can read it. */
    forked_from_project: Type.Optional(BasicProjectDetails),
    import_status: Type.String(),
    /**
     * "Project-based pipeline visibility" (`expose :public_builds, as: :public_jobs`): false leaves the
     * project's pipelines, jobs, traces and artifacts to Reporters and up.
     */
    public_jobs: Type.Boolean(),
    /**
     * Whether each ref's latest successful pipeline keeps its artifacts past their `expire_in`
     * (`keep_latest_artifacts_available?`); shown to those who may administer the project.
     */
    keep_latest_artifact: Type.Optional(Type.Boolean()),
    /** The groups the project is shared with (`POST /projects/:id/share`). */
    shared_with_groups: Type.Array(
      Type.Object({
        group_id: Type.Integer(),
        group_name: Type.String(),
        group_full_path: Type.String(),
        group_access_level: Type.Integer(),
        expires_at: Nullable(Type.String()),
      }),
    ),
    /** When a delayed deletion was asked for (a timestamp, and its day); null otherwise. */
    marked_for_deletion_at: Nullable(Type.String()),
    marked_for_deletion_on: Nullable(Type.String()),
    permissions: Type.Optional(
      Type.Object({
        project_access: Nullable(
          Type.Object({ access_level: Type.Integer(), notification_level: Type.Integer() }),
        ),
        group_access: Nullable(
          Type.Object({ access_level: Type.Integer(), notification_level: Type.Integer() }),
        ),
      }),
    ),
  },
  { title: 'Project' },
)
export type Project = Static<typeof Project>

/** A page of `GET /projects` or `GET /users/:user_id/projects`: full projects, or basic ones with `simple=true`. */
export const ProjectList = Type.Array(Type.Union([Project, BasicProjectDetails]))

/** `GET /namespaces/:namespace/exists` (`Entities::NamespaceExistence`). */
export const NamespaceExistence = Type.Object(
  { exists: Type.Boolean(), suggests: Type.Array(Type.String()) },
  { title: 'NamespaceExistence' },
)
export type NamespaceExistence = Static<typeof NamespaceExistence>

/** `GET /namespaces/:namespace/exists`: under which parent (top level without it). */
export const NamespaceExistsQuery = Type.Object({ parent_id: Type.Optional(Type.Integer()) })
export type NamespaceExistsQuery = Static<typeof NamespaceExistsQuery>
