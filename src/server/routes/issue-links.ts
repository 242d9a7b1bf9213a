import { Type } from '@sinclair/typebox'
import { IssueLink, IssueLinkCreate, RelatedIssue } from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import type { ApiContext } from './context.js'
import { issueRoute } from './paths.js'

/** `:issue_link_id` is Grape's `[String, Integer]`: found by `to_i`, never refused as invalid. */
const LinkPath = Type.Object({ id: Type.String(), issue_iid: Type.Integer(), issue_link_id: Type.String() })

/** Issue links (`lib/api/issue_links.rb`): every call authenticates first. */
export function issueLinkRoutes(api: ApiContext): void {
  const { route, access } = api
  const onIssue = issueRoute(route, access)
  const { issueLinks: links } = api.services

  onIssue(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid/links',
      summary: 'List the issues linked to an issue',
      auth: 'required',
      response: { 200: Type.Array(RelatedIssue) },
    },
    (h, { iid, project }) => links.list(h.actor, project, iid),
  )

  onIssue(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues/:issue_iid/links',
      errors: [409, 422],
      summary: 'Link two issues (blocks and is_blocked_by on EE)',
      auth: 'required',
      input: IssueLinkCreate,
      response: { 201: IssueLink },
    },
    (h, { iid, project }) => h.reply.code(201).send(links.create(h.actor, project, iid, h.params)),
  )

  if (applies(api.instance.version, 'issueLinkById'))
    route(
      {
        method: 'GET',
        url: '/api/v4/projects/:id/issues/:issue_iid/links/:issue_link_id',
        summary: 'Get one link of an issue',
        auth: 'required',
        pathParams: LinkPath,
        response: { 200: IssueLink },
      },
      (h) => links.get(h.actor, access.project(h.actor, h.path.id), h.path.issue_iid, h.path.issue_link_id),
    )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/issues/:issue_iid/links/:issue_link_id',
      summary: 'Remove a link between two issues',
      auth: 'required',
      pathParams: LinkPath,
      response: { 200: IssueLink },
    },
    (h) => links.remove(h.actor, access.project(h.actor, h.path.id), h.path.issue_iid, h.path.issue_link_id),
  )
}
