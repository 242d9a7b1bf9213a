import { SpentTimeInput, TimeEstimateInput, TimeStats } from '../../schema/index.js'
import type { IssueDeps } from '../services/issue-lookup.js'
import { timeTrackingService } from '../services/time-tracking.js'
import type { ApiContext } from './context.js'
import { defineRoute } from './define.js'
import { IssuePath, issueTarget } from './paths.js'

const BASE = '/api/v4/projects/:id/issues/:issue_iid'

/**
 * Time tracking (`lib/api/time_tracking_endpoints.rb`): 200 for estimates, resets and reads, 201 for added
 * time.
 */
export function timeTrackingRoutes(api: ApiContext, deps: IssueDeps): void {
  const { app, registry, access } = api
  const time = timeTrackingService(deps)
  const post = (
    verb: string,
    summary: string,
    status: 200 | 201,
    input: typeof TimeEstimateInput | typeof SpentTimeInput | undefined,
    run: (
      t: ReturnType<typeof issueTarget>,
      actor: Parameters<typeof access.project>[0],
      params: never,
    ) => TimeStats,
  ) =>
    defineRoute(
      app,
      registry,
      {
        method: 'POST',
        url: `${BASE}/${verb}`,
        summary,
        auth: 'non_get',
        pathParams: IssuePath,
        ...(input ? { input } : {}),
        response: { [status]: TimeStats },
      },
      (h) => h.reply.code(status).send(run(issueTarget(access, h.path, h.actor), h.actor, h.params as never)),
    )

  post(
    'time_estimate',
    'Set the time estimate',
    200,
    TimeEstimateInput,
    (t, actor, params: TimeEstimateInput) => time.setEstimate(actor, t.project, t.iid, params),
  )
  post('reset_time_estimate', 'Reset the time estimate to 0', 200, undefined, (t, actor) =>
    time.resetEstimate(actor, t.project, t.iid),
  )
  post(
    'add_spent_time',
    'Add (or subtract) spent time',
    201,
    SpentTimeInput,
    (t, actor, params: SpentTimeInput) => time.addSpent(actor, t.project, t.iid, params),
  )
  post('reset_spent_time', 'Reset the time spent to 0', 200, undefined, (t, actor) =>
    time.resetSpent(actor, t.project, t.iid),
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: `${BASE}/time_stats`,
      summary: 'Time tracking stats of an issue',
      pathParams: IssuePath,
      response: { 200: TimeStats },
    },
    (h) => {
      const t = issueTarget(access, h.path, h.actor)
      return time.stats(h.actor, t.project, t.iid)
    },
  )
}
