import type { Group, Project, ResourceRef } from '../schema/index.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'

/** `GET /projects/:id` (by id or full path). */
export const projects = (http: Http) => ({
  get: (project: ResourceRef, options: CallOptions = {}) =>
    http.request<Project>('GET', path`/projects/${project}`, options),
})

/** `GET /groups/:id` (by id or full path). */
export const groups = (http: Http) => ({
  get: (group: ResourceRef, options: CallOptions = {}) =>
    http.request<Group>('GET', path`/groups/${group}`, options),
})
