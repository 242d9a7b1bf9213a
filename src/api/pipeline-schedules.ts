import type { ResourceRef } from '../schema/common.js'
import type { PipelineListItem } from '../schema/pipeline.js'
import {
  PipelineSchedule,
  PipelineScheduleDetails,
  PipelineSchedulePlayed,
  PipelineScheduleVariable,
  type PipelineScheduleCreate,
  type PipelineSchedulePipelinesQuery,
  type PipelineScheduleUpdate,
  type PipelineScheduleVariableCreate,
  type PipelineScheduleVariableUpdate,
} from '../schema/pipeline-schedule.js'
import type { CallOptions, Http, Query } from './http.js'
import type { PageOptions } from './paginate.js'
import { path } from './path.js'

/**
 * `lib/api/ci/pipeline_schedules.rb`: a project's pipeline schedules (Reporters read, Developers create,
 * the owner edits, Maintainers take over and delete), their pipelines, play and variables.
 */
export const pipelineSchedules = (http: Http) => {
  const one = (project: ResourceRef, id: number) => path`/projects/${project}/pipeline_schedules/${id}`
  const variable = (project: ResourceRef, id: number, key: string) =>
    path`/projects/${project}/pipeline_schedules/${id}/variables/${key}`
  return {
    /** `GET /projects/:id/pipeline_schedules`, lazily; `scope` `active` or `inactive`. */
    list: (project: ResourceRef, options: PageOptions & { scope?: 'active' | 'inactive' } = {}) => {
      const { scope, ...rest } = options
      return http.paginate<PipelineSchedule>(path`/projects/${project}/pipeline_schedules`, {
        ...rest,
        ...(scope ? { query: { ...rest.query, scope } } : {}),
        item: PipelineSchedule,
      })
    },
    /**
     * `GET .../:pipeline_schedule_id`: with `last_pipeline` and `variables`, and its CI `inputs` for a
     * Maintainer or its owner (GitLab 17.11 and later).
     */
    get: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('GET', one(project, id), { ...options, response: PipelineScheduleDetails }),
    /** `GET .../:pipeline_schedule_id/pipelines`, lazily, oldest first unless `sort: 'desc'`. */
    pipelines: (
      project: ResourceRef,
      id: number,
      query: Omit<PipelineSchedulePipelinesQuery, 'page' | 'per_page'> = {},
      options: CallOptions = {},
    ) =>
      http.paginate<PipelineListItem>(`${one(project, id)}/pipelines`, { ...options, query: query as Query }),
    /**
     * `POST /projects/:id/pipeline_schedules`: owned by the caller (retried only on 429). GitLab answers
     * without `variables` and `inputs`; `get` shows them.
     */
    create: (project: ResourceRef, params: PipelineScheduleCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/pipeline_schedules`, {
        ...options,
        json: params,
        response: PipelineScheduleDetails,
      }),
    /**
     * `PUT .../:pipeline_schedule_id` (its owner only); `next_run_at` is set again. `inputs` adds or
     * changes inputs by name, `{ name, destroy: true }` removes one; those not named stay. As `create`,
     * the answer has no `variables` nor `inputs`.
     */
    update: (project: ResourceRef, id: number, params: PipelineScheduleUpdate, options: CallOptions = {}) =>
      http.request('PUT', one(project, id), { ...options, json: params, response: PipelineScheduleDetails }),
    /** `POST .../take_ownership` (a Maintainer): the caller owns it after. */
    takeOwnership: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('POST', `${one(project, id)}/take_ownership`, {
        ...options,
        response: PipelineScheduleDetails,
      }),
    /** `DELETE .../:pipeline_schedule_id` (a Maintainer or its owner); 204. */
    remove: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', one(project, id), options),
    /** `POST .../play`: a pipeline now, as the caller; `{message: '201 Created'}`. */
    play: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('POST', `${one(project, id)}/play`, { ...options, response: PipelineSchedulePlayed }),
    /** `POST .../variables` (its owner). */
    createVariable: (
      project: ResourceRef,
      id: number,
      params: PipelineScheduleVariableCreate,
      options: CallOptions = {},
    ) =>
      http.request('POST', `${one(project, id)}/variables`, {
        ...options,
        json: params,
        response: PipelineScheduleVariable,
      }),
    /** `PUT .../variables/:key` (its owner). */
    updateVariable: (
      project: ResourceRef,
      id: number,
      key: string,
      params: PipelineScheduleVariableUpdate,
      options: CallOptions = {},
    ) =>
      http.request('PUT', variable(project, id, key), {
        ...options,
        json: params,
        response: PipelineScheduleVariable,
      }),
    /** `DELETE .../variables/:key` (a Maintainer or its owner): 202 with the variable deleted. */
    removeVariable: (project: ResourceRef, id: number, key: string, options: CallOptions = {}) =>
      http.request('DELETE', variable(project, id, key), { ...options, response: PipelineScheduleVariable }),
  }
}
/** The type of `client.pipelineSchedules`. */
export type PipelineSchedulesApi = ReturnType<typeof pipelineSchedules>
