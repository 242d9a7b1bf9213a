import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import type { ProjectListQuery } from '../schema/list-queries.js'
import type { ProjectFork } from '../schema/project-fork.js'
import { BasicProjectDetails, Project } from '../schema/namespace.js'
import {
  ProjectGroupLink,
  type ProjectCreate,
  type ProjectCreateForUser,
  type ProjectDeleteQuery,
  type ProjectShare,
  type ProjectUpdate,
  type UserProjectsQuery,
} from '../schema/project-write.js'
import { ciVariables } from './ci-variables.js'
import type { CallOptions, Http, NotModified } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Options of `listForUser`: a paginated read and GitLab's filters and order. */
export interface UserProjectListOptions
  extends Omit<PageOptions, 'item'>, Omit<UserProjectsQuery, 'page' | 'per_page'> {}

/** Options of `forks`: a paginated read and `GET /projects`' filters and order. */
export interface ForkListOptions
  extends
    Omit<PageOptions, 'item'>,
    Pick<
      ProjectListQuery,
      'order_by' | 'sort' | 'archived' | 'visibility' | 'search' | 'owned' | 'membership' | 'simple'
    > {}

const AcceptedMessage = Type.Object({ message: Type.String() })

/**
 * The projects group of the client (`lib/api/projects.rb`). A project is named by numeric id or full
 * path (encoded here). Refusals are GitLab's: 404 `404 Project Not Found` for a project the caller
 * cannot see, 403 `403 Forbidden` below the role a write needs, 400 with the model's errors
 * (`{"message":{"path":["has already been taken"]}}`).
 */
export const projects = (http: Http) => ({
  /** `GET /projects/:id`, by numeric id or full path. 404 `404 Project Not Found` when not visible. */
  get: (project: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}`, { ...options, response: Project }),
  /** `POST /projects` -> 201: `name` or `path`, in the caller's namespace or `namespace_id` (retried only on 429). */
  create: (body: ProjectCreate, options: CallOptions = {}) =>
    http.request('POST', '/projects', { ...options, json: body, response: Project }),
  /** `POST /projects/user/:user_id` -> 201 (administrators): a project in that user's namespace. */
  createForUser: (userId: number, body: ProjectCreateForUser, options: CallOptions = {}) =>
    http.request('POST', path`/projects/user/${userId}`, { ...options, json: body, response: Project }),
  /** `PUT /projects/:id`: Maintainer+ (`visibility` needs Owner). */
  edit: (project: ResourceRef, body: ProjectUpdate, options: CallOptions = {}) =>
    http.request('PUT', path`/projects/${project}`, { ...options, json: body, response: Project }),
  /**
   * `DELETE /projects/:id` -> 202 `{"message":"202 Accepted"}` (Owner). Where the release delays
   * deletion the project is only marked; `{ permanently_remove: true, full_path }` then removes it.
   */
  remove: (project: ResourceRef, query: ProjectDeleteQuery = {}, options: CallOptions = {}) =>
    http.request('DELETE', path`/projects/${project}`, {
      ...options,
      query: { ...options.query, ...query },
      response: AcceptedMessage,
    }),
  /** `POST /projects/:id/archive` -> 201 with the project (Owner). */
  archive: (project: ResourceRef, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/archive`, { ...options, response: Project }),
  /** `POST /projects/:id/unarchive` -> 201 with the project (Owner). */
  unarchive: (project: ResourceRef, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/unarchive`, { ...options, response: Project }),
  /** `PUT /projects/:id/transfer`: to a namespace by id or full path (Owner of the project). */
  transfer: (project: ResourceRef, namespace: number | string, options: CallOptions = {}) =>
    http.request('PUT', path`/projects/${project}/transfer`, {
      ...options,
      json: { namespace: String(namespace) },
      response: Project,
    }),
  /** `POST /projects/:id/share` -> 201 `ProjectGroupLink` (Maintainer+); 409 when shared already. */
  share: (project: ResourceRef, body: ProjectShare, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/share`, {
      ...options,
      json: body,
      response: ProjectGroupLink,
    }),
  /** `DELETE /projects/:id/share/:group_id` -> 204; 404 `404 Group Link Not Found`. */
  unshare: (project: ResourceRef, groupId: number, options: CallOptions = {}) =>
    http.request<void>('DELETE', path`/projects/${project}/share/${groupId}`, options),
  /**
   * `POST /projects/:id/fork` -> 201: into the caller's namespace or `namespace_id`/`namespace_path`,
   * `branches` one branch only. 404 `404 Target Namespace Not Found` where the caller may not create
   * projects; 409 with the model's full messages (`Path has already been taken`). The answer's
   * `import_status` is `scheduled`; GitLab copies the repository in the background (the reference
   * server at once), so wait for `finished` before reading it.
   */
  fork: (project: ResourceRef, body: ProjectFork = {}, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/fork`, { ...options, json: body, response: Project }),
  /** `GET /projects/:id/forks`, lazily: the project's forks the caller can see. */
  forks: (
    project: ResourceRef,
    {
      order_by,
      sort,
      archived,
      visibility,
      search,
      owned,
      membership,
      simple,
      ...options
    }: ForkListOptions = {},
  ) =>
    http.paginate<Project | BasicProjectDetails>(path`/projects/${project}/forks`, {
      ...options,
      query: { ...options.query, order_by, sort, archived, visibility, search, owned, membership, simple },
      item: Type.Union([Project, BasicProjectDetails]),
    }),
  /** `DELETE /projects/:id/fork` -> 204 (Owner): the fork relation removed; NOT_MODIFIED when not a fork (304). */
  unlinkFork: (project: ResourceRef, options: CallOptions = {}) =>
    http.request<undefined | NotModified>('DELETE', path`/projects/${project}/fork`, options),
  /** `POST /projects/:id/fork/:forked_from_id` -> 201 (Owner): marks the project a fork; 409 when it is one. */
  linkFork: (project: ResourceRef, forkedFromId: number, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/fork/${forkedFromId}`, { ...options, response: Project }),
  /** `GET /users/:user_id/projects`, lazily: the user's personal projects the caller can see. */
  listForUser: (
    user: number | string,
    { order_by, sort, archived, visibility, search, simple, ...options }: UserProjectListOptions = {},
  ) =>
    http.paginate<Project | BasicProjectDetails>(path`/users/${user}/projects`, {
      ...options,
      query: { ...options.query, order_by, sort, archived, visibility, search, simple },
      item: Type.Union([Project, BasicProjectDetails]),
    }),
  /** A project's CI/CD variables (`lib/api/ci/variables.rb`, Maintainer). */
  variables: ciVariables(http),
})
/** The type of `client.projects`. */
export type ProjectsApi = ReturnType<typeof projects>
