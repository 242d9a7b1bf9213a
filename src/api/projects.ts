import type { ResourceRef } from '../schema/common.js'
import { Project } from '../schema/namespace.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'

/** The projects group of the client. */
export const projects = (http: Http) => ({
  /** `GET /projects/:id`, by numeric id or full path. 404 `404 Project Not Found` when not visible. */
  get: (project: ResourceRef, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}`, { ...options, response: Project }),
})
/** The type of `client.projects`. */
export type ProjectsApi = ReturnType<typeof projects>
