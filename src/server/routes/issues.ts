import { Type } from '@sinclair/typebox'
import {
  Issue,
  IssueCreate,
  IssueListQuery,
  IssueUpdate,
  issueUpdateRequiresOneOf,
} from '../../schema/index.js'
import { setKeysetHeaders, setPageHeaders } from '../pagination.js'
import { applies } from '../releases.js'
import type { IssuePage } from '../services/issues.js'
import type { ApiContext } from './context.js'
import { defineRoute, type Handled } from './define.js'
import { IdPath, IssuePath, issueTarget } from './paths.js'

const IssueList = Type.Array(Issue)
/**
 * `GET /issues/:id` declares `:id` a String and runs `Issue.find(id)`, which casts it as Ruby's
 * `to_i` does: leading blanks and digits (with `_` between them) count, the rest is ignored, and
 * what has no digits is 0, which finds nothing (404, never Grape's 400).
 */
const globalId = (raw: string | undefined) => {
  const digits = /^\s*\+?(\d+(?:_\d+)*)/.exec(raw ?? '')?.[1]
  return digits === undefined ? 0 : Number(digits.replaceAll('_', ''))
}

/**
 * Defaults Grape fills in, which GitLab's pagination links carry along
 * (`lib/gitlab/pagination/offset_header_builder.rb`).
 */
const LIST_DEFAULTS = { order_by: 'created_at', sort: 'desc', state: 'all', with_labels_details: false }

/** spec 4.2-4.3: the issue lists, single reads, create, edit and delete. */
export function issueRoutes(api: ApiContext) {
  const { app, registry, services, access } = api
  const sendPage = (h: Handled<unknown, unknown>, result: IssuePage, params: Record<string, unknown>) => {
    const link = { baseUrl: api.instance.baseUrl, path: h.req.url.split('?')[0] as string, params }
    if (result.nextCursor !== undefined)
      setKeysetHeaders(h.reply, link, result.page.perPage, result.nextCursor)
    else setPageHeaders(h.reply, link, result.page, result.total, result.hasMore)
    return result.issues
  }
  const given = (req: import('fastify').FastifyRequest) => ({
    ...(req.query as Record<string, unknown>),
  })
  const updateInput = () =>
    ({
      ...IssueUpdate,
      'x-at-least-one-of': [
        ...issueUpdateRequiresOneOf.ce,
        ...(api.instance.edition === 'ee' ? issueUpdateRequiresOneOf.ee : []),
      ],
    }) as typeof IssueUpdate

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/issues',
      summary: 'List issues visible to the caller',
      cached: true,
      input: IssueListQuery,
      response: { 200: IssueList },
    },
    (h) => {
      return sendPage(h, services.issues.list(h.actor, { kind: 'global' }, h.params), {
        ...LIST_DEFAULTS,
        scope: 'created_by_me',
        non_archived: true,
        ...given(h.req),
      })
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/groups/:id/issues',
      summary: 'List issues of a group and its subgroups',
      cached: true,
      pathParams: IdPath,
      input: IssueListQuery,
      response: { 200: IssueList },
    },
    (h) => {
      const group = access.group(h.actor, h.path.id as string)
      h.cachedUnder([`group:${group.full_path.toLowerCase()}`])
      return sendPage(h, services.issues.list(h.actor, { kind: 'group', group }, h.params), {
        ...LIST_DEFAULTS,
        id: h.path.id,
        non_archived: true,
        ...given(h.req),
      })
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues',
      summary: 'List issues of a project',
      cached: true,
      pathParams: IdPath,
      input: IssueListQuery,
      response: { 200: IssueList },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id as string)
      h.cachedUnder([`project:${project.id}`])
      const query = { ...given(h.req) }
      const params = { ...h.params }
      // Before keyset paging the two parameters are undeclared: Grape drops them.
      if (!applies(api.instance.version, 'issuesKeyset'))
        for (const key of ['pagination', 'cursor'] as const) {
          delete query[key]
          delete params[key]
        }
      return sendPage(h, services.issues.list(h.actor, { kind: 'project', project }, params), {
        ...LIST_DEFAULTS,
        id: h.path.id,
        ...query,
      })
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/issues/:id',
      summary: 'Read any issue by global id (administrators)',
      auth: 'required',
      pathParams: IdPath,
      response: { 200: Issue },
    },
    (h) => services.issues.getById(h.actor, globalId(h.path.id)),
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid',
      summary: 'Read one issue',
      pathParams: IssuePath,
      response: { 200: Issue },
    },
    (h) => {
      const { project, iid } = issueTarget(access, h.path, h.actor)
      return services.issues.get(h.actor, project, iid)
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: '/api/v4/projects/:id/issues',
      summary: 'Create an issue',
      errors: [409, 429],
      auth: 'non_get',
      pathParams: IdPath,
      input: IssueCreate,
      response: { 201: Issue },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id as string)
      const ua = h.req.headers['user-agent']
      const issue = services.issues.create(h.actor, project, h.params, { userAgent: ua, ip: h.req.ip })
      return h.reply.code(201).send(issue)
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/issues/:issue_iid',
      summary: 'Edit, close or reopen an issue',
      auth: 'non_get',
      pathParams: IssuePath,
      input: updateInput(),
      response: { 200: Issue },
    },
    (h) => {
      const { project, iid } = issueTarget(access, h.path, h.actor)
      return services.issues.update(h.actor, project, iid, h.params)
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/issues/:issue_iid',
      summary: 'Delete an issue (owners and administrators)',
      auth: 'non_get',
      pathParams: IssuePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      const { project, iid } = issueTarget(access, h.path, h.actor)
      services.issues.remove(h.actor, project, iid)
      return h.reply.code(204).send()
    },
  )
}
