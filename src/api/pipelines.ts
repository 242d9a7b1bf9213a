import type {
  Job,
  JobListQuery,
  Pipeline,
  PipelineListItem,
  PipelineListQuery,
  PipelineStatus,
  PipelineVariable,
  PipelineWithMetadata,
} from '../schema/pipeline.js'
import type { ResourceRef } from '../schema/common.js'
import { GitLabApiError, GitLabTimeoutError } from './errors.js'
import type { CallOptions, Http, Query } from './http.js'
import { path } from './path.js'
import { defaultSleep, errorCode } from './retry.js'

/** Statuses a pipeline never leaves on its own (`Ci::HasStatus::COMPLETED_STATUSES` without `manual`). */
export const FINAL_STATUSES: ReadonlySet<PipelineStatus> = new Set([
  'success',
  'failed',
  'canceled',
  'skipped',
])

export interface TriggerParams {
  ref: string
  /** A trigger token (`glptt-...`) or a CI/CD job token. Sent in the form body, never in the URL. */
  token: string
  variables?: Record<string, string>
}

/** What waitForPipeline does when the pipeline stops at `manual` (a job waits for a person). */
export type OnManual = 'return' | 'wait'

export interface WaitOptions {
  /** Give up after this long (ms); the result then says `timedOut`. Default: wait for ever. */
  timeoutMs?: number
  /** First gap between reads (default 5 s); grows by half while nothing changes, up to `maxIntervalMs`. */
  intervalMs?: number
  /** Largest gap (default 4x `intervalMs`, at most 60 s unless intervalMs is larger). */
  maxIntervalMs?: number
  /** Aborting stops the wait; the call rejects with the signal's reason. */
  signal?: AbortSignal
  /** Called on the first read and whenever the status changes. */
  onChange?: (pipeline: PipelineWithMetadata, elapsedMs: number) => void
  /** Called after every read (progress lines, heartbeats). */
  onPoll?: (pipeline: PipelineWithMetadata, elapsedMs: number) => void
  /** Called when a read failed in a way a later read may not (429/5xx after retries, timeouts, resets). */
  onTransientError?: (error: Error, elapsedMs: number) => void
  /** `return` (default) or `wait` when the pipeline is `manual`. */
  onManual?: OnManual
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  now?: () => number
}

export interface WaitResult {
  pipeline: PipelineWithMetadata
  /** Why the wait ended: a final status, a `manual` pipeline, or the timeout. */
  ended: 'final' | 'manual' | 'timeout'
  elapsedMs: number
}

/** A read error that a later read may not meet: worth polling on. Others (401, 404) stop the wait. */
export function isTransient(err: unknown): err is Error {
  if (err instanceof GitLabApiError) return err.status === 429 || err.status >= 500
  return err instanceof GitLabTimeoutError || errorCode(err) !== undefined
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
    http.request<PipelineWithMetadata>('GET', path`/projects/${project}/pipelines/${id}`, options)

  /**
   * Polls `GET /projects/:id/pipelines/:pipeline_id` until the pipeline reaches a final status
   * (success, failed, canceled, skipped), stops at `manual` (unless `onManual: 'wait'`), or
   * `timeoutMs` passes. Each read goes through the client's retry layer (429 with Retry-After,
   * 502-504); a read that still fails that way is reported to `onTransientError` and the wait goes
   * on. Other errors (401, 403, 404) are thrown. The gap between reads starts at `intervalMs`,
   * grows by half while the status stays the same, and returns to `intervalMs` on a change.
   */
  async function waitForPipeline(
    project: ResourceRef,
    id: number,
    options: WaitOptions = {},
  ): Promise<WaitResult> {
    const now = options.now ?? Date.now
    const sleep = options.sleep ?? defaultSleep
    const base = Math.max(1, options.intervalMs ?? 5000)
    const cap = options.maxIntervalMs ?? Math.max(base, Math.min(base * 4, 60_000))
    const start = now()
    const deadline = options.timeoutMs === undefined ? Infinity : start + options.timeoutMs
    let gap = base
    let last: PipelineWithMetadata | undefined
    for (;;) {
      options.signal?.throwIfAborted()
      try {
        const current = await get(project, id, { signal: options.signal })
        const elapsed = now() - start
        if (last?.status !== current.status) {
          gap = base
          options.onChange?.(current, elapsed)
        } else gap = Math.min(cap, Math.round(gap * 1.5))
        last = current
        options.onPoll?.(current, elapsed)
        if (FINAL_STATUSES.has(current.status))
          return { pipeline: current, ended: 'final', elapsedMs: elapsed }
        if (current.status === 'manual' && options.onManual !== 'wait')
          return { pipeline: current, ended: 'manual', elapsedMs: elapsed }
      } catch (err) {
        if (options.signal?.aborted || !isTransient(err)) throw err
        options.onTransientError?.(err, now() - start)
      }
      const left = deadline - now()
      if (left <= 0) {
        const pipeline = last ?? (await get(project, id, { signal: options.signal }))
        return { pipeline, ended: 'timeout', elapsedMs: now() - start }
      }
      await sleep(Math.min(gap, left), options.signal)
    }
  }

  return {
    /**
     * `POST /projects/:id/trigger/pipeline` with a trigger token or a CI/CD job token, sent as a
     * form field (never in the query string, where access logs keep it). Retried only on 429.
     * Use a client without a token of its own: the trigger token is the credential.
     */
    trigger: (project: ResourceRef, params: TriggerParams, options: CallOptions = {}) =>
      http.request<Pipeline>('POST', path`/projects/${project}/trigger/pipeline`, {
        ...options,
        body: { data: form(params), contentType: 'application/x-www-form-urlencoded' },
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
      http.request<PipelineVariable[]>('GET', path`/projects/${project}/pipelines/${id}/variables`, options),
    /** `POST .../cancel` (Developer): cancels every unfinished job; answers with the pipeline. */
    cancel: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<Pipeline>('POST', path`/projects/${project}/pipelines/${id}/cancel`, options),
    /** `POST .../retry` (Developer): reruns failed and canceled jobs. */
    retry: (project: ResourceRef, id: number, options: CallOptions = {}) =>
      http.request<Pipeline>('POST', path`/projects/${project}/pipelines/${id}/retry`, options),
    waitForPipeline,
  }
}
export type PipelinesApi = ReturnType<typeof pipelines>
