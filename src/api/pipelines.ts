import { Type } from '@sinclair/typebox'
import {
  COMPLETED_STATUSES,
  Pipeline,
  PipelineVariable,
  PipelineWithMetadata,
  type Job,
  type JobListQuery,
  type PipelineListItem,
  type PipelineListQuery,
  type PipelineStatus,
  type PipelineCreate,
} from '../schema/pipeline.js'
import type { ResourceRef } from '../schema/common.js'
import type { CallOptions, Http, Query } from './http.js'
import { path } from './path.js'
import { poll, type PollTiming } from './poll.js'

/** Statuses a pipeline never leaves on its own (`COMPLETED_STATUSES`; `manual` waits for a person). */
export const FINAL_STATUSES: ReadonlySet<PipelineStatus> = new Set(COMPLETED_STATUSES)

export interface TriggerParams {
  ref: string
  /** A trigger token (`glptt-...`) or a CI/CD job token. Sent in the form body, never in the URL. */
  token: string
  variables?: Record<string, string>
  /**
   * Pipeline inputs (`spec: inputs`), typed: strings, numbers, booleans, arrays. With them the
   * call is sent as JSON (a form would turn every value into a string). GitLab 17.11 and later
   * (doc/api/pipeline_triggers.md); an older GitLab ignores them.
   */
  inputs?: Record<string, unknown>
}

/** What waitForPipeline does when the pipeline stops at `manual` (a job waits for a person). */
export type OnManual = 'return' | 'wait'

export interface WaitOptions extends PollTiming {
  /** Called on the first read and whenever the status changes. */
  onChange?: (pipeline: PipelineWithMetadata, elapsedMs: number) => void
  /** Called after every read (progress lines, heartbeats). */
  onPoll?: (pipeline: PipelineWithMetadata, elapsedMs: number) => void
  /** `return` (default) or `wait` when the pipeline is `manual`. */
  onManual?: OnManual
}

export interface WaitResult {
  pipeline: PipelineWithMetadata
  /** Why the wait ended: a final status, a `manual` pipeline, or the timeout. */
  ended: 'final' | 'manual' | 'timeout'
  elapsedMs: number
}

const form = (params: TriggerParams) => {
  const body = new URLSearchParams({ ref: params.ref, token: params.token })
  for (const [name, value] of Object.entries(params.variables ?? {})) body.append(`variables[${name}]`, value)
  return body.toString()
}

/**
 * `lib/api/ci/triggers.rb`, `lib/api/ci/pipelines.rb`: triggering, reading, cancelling and retrying
 * pipelines.
 */
export function pipelines(http: Http) {
  const get = (project: ResourceRef, id: number, options: CallOptions = {}) =>
    http.request('GET', path`/projects/${project}/pipelines/${id}`, {
      ...options,
      response: PipelineWithMetadata,
    })

  /**
   * Polls `GET /projects/:id/pipelines/:pipeline_id` (poll.ts) until the pipeline reaches a final
   * status (success, failed, canceled, skipped), stops at `manual` (unless `onManual: 'wait'`), or
   * `timeoutMs` passes. A read that fails transiently (502-504, a broken connection, a timeout, a
   * 429, after the client's own retries) is reported to `onTransientError` once per kind and the wait
   * goes on; other errors (401, 403, 404) are thrown. The gap between reads starts at `intervalMs`,
   * grows by half while the status stays the same, and returns to `intervalMs` on a change.
   */
  async function waitForPipeline(
    project: ResourceRef,
    id: number,
    options: WaitOptions = {},
  ): Promise<WaitResult> {
    const { onChange, onPoll, onManual, ...timing } = options
    const r = await poll({
      ...timing,
      read: (signal) => get(project, id, { signal }),
      key: (p) => p.status,
      onRead: (p, elapsed, changed) => {
        if (changed) onChange?.(p, elapsed)
        onPoll?.(p, elapsed)
      },
      done: (p) => FINAL_STATUSES.has(p.status) || (p.status === 'manual' && onManual !== 'wait'),
    })
    if (r.ended === 'timeout') {
      const pipeline = r.value ?? (await get(project, id, { signal: options.signal }))
      return { pipeline, ended: 'timeout', elapsedMs: r.elapsedMs }
    }
    const pipeline = r.value as PipelineWithMetadata
    const ended = FINAL_STATUSES.has(pipeline.status) ? 'final' : 'manual'
    return { pipeline, ended, elapsedMs: r.elapsedMs }
  }

  return {
    /**
     * `POST /projects/:id/trigger/pipeline` with a trigger token or a CI/CD job token, sent as a
     * form field (never in the query string, where access logs keep it). Retried only on 429.
     * Use a client without a token of its own: the trigger token is the credential.
     */
    trigger: (project: ResourceRef, params: TriggerParams, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/trigger/pipeline`, {
        ...options,
        ...(params.inputs
          ? { json: params }
          : { body: { data: form(params), contentType: 'application/x-www-form-urlencoded' } }),
        response: Pipeline,
      }),
    /** `GET /projects/:id/pipelines/:pipeline_id`. */
    get,
    /** `GET /projects/:id/pipelines`, lazily, newest first unless `order_by`/`sort` say otherwise. */
    list: (
      project: ResourceRef,
      query: Omit<PipelineListQuery, 'page' | 'per_page'> = {},
      options: CallOptions = {},
    ) =>
      http.paginate<PipelineListItem>(path`/projects/${project}/pipelines`, {
        ...options,
        query: query as Query,
      }),
    /** `GET /projects/:id/pipelines/:pipeline_id/jobs`, lazily (also with a job token of the project). */
    jobs: (
      project: ResourceRef,
      id: number,
      query: Omit<JobListQuery, 'page' | 'per_page'> = {},
      options: CallOptions = {},
    ) =>
      http.paginate<Job>(path`/projects/${project}/pipelines/${id}/jobs`, {
        ...options,
        query: query as Query,
      }),
    /** `GET /projects/:id/pipelines/:pipeline_id/variables` (Developer). */
    variables: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/pipelines/${id}/variables`, {
        ...options,
        response: Type.Array(PipelineVariable),
      }),
    /** `POST .../cancel` (Developer): cancels every unfinished job; answers with the pipeline. */
    cancel: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/pipelines/${id}/cancel`, {
        ...options,
        response: Pipeline,
      }),
    /** `POST .../retry` (Developer): reruns failed and canceled jobs. */
    retry: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/pipelines/${id}/retry`, {
        ...options,
        response: Pipeline,
      }),
    /**
     * `DELETE /projects/:id/pipelines/:pipeline_id` (the project's Owners, administrators); 204. The
     * pipeline goes with its jobs, their logs and artifacts; its running child pipelines are canceled.
     */
    remove: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/pipelines/${id}`, options),
    /**
     * `POST /projects/:id/pipeline` (Developer): a pipeline of `ref` from its `.gitlab-ci.yml`, source `api`;
     * `inputs` (GitLab 17.10 and later) are checked against the configuration's `spec:inputs`. Retried only on 429.
     */
    create: (project: ResourceRef, params: PipelineCreate, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/pipeline`, {
        ...options,
        json: params,
        response: Pipeline,
      }),
    waitForPipeline,
  }
}
export type PipelinesApi = ReturnType<typeof pipelines>
