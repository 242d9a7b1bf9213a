import { SpentTimeInput, TimeEstimateInput, TimeStats } from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { issueRoute } from './paths.js'

/**
 * Time tracking (`lib/api/time_tracking_endpoints.rb`): 200 for estimates, resets and reads, 201 for added
 * time.
 */
export function timeTrackingRoutes(api: ApiContext): void {
  const { route, access } = api
  const onIssue = issueRoute(route, access)
  const time = api.services.timeTracking

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/time_estimate',
      summary: 'Set the time estimate',
      auth: 'non_get',
      input: TimeEstimateInput,
      response: { 200: TimeStats },
    },
    (h, { iid, project }) => time.setEstimate(h.actor, project, iid, h.params),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/reset_time_estimate',
      summary: 'Reset the time estimate to 0',
      auth: 'non_get',
      response: { 200: TimeStats },
    },
    (h, { iid, project }) => time.resetEstimate(h.actor, project, iid),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/add_spent_time',
      summary: 'Add (or subtract) spent time',
      auth: 'non_get',
      input: SpentTimeInput,
      response: { 201: TimeStats },
    },
    (h, { iid, project }) => h.reply.code(201).send(time.addSpent(h.actor, project, iid, h.params)),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/reset_spent_time',
      summary: 'Reset the time spent to 0',
      auth: 'non_get',
      response: { 200: TimeStats },
    },
    (h, { iid, project }) => time.resetSpent(h.actor, project, iid),
  )

  onIssue(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid/time_stats',
      summary: 'Time tracking stats of an issue',
      response: { 200: TimeStats },
    },
    (h, { iid, project }) => time.stats(h.actor, project, iid),
  )
}
