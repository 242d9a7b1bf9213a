/*
 * Issue time tracking (`lib/api/time_tracking_endpoints.rb`). Durations are GitLab's strings (`3h30m`, `1w
 * 2d`,
 * `-30m`; 1mo = 20d, 1w = 5d, 1d = 8h, a bare number is hours); every call answers the issue's
 * `time_stats`, with GitLab's `human_*` forms (null at zero).
 */
import type { ResourceRef } from '../schema/common.js'
import type { SpentTimeInput, TimeEstimateInput } from '../schema/issue-actions.js'
import { TimeStats } from '../schema/issue.js'
import type { CallOptions, Http } from './http.js'
import { path } from './path.js'

/**
 * The time-tracking group of the client. Every call throws GitLabApiError with GitLab's status
 * and body; changes need Reporter (planner) rights or more (403 otherwise).
 */
export function timeTracking(http: Http) {
  const call = (
    method: 'GET' | 'POST',
    project: ResourceRef,
    iid: number,
    verb: string,
    options: CallOptions,
  ) =>
    http.request(method, `${path`/projects/${project}/issues/${iid}`}/${verb}`, {
      ...options,
      response: TimeStats,
    })
  return {
    /**
     * `POST .../time_estimate` with `duration`. 0 is allowed; a negative or unreadable duration is
     * 400 `400 Bad request - {:reason=>"Time estimate must have a valid format and be greater than
     * or equal to zero."}`.
     */
    setEstimate: (
      project: ResourceRef,
      iid: number,
      duration: TimeEstimateInput['duration'],
      options: CallOptions = {},
    ) => call('POST', project, iid, 'time_estimate', { ...options, json: { duration } }),
    /** `POST .../reset_time_estimate`: the estimate back to 0. */
    resetEstimate: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      call('POST', project, iid, 'reset_time_estimate', options),
    /**
     * `POST .../add_spent_time` -> 201: logs `duration` (a leading `-` subtracts, never below zero)
     * with an optional `summary` (at most 255 characters). 400 `{"message":{"timelogs":["is
     * invalid"]}}` for an unreadable or zero duration; `{"message":{"base":["Time to subtract
     * exceeds the total time spent"]}}`. Retried only on 429, so time is never logged twice.
     */
    addSpent: (
      project: ResourceRef,
      iid: number,
      duration: SpentTimeInput['duration'],
      summary?: SpentTimeInput['summary'],
      options: CallOptions = {},
    ) => {
      const json: SpentTimeInput = summary === undefined ? { duration } : { duration, summary }
      return call('POST', project, iid, 'add_spent_time', { ...options, json })
    },
    /** `POST .../reset_spent_time`: logs minus the whole total, so that it is 0. */
    resetSpent: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      call('POST', project, iid, 'reset_spent_time', options),
    /** `GET .../time_stats`: anyone who can read the issue. */
    stats: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      call('GET', project, iid, 'time_stats', options),
  }
}
/** The type of `client.timeTracking`. */
export type TimeTrackingApi = ReturnType<typeof timeTracking>
