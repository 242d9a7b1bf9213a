/*
 * Project aliases (`ee/lib/api/project_aliases.rb`): GitLab EE, administrators only. Non-administrators
 * get 403 `403 Forbidden`, anonymous callers 401; on CE the routes do not exist (404).
 */
import { ProjectAlias, type ProjectAliasCreate } from '../schema/alias.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** The aliases group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export const aliases = (http: Http) => ({
  /** `GET /project_aliases`, lazily, 100 per page. */
  list: (options: Omit<PageOptions, 'item'> = {}) =>
    http.paginate<ProjectAlias>('/project_aliases', { ...options, item: ProjectAlias }),
  /** `GET /project_aliases/:name`; 404 `404 Not found` when there is none. */
  get: (name: string, options: CallOptions = {}) =>
    http.request('GET', path`/project_aliases/${name}`, { ...options, response: ProjectAlias }),
  /**
   * `POST /project_aliases` -> 201; `project_id` is an id or a full path. 400 `{"message":{"name":
   * ["has already been taken"]}}` and GitLab's format text; 404 `404 Project Not Found`.
   */
  create: (body: ProjectAliasCreate, options: CallOptions = {}) =>
    http.request('POST', '/project_aliases', {
      ...options,
      json: body,
      response: ProjectAlias,
    }),
  /** `DELETE /project_aliases/:name` -> 204; 404 `404 Not found` when there is none. */
  remove: (name: string, options: CallOptions = {}): Promise<void> =>
    http.request<void>('DELETE', path`/project_aliases/${name}`, options),
})
/** The type of `client.aliases`. */
export type AliasesApi = ReturnType<typeof aliases>
