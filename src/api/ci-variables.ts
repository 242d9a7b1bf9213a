import type { ResourceRef } from '../schema/common.js'
import { CiVariable, type CiVariableCreate, type CiVariableUpdate } from '../schema/ci-variable.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** Which of a key's variables a call means when several environment scopes share it. */
export interface CiVariableScope {
  environmentScope?: string
}

const scoped = (options: CallOptions, scope: string | undefined) =>
  scope === undefined
    ? options
    : { ...options, query: { ...options.query, 'filter[environment_scope]': scope } }

/**
 * `lib/api/ci/variables.rb`: a project's CI/CD variables (Maintainer). A key shared by several
 * environment scopes needs `environmentScope` (409 without it); a hidden variable's `value` is null.
 */
export const ciVariables = (http: Http) => ({
  /** `GET /projects/:id/variables`, lazily. */
  list: (project: ResourceRef, options: PageOptions = {}) =>
    http.paginate<CiVariable>(path`/projects/${project}/variables`, { ...options, item: CiVariable }),
  /** `GET /projects/:id/variables/:key`; 404 `404 Variable Not Found`. */
  get: (
    project: ResourceRef,
    key: string,
    { environmentScope }: CiVariableScope = {},
    options: CallOptions = {},
  ) =>
    http.request('GET', path`/projects/${project}/variables/${key}`, {
      ...scoped(options, environmentScope),
      response: CiVariable,
    }),
  /** `POST /projects/:id/variables` -> 201; 400 with the model's errors (retried only on 429). */
  create: (project: ResourceRef, body: CiVariableCreate, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/variables`, {
      ...options,
      json: body,
      response: CiVariable,
    }),
  /** `PUT /projects/:id/variables/:key`: the fields given change, the others stay. */
  update: (
    project: ResourceRef,
    key: string,
    body: Omit<CiVariableUpdate, 'filter'>,
    { environmentScope }: CiVariableScope = {},
    options: CallOptions = {},
  ) =>
    http.request('PUT', path`/projects/${project}/variables/${key}`, {
      ...options,
      json:
        environmentScope === undefined ? body : { ...body, filter: { environment_scope: environmentScope } },
      response: CiVariable,
    }),
  /** `DELETE /projects/:id/variables/:key` -> 204. */
  remove: (
    project: ResourceRef,
    key: string,
    { environmentScope }: CiVariableScope = {},
    options: CallOptions = {},
  ) =>
    http.request<void>(
      'DELETE',
      path`/projects/${project}/variables/${key}`,
      scoped(options, environmentScope),
    ),
})
/** The type of `client.projects.variables`. */
export type CiVariablesApi = ReturnType<typeof ciVariables>
