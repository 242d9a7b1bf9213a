import { Type } from '@sinclair/typebox'
import {
  Issue,
  IssueMove,
  IssueReorder,
  MergeRequest,
  MergeRequestBasic,
  Todo,
  UserAgentDetail,
  UserBasic,
} from '../../schema/index.js'
import { slicePage, undeclaredPageOf } from '../grape/pagination.js'
import type { ApiContext } from './context.js'
import { IssuePath, issueRoute } from './paths.js'

/**
 * Issue sub-resources (`lib/api/issues.rb`, `lib/api/subscriptions.rb`): reorder, move, subscriptions,
 * to-dos and relations here; notes, time tracking and metric images in their own modules.
 * `:issue_iid` is Grape's Integer: anything else is 400 `issue_iid is invalid`.
 */
export function issueDetailRoutes(api: ApiContext): void {
  const { route, access } = api
  const onIssue = issueRoute(route, access)
  const { issueMoves: moves, todos, issueRelations: relations } = api.services

  onIssue(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/issues/:issue_iid/reorder',
      summary: 'Reorder an issue (relative position)',
      auth: 'non_get',
      input: IssueReorder,
      response: { 200: Issue },
    },
    (h, { iid, project }) => moves.reorder(h.actor, project, iid, h.params),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/move',
      errors: [422],
      summary: 'Move an issue to another project',
      auth: 'non_get',
      input: IssueMove,
      response: { 201: Issue },
    },
    (h, { iid, project }) => h.reply.code(201).send(moves.move(h.actor, project, iid, h.params)),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/subscribe',
      summary: 'Subscribe to an issue (304 when nothing changes)',
      auth: 'required',
      response: { 201: Issue, 304: Type.Null() },
    },
    (h, { iid, project }) => h.reply.code(201).send(todos.setSubscription(h.actor, project, iid, true)),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/unsubscribe',
      summary: 'Unsubscribe from an issue (304 when nothing changes)',
      auth: 'required',
      response: { 201: Issue, 304: Type.Null() },
    },
    (h, { iid, project }) => h.reply.code(201).send(todos.setSubscription(h.actor, project, iid, false)),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/todo',
      summary: 'Create a to-do item for the caller (304 when one is pending)',
      auth: 'required',
      response: { 201: Todo, 304: Type.Null() },
    },
    (h, { iid, project }) => h.reply.code(201).send(todos.mark(h.actor, project, iid)),
  )

  onIssue(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid/related_merge_requests',
      summary: 'Merge requests that mention or close the issue',
      response: { 200: Type.Array(MergeRequest) },
    },
    (h, { iid, project }) =>
      h.sendPage(slicePage(relations.related(h.actor, project, iid), undeclaredPageOf(h.req.query))),
  )

  onIssue(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid/closed_by',
      summary: 'Merge requests that close the issue when merged',
      response: { 200: Type.Array(MergeRequestBasic) },
    },
    (h, { iid, project }) =>
      h.sendPage(slicePage(relations.closedBy(h.actor, project, iid), undeclaredPageOf(h.req.query))),
  )

  onIssue(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid/participants',
      summary: 'Participants of an issue',
      response: { 200: Type.Array(UserBasic) },
    },
    (h, { iid, project }) => {
      return h.sendPage(
        slicePage(relations.participants(h.actor, project, iid), undeclaredPageOf(h.req.query)),
      )
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid/user_agent_detail',
      summary: 'User agent and IP that created the issue (administrators)',
      pathParams: IssuePath,
      response: { 200: UserAgentDetail },
    },
    (h) => relations.userAgent(h.actor, h.path.id, h.path.issue_iid),
  )
}
