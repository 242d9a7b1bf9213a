import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import { EmulatorClockState, EmulatorSettled, type EmulatorClockMove } from '../schema/emulator-clock.js'
import {
  EmulatorFault,
  EmulatorRequest,
  type EmulatorFaultInput,
  type EmulatorRequestFilter,
} from '../schema/emulator-instruments.js'
import { EmulatorSnapshot, EmulatorSnapshots } from '../schema/emulator-snapshots.js'
import { EmulatorPipelineView, Pipeline, type PipelineStatus } from '../schema/pipeline.js'
import type { Seed } from '../schema/seed.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'

const CLOCK = '/-/emulator/clock'
const REQUESTS = '/-/emulator/requests'
const FAULTS = '/-/emulator/faults'
/** The server's own default and cap of a settle's `timeout` (docs/server.md, "Clock and settle"). */
const SETTLE_DEFAULT_S = 10
/** What a settle's answer may take beyond its `timeout`: the pipeline moves and deliveries it runs. */
const SETTLE_SLACK_MS = 30_000

/** A client's per-attempt timeout, made long enough for `ms` (0 or none: no timeout, as it was). */
const stretched = (timeoutMs: number | undefined, ms: number) =>
  timeoutMs ? Math.max(timeoutMs, ms) : timeoutMs
const instant = (at: Date | string) => (typeof at === 'string' ? at : at.toISOString())
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/** `fault(rule)` and `fault([rules])`, one `POST /-/emulator/faults` each. */
function faultControl(http: Http) {
  function fault(rule: EmulatorFaultInput, options?: CallOptions): Promise<EmulatorFault>
  function fault(rules: EmulatorFaultInput[], options?: CallOptions): Promise<EmulatorFault[]>
  function fault(rules: EmulatorFaultInput | EmulatorFaultInput[], options: CallOptions = {}) {
    const response = Array.isArray(rules) ? Type.Array(EmulatorFault) : EmulatorFault
    return http.request('POST', FAULTS, { ...options, json: rules, response })
  }
  return fault
}

/**
 * The reference server's controls under `/-/emulator/` (docs/server.md): ours, not GitLab's, for
 * a suite that runs `gitlab-actions serve` in another process or a container. The methods are named
 * as `startServer()`'s (`reset`, `seed`, `requests`, `fault`, `clock.advance`, `settle`, `snapshot`,
 * `restore`...). Every call needs an administrator's token; a refusal (401, 403, a bad rule or
 * filter 400, a move of the clock back 409, an unsettled settle 409 or 504 with `pending` in its
 * body) throws GitLabApiError with the server's status and body. The calls go below the server root,
 * not `/api/v4`: client.ts hands this module an `Http` of its own.
 */
export function emulator(http: Http) {
  const move = (body: EmulatorClockMove, options: CallOptions) =>
    http.request('POST', CLOCK, { ...options, json: body, response: EmulatorSettled })
  const state = (options: CallOptions = {}) =>
    http.request('GET', CLOCK, { ...options, response: EmulatorClockState })
  return {
    /** `POST /-/emulator/reset`: back to the start-up seed (the request log and fault rules stay). */
    reset: async (options: CallOptions = {}): Promise<void> => {
      await http.request('POST', '/-/emulator/reset', options)
    },
    /**
     * `POST /-/emulator/seed`: adds more seed (docs/seed.md), whole or not at all. An object goes as
     * JSON, a string as YAML text (`application/yaml`); not a path: the server may be on another
     * machine. 400 for a bad seed, 409 for one that names what exists, with the server's message.
     */
    seed: async (more: Seed | string, options: CallOptions = {}): Promise<void> => {
      const body =
        typeof more === 'string' ? { body: { data: more, contentType: 'application/yaml' } } : { json: more }
      await http.request('POST', '/-/emulator/seed', { ...options, ...body })
    },
    /**
     * `PUT /-/emulator/projects/:id/pipelines/:pipeline_id`: the pipeline and its unfinished jobs
     * take `status` and stay there until retried; resolves to the pipeline as
     * `GET /projects/:id/pipelines/:pipeline_id` shows it. 404 for a pipeline the server has not.
     */
    setPipelineStatus: (
      project: ResourceRef,
      pipelineId: number,
      status: PipelineStatus,
      options: CallOptions = {},
    ) =>
      http.request('PUT', path`/-/emulator/projects/${project}/pipelines/${pipelineId}`, {
        ...options,
        json: { status },
        response: Pipeline,
      }),
    /**
     * `GET /-/emulator/projects/:id/pipelines/:pipeline_id`: the pipeline and every job of it, retried
     * ones too, each with the CI/CD job token it runs with (null unless `running` or `canceling`): what a
     * suite needs to call the job-token routes as a job would. 404 for a pipeline the server has not.
     */
    pipeline: (project: ResourceRef, pipelineId: number, options: CallOptions = {}) =>
      http.request('GET', path`/-/emulator/projects/${project}/pipelines/${pipelineId}`, {
        ...options,
        response: EmulatorPipelineView,
      }),
    /**
     * `GET /-/emulator/requests`: the logged requests that match `filter`, oldest first; every page
     * (after `X-Next-Since-Id`) unless `filter.limit` asks for one page of at most that many.
     */
    requests: async (
      filter: EmulatorRequestFilter = {},
      options: CallOptions = {},
    ): Promise<EmulatorRequest[]> => {
      const out: EmulatorRequest[] = []
      for (let since = filter.since_id; ;) {
        const res = await http.rawWhole('GET', REQUESTS, {
          ...options,
          query: { ...filter, since_id: since },
        })
        const page = (await http.read('GET', REQUESTS, res)) as EmulatorRequest[]
        await http.check('GET', REQUESTS, EmulatorRequest, page)
        out.push(...page)
        const next = first(res.headers['x-next-since-id'])
        if (next === undefined || filter.limit !== undefined) return out
        since = Number(next)
      }
    },
    /** `DELETE /-/emulator/requests`: empties the request log (ids go on). */
    clearRequests: (options: CallOptions = {}) => http.request<void>('DELETE', REQUESTS, options),
    /**
     * `POST /-/emulator/faults`: one rule resolves to it as kept (its `id`, counts at 0), a list to the
     * rules as kept, in order; 400 for a bad rule, and then none of the list is added.
     */
    fault: faultControl(http),
    /** `GET /-/emulator/faults`: the rules in force, with their counts. */
    faults: (options: CallOptions = {}) =>
      http.request('GET', FAULTS, { ...options, response: Type.Array(EmulatorFault) }),
    /** `DELETE /-/emulator/faults`: removes every rule. */
    clearFaults: (options: CallOptions = {}) => http.request<void>('DELETE', FAULTS, options),
    /** `DELETE /-/emulator/faults/:id`: removes one rule; 404 `404 Fault Not Found`. */
    removeFault: (id: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/-/emulator/faults/${id}`, options),
    /**
     * The server's clock (`/-/emulator/clock`). It never goes back: a `time` before the server's
     * answers 409. Each move applies the pipeline moves due by then and resolves to `{clock, ran}`.
     */
    clock: {
      /** `GET /-/emulator/clock`: `{now, frozen}`. */
      state,
      /** The server's time. */
      now: async (options: CallOptions = {}) => new Date((await state(options)).now),
      /** Stops the clock, at `at` (not before the server's time) or where it stands. */
      freeze: (at?: Date | string, options: CallOptions = {}) =>
        move(at === undefined ? { action: 'freeze' } : { action: 'freeze', time: instant(at) }, options),
      /** Lets it run on from where it stands. */
      unfreeze: (options: CallOptions = {}) => move({ action: 'unfreeze' }, options),
      /** Jumps to `at`, frozen or running as before. */
      set: (at: Date | string, options: CallOptions = {}) =>
        move({ action: 'set', time: instant(at) }, options),
      /** Moves `seconds` forward (fractions allowed). */
      advance: (seconds: number, options: CallOptions = {}) => move({ action: 'advance', seconds }, options),
    },
    /**
     * `POST /-/emulator/settle`: all background work to its end (exports, imports, pipelines move by
     * move with the clock following, webhook deliveries). `timeoutSeconds` (default 10, at most 300)
     * is the server's wait; the call's own timeout is stretched past it. Throws GitLabApiError 409
     * (a pipeline waits for a manual job, or was forced to `running`) or 504 (still running), whose
     * `body` is `EmulatorUnsettled` (`pending` says what is left).
     */
    settle: ({ timeoutSeconds, ...options }: CallOptions & { timeoutSeconds?: number } = {}) =>
      http.request('POST', '/-/emulator/settle', {
        timeoutMs: stretched(
          http.options.timeoutMs,
          (timeoutSeconds ?? SETTLE_DEFAULT_S) * 1000 + SETTLE_SLACK_MS,
        ),
        ...options,
        json: timeoutSeconds === undefined ? {} : { timeout: timeoutSeconds },
        response: EmulatorSettled,
      }),
    /**
     * `POST /-/emulator/snapshots/:name`: saves the whole store as `name` (`[A-Za-z0-9_.-]{1,64}`,
     * else 400); 409 when the name is taken, unless `replace`.
     */
    snapshot: (name: string, { replace, ...options }: CallOptions & { replace?: boolean } = {}) =>
      http.request('POST', path`/-/emulator/snapshots/${name}`, {
        ...options,
        query: { ...options.query, replace },
        response: EmulatorSnapshot,
      }),
    /** `POST /-/emulator/snapshots/:name/restore`: the store as the snapshot has it; 404 when there is none. */
    restore: (name: string, options: CallOptions = {}) =>
      http.request('POST', path`/-/emulator/snapshots/${name}/restore`, {
        ...options,
        response: EmulatorSnapshot,
      }),
    /** `GET /-/emulator/snapshots`: every snapshot, by name. */
    snapshots: (options: CallOptions = {}) =>
      http.request('GET', '/-/emulator/snapshots', { ...options, response: EmulatorSnapshots }),
    /** `DELETE /-/emulator/snapshots/:name`; 404 when there is none. */
    removeSnapshot: (name: string, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/-/emulator/snapshots/${name}`, options),
  }
}
/** The type of `client.emulator`. */
export type EmulatorApi = ReturnType<typeof emulator>
