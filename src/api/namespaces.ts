/* Namespaces (`lib/api/namespaces.rb`). Shapes come from src/schema. */
import type { ResourceRef } from '../schema/common.js'
import { NamespaceBasic, NamespaceExistence } from '../schema/namespace.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'

/** The namespaces group of the client. A namespace the caller is no member of is 404 `404 Namespace Not Found`. */
export const namespaces = (http: Http) => ({
  /** `GET /namespaces/:id`: by id or full path. */
  get: (namespace: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/namespaces/${namespace}`, { ...options, response: NamespaceBasic }),
  /** `GET /namespaces/:namespace/exists`: whether the path is taken under `parentId` (top level without it). */
  exists: (namespacePath: string, parentId?: number, options: CallOptions = {}) =>
    http.request('GET', path`/namespaces/${namespacePath}/exists`, {
      ...options,
      query: { ...options.query, parent_id: parentId },
      response: NamespaceExistence,
    }),
})
/** The type of `client.namespaces`. */
export type NamespacesApi = ReturnType<typeof namespaces>
