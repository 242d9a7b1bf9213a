import type { ResourceRef } from '../schema/common.js'
import { Trigger } from '../schema/trigger.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/**
 * `lib/api/ci/triggers.rb`: a project's pipeline trigger tokens (Maintainer). `token` is whole
 * for its owner, four characters for everyone else.
 */
export const triggers = (http: Http) => ({
  /** `GET /projects/:id/triggers`, lazily. */
  list: (project: ResourceRef, options: PageOptions = {}) =>
    http.paginate<Trigger>(path`/projects/${project}/triggers`, { ...options, item: Trigger }),
  /** `GET /projects/:id/triggers/:trigger_id`. */
  get: (project: ResourceRef, id: number, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/triggers/${id}`, {
      ...options,
      response: Trigger,
    }),
  /** `POST /projects/:id/triggers`: a new token owned by the caller (retried only on 429). */
  create: (project: ResourceRef, description: string, options: CallOptions = {}) =>
    http.request('POST', path`/projects/${project}/triggers`, {
      ...options,
      json: { description },
      response: Trigger,
    }),
  /** `PUT /projects/:id/triggers/:trigger_id`: a new description (its owner only). */
  update: (project: ResourceRef, id: number, description: string, options: CallOptions = {}) =>
    http.request('PUT', path`/projects/${project}/triggers/${id}`, {
      ...options,
      json: { description },
      response: Trigger,
    }),
  /** `DELETE /projects/:id/triggers/:trigger_id` (any Maintainer); 204. */
  remove: (project: ResourceRef, id: number, options: CallOptions = {}) =>
    http.request<void>('DELETE', path`/projects/${project}/triggers/${id}`, options),
})
/** The type of `client.triggers`. */
export type TriggersApi = ReturnType<typeof triggers>
