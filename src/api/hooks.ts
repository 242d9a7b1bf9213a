import {
  GroupHook,
  ProjectHook,
  WebHookLog,
  type HookCreate,
  type HookUpdate,
  HOOK_TEST_TRIGGERS,
} from '../schema/hook.js'
import type { TSchema } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import type { CallOptions, Http } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/** What `POST .../hooks/:hook_id/test/:trigger` can send a sample of. */
export type HookTestTrigger = (typeof HOOK_TEST_TRIGGERS)[number]

/**
 * Webhooks of projects (`lib/api/project_hooks.rb`, Maintainer) or, on EE, groups
 * (`ee/lib/api/group_hooks.rb`, Owner): list, get, add, edit, remove, test and the delivery log.
 * The token is sent, never read back. `kind` picks the owner: `projects` or `groups`.
 */
export function hooks<K extends 'projects' | 'groups'>(http: Http, kind: K) {
  type Hook = K extends 'projects' ? ProjectHook : GroupHook
  // The schema of this kind's hooks, typed as what it checks.
  const item = (kind === 'projects' ? ProjectHook : GroupHook) as unknown as TSchema & { static: Hook }
  const base = (owner: ResourceRef) => `/${kind}${path`/${owner}`}/hooks`
  return {
    /** `GET .../hooks`, lazily. */
    list: (owner: ResourceRef, options: PageOptions = {}) =>
      http.paginate<Hook>(base(owner), { ...options, item }),
    /** `GET .../hooks/:hook_id`. */
    get: (owner: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('GET', `${base(owner)}/${id}`, { ...options, response: item }),
    /** `POST .../hooks`: 422 `Invalid url given` for a URL GitLab refuses. */
    add: (owner: ResourceRef, params: HookCreate, options: CallOptions = {}) =>
      http.request('POST', base(owner), { ...options, json: params, response: item }),
    /** `PUT .../hooks/:hook_id`: a new `url` without a new `token` drops the token. */
    edit: (owner: ResourceRef, id: number, params: HookUpdate, options: CallOptions = {}) =>
      http.request('PUT', `${base(owner)}/${id}`, { ...options, json: params, response: item }),
    /** `DELETE .../hooks/:hook_id`; 204. */
    remove: (owner: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', `${base(owner)}/${id}`, options),
    /** `POST .../hooks/:hook_id/test/:trigger`: 201 when the receiver answered 2xx, else a 422 error. */
    test: (owner: ResourceRef, id: number, trigger: HookTestTrigger, options: CallOptions = {}) =>
      http.request<{ message: string }>('POST', `${base(owner)}/${id}/test/${trigger}`, options),
    /** `GET .../hooks/:hook_id/events`: the deliveries, newest first, 20 a page at most. */
    events: (owner: ResourceRef, id: number, options: PageOptions = {}) =>
      http.paginate<WebHookLog>(`${base(owner)}/${id}/events`, { perPage: 20, ...options, item: WebHookLog }),
  }
}
/** The type of `client.projectHooks`. */
export type ProjectHooksApi = ReturnType<typeof hooks<'projects'>>
/** The type of `client.groupHooks`. */
export type GroupHooksApi = ReturnType<typeof hooks<'groups'>>
