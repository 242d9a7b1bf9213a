import type { ResourceRef } from '../schema/common.js'
import {
  CiInstanceVariable,
  CiVariable,
  type CiInstanceVariableCreate,
  type CiInstanceVariableUpdate,
  type CiVariableCreate,
  type CiVariableUpdate,
} from '../schema/ci-variable.js'
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
 * `lib/api/ci/variables.rb` and `lib/api/ci/group_variables.rb`: the CI/CD variables of a project
 * (Maintainer) or, with `kind` `groups`, of a group (Owner). A key shared by several environment
 * scopes needs `environmentScope` (409 without it); a hidden variable's `value` is null.
 */
export const ciVariables = (http: Http, kind: 'projects' | 'groups' = 'projects') => {
  const base = (owner: ResourceRef) => `/${kind}${path`/${owner}`}/variables`
  return {
    /** `GET /:kind/:id/variables`, lazily. */
    list: (owner: ResourceRef, options: PageOptions = {}) =>
      http.paginate<CiVariable>(base(owner), { ...options, item: CiVariable }),
    /** `GET /:kind/:id/variables/:key`; 404 `404 Variable Not Found`. */
    get: (
      owner: ResourceRef,
      key: string,
      { environmentScope }: CiVariableScope = {},
      options: CallOptions = {},
    ) =>
      http.request('GET', `${base(owner)}${path`/${key}`}`, {
        ...scoped(options, environmentScope),
        response: CiVariable,
      }),
    /** `POST /:kind/:id/variables` -> 201; 400 with the model's errors (retried only on 429). */
    create: (owner: ResourceRef, body: CiVariableCreate, options: CallOptions = {}) =>
      http.request('POST', base(owner), {
        ...options,
        json: body,
        response: CiVariable,
      }),
    /** `PUT /:kind/:id/variables/:key`: the fields given change, the others stay. */
    update: (
      owner: ResourceRef,
      key: string,
      body: Omit<CiVariableUpdate, 'filter'>,
      { environmentScope }: CiVariableScope = {},
      options: CallOptions = {},
    ) =>
      http.request('PUT', `${base(owner)}${path`/${key}`}`, {
        ...options,
        json:
          environmentScope === undefined
            ? body
            : { ...body, filter: { environment_scope: environmentScope } },
        response: CiVariable,
      }),
    /** `DELETE /:kind/:id/variables/:key` -> 204. */
    remove: (
      owner: ResourceRef,
      key: string,
      { environmentScope }: CiVariableScope = {},
      options: CallOptions = {},
    ) => http.request<void>('DELETE', `${base(owner)}${path`/${key}`}`, scoped(options, environmentScope)),
  }
}
/** The type of `client.projects.variables` and `client.groups.variables`. */
export type CiVariablesApi = ReturnType<typeof ciVariables>

/**
 * `lib/api/admin/ci/variables.rb`: the instance's CI/CD variables, administrators only (401 without a
 * token, 403 for others). One variable per key; GitLab's record has no `hidden` nor `environment_scope`.
 */
export const instanceVariables = (http: Http) => {
  const base = '/admin/ci/variables'
  const one = (key: string) => `${base}${path`/${key}`}`
  return {
    /** `GET /admin/ci/variables`, lazily. */
    list: (options: PageOptions = {}) =>
      http.paginate<CiInstanceVariable>(base, { ...options, item: CiInstanceVariable }),
    /** `GET /admin/ci/variables/:key`; 404 `404 InstanceVariable Not Found`. */
    get: (key: string, options: CallOptions = {}) =>
      http.request('GET', one(key), { ...options, response: CiInstanceVariable }),
    /** `POST /admin/ci/variables` -> 201; 400 with the model's errors (25 variables at most by default). */
    create: (body: CiInstanceVariableCreate, options: CallOptions = {}) =>
      http.request('POST', base, { ...options, json: body, response: CiInstanceVariable }),
    /** `PUT /admin/ci/variables/:key`: the fields given change, the others stay. */
    update: (key: string, body: CiInstanceVariableUpdate, options: CallOptions = {}) =>
      http.request('PUT', one(key), { ...options, json: body, response: CiInstanceVariable }),
    /** `DELETE /admin/ci/variables/:key` -> 204. */
    remove: (key: string, options: CallOptions = {}) => http.request<void>('DELETE', one(key), options),
  }
}
/** The type of `client.instanceVariables`. */
export type InstanceVariablesApi = ReturnType<typeof instanceVariables>
