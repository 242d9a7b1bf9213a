import type { ResourceRef } from '../schema/common.js'
import { AcceptedMessage } from '../schema/project-export.js'
import {
  Deployment,
  Environment,
  type DeploymentCreate,
  type DeploymentListQuery,
  type EnvironmentCreate,
  type EnvironmentListQuery,
  type EnvironmentUpdate,
  ReviewAppsDeletion,
  type ReviewAppsDeleteQuery,
} from '../schema/environment.js'
import type { CallOptions, Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/**
 * `lib/api/environments.rb`: a project's environments (Reporters read, Developers create, edit, stop and
 * delete stopped ones), those its jobs' `environment:` made among them.
 */
export const environments = (http: Http) => {
  const one = (project: ResourceRef, id: number) => path`/projects/${project}/environments/${id}`
  return {
    /** `GET /projects/:id/environments`, lazily, by id; `name`, `search` (3 characters) or `states`. */
    list: (
      project: ResourceRef,
      query: Omit<EnvironmentListQuery, 'page' | 'per_page'> = {},
      options: PageOptions = {},
    ) =>
      http.paginate<Environment>(path`/projects/${project}/environments`, {
        ...options,
        query: { ...options.query, ...(query as Query) },
        item: Environment,
      }),
    /** `GET .../:environment_id`: with `last_deployment`, the successful one that finished last. */
    get: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('GET', one(project, id), { ...options, response: Environment }),
    /** `POST /projects/:id/environments` (retried only on 429); `auto_stop_setting` `always` unless given. */
    create: (project: ResourceRef, params: Omit<EnvironmentCreate, 'slug'>, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/environments`, {
        ...options,
        json: params,
        response: Environment,
      }),
    /** `PUT .../:environment_id`: external URL, tier, description or `auto_stop_setting` (no renaming). */
    update: (
      project: ResourceRef,
      id: number,
      params: Omit<EnvironmentUpdate, 'slug'>,
      options: CallOptions = {},
    ) => http.request('PUT', one(project, id), { ...options, json: params, response: Environment }),
    /**
     * `POST .../:environment_id/stop`: the environment after, `stopping` while the stop job its last
     * deployment's `on_stop` names runs; `force: true` stops it at once without that job.
     */
    stop: (project: ResourceRef, id: number, options: CallOptions & { force?: boolean } = {}) => {
      const { force, ...rest } = options
      return http.request('POST', `${one(project, id)}/stop`, {
        ...rest,
        ...(force === undefined ? {} : { json: { force } }),
        response: Environment,
      })
    },
    /**
     * `POST /projects/:id/environments/stop_stale` (Maintainer): stops the available environments neither
     * changed nor deployed to since `before` (from ten years to a week ago); GitLab's message.
     */
    stopStale: (project: ResourceRef, before: string, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/environments/stop_stale`, {
        ...options,
        json: { before },
        response: AcceptedMessage,
      }),
    /**
     * `DELETE /projects/:id/environments/review_apps` (Developer): the stopped environments of the
     * `review` folder made before `before` (30 days ago unless given) and not yet scheduled, at most
     * `limit` (100); a dry run (nothing scheduled) unless `dry_run: false`, which schedules their deletion
     * a week later. GitLab answers 400 when there are none.
     */
    deleteStoppedReviewApps: (
      project: ResourceRef,
      query: ReviewAppsDeleteQuery = {},
      options: CallOptions = {},
    ) =>
      http.request('DELETE', path`/projects/${project}/environments/review_apps`, {
        ...options,
        query: { ...options.query, ...(query as Query) },
        response: ReviewAppsDeletion,
      }),
    /** `DELETE .../:environment_id`: a stopped one only (403 otherwise); 204. */
    remove: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', one(project, id), options),
  }
}

/**
 * `lib/api/deployments.rb`: a project's deployments, those of its jobs (which follow the job) and those
 * recorded through the API for deployments made elsewhere (whose status the API moves).
 */
export const deployments = (http: Http) => {
  const one = (project: ResourceRef, id: number) => path`/projects/${project}/deployments/${id}`
  return {
    /** `GET /projects/:id/deployments`, lazily; by `id` ascending unless `order_by`/`sort` say otherwise. */
    list: (
      project: ResourceRef,
      query: Omit<DeploymentListQuery, 'page' | 'per_page'> = {},
      options: PageOptions = {},
    ) =>
      http.paginate<Deployment>(path`/projects/${project}/deployments`, {
        ...options,
        query: { ...options.query, ...(query as Query) },
        item: Deployment,
      }),
    get: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('GET', one(project, id), { ...options, response: Deployment }),
    /** `POST /projects/:id/deployments`: the environment is made when missing (retried only on 429). */
    create: (project: ResourceRef, params: DeploymentCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/deployments`, {
        ...options,
        json: params,
        response: Deployment,
      }),
    /** `PUT .../:deployment_id`: the status of one made through the API (403 for a job's). */
    update: (
      project: ResourceRef,
      id: number,
      status: DeploymentCreate['status'],
      options: CallOptions = {},
    ) => http.request('PUT', one(project, id), { ...options, json: { status }, response: Deployment }),
    /** `DELETE .../:deployment_id` (a Maintainer): neither running nor its environment's last; 204. */
    remove: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', one(project, id), options),
  }
}
export type EnvironmentsApi = ReturnType<typeof environments>
export type DeploymentsApi = ReturnType<typeof deployments>
