import { Type } from '@sinclair/typebox'
import {
  Issue,
  IssueCreate,
  GlobalIssueListQuery,
  GroupIssueListQuery,
  IssueListQuery,
  IssueUpdate,
  issueUpdateRequiresOneOf,
} from '../../schema/index.js'
import { cursorNext, type PageOut } from '../grape/pagination.js'
import { applies } from '../domain/releases.js'
import type { IssuePage } from '../services/issues/issues.js'
import type { ApiContext } from './context.js'
import { JsonAnswer, type Handled } from './define.js'
import { IdPath, issueRoute } from './paths.js'

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

/** An issue list's page: keyset pages link to the next cursor, offset pages as usual. */
function issuePage(result: IssuePage): PageOut<string> {
  const { issues: items, page, total, hasMore, nextCursor } = result
  if (nextCursor === undefined) return { items, page, total, hasMore }
  return {
    items,
    next: nextCursor ? cursorNext(nextCursor, page.perPage) : null,
  }
}

/** The route's writer of one issue record: a list's JSON is its records' JSON, in brackets. */
const issueJson = (h: Handled<unknown, unknown>) =>
  h.reply.compileSerializationSchema(Issue) as (issue: Issue) => string
/** Sets the page's headers and answers with its records. */
const sendIssues = (h: Handled<unknown, unknown>, page: IssuePage) =>
  JsonAnswer.array(h.sendPage(issuePage(page)))

/** Before keyset paging (`issuesKeyset`) `pagination` and `cursor` are undeclared: Grape drops them. */
const OffsetIssueListQuery = Type.Omit(IssueListQuery, ['pagination', 'cursor'])

/** GitLab's doc/api/issues.md: the issue lists, single reads, create, edit and delete. */
export function issueRoutes(api: ApiContext) {
  const { route, services, access } = api
  const onIssue = issueRoute(route, access)
  const updateInput = () =>
    ({
      ...IssueUpdate,
      'x-at-least-one-of': [
        ...issueUpdateRequiresOneOf.ce,
        ...(api.instance.edition === 'ee' ? issueUpdateRequiresOneOf.ee : []),
      ],
    }) as typeof IssueUpdate

  route(
    {
      method: 'GET',
      url: '/api/v4/issues',
      summary: 'List issues visible to the caller',
      cached: true,
      input: GlobalIssueListQuery,
      response: { 200: IssueList },
    },
    (h) => {
      const page = services.issues.list(h.actor, { kind: 'global' }, h.params, issueJson(h))
      h.cachedUnder(['*'], page.watch())
      return sendIssues(h, page)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/issues',
      summary: 'List issues of a group and its subgroups',
      cached: true,
      pathParams: IdPath,
      input: GroupIssueListQuery,
      response: { 200: IssueList },
    },
    (h) => {
      const group = access.group(h.actor, h.path.id)
      const page = services.issues.list(h.actor, { kind: 'group', group }, h.params, issueJson(h))
      h.cachedUnder([`group:${group.full_path.toLowerCase()}`], page.watch())
      return sendIssues(h, page)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues',
      summary: 'List issues of a project',
      cached: true,
      pathParams: IdPath,
      input: applies(api.instance.version, 'issuesKeyset') ? IssueListQuery : OffsetIssueListQuery,
      response: { 200: IssueList },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id)
      const page = services.issues.list(h.actor, { kind: 'project', project }, h.params, issueJson(h))
      h.cachedUnder([`project:${project.id}`], page.watch())
      return sendIssues(h, page)
    },
  )

  route(
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

  onIssue(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/issues/:issue_iid',
      summary: 'Read one issue',
      response: { 200: Issue },
    },
    (h, { project, iid }) => new JsonAnswer(services.issues.get(h.actor, project, iid, issueJson(h))),
  )

  route(
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
      const project = access.project(h.actor, h.path.id)
      const ua = h.req.headers['user-agent']
      const issue = services.issues.create(h.actor, project, h.params, { userAgent: ua, ip: h.req.ip })
      h.reply.code(201)
      return new JsonAnswer(services.issues.answerJson(h.actor, issue, issueJson(h)))
    },
  )

  onIssue(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/issues/:issue_iid',
      summary: 'Edit, close or reopen an issue',
      auth: 'non_get',
      input: updateInput(),
      response: { 200: Issue },
    },
    (h, { project, iid }) => {
      const issue = services.issues.update(h.actor, project, iid, h.params)
      return new JsonAnswer(services.issues.answerJson(h.actor, issue, issueJson(h)))
    },
  )

  onIssue(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/issues/:issue_iid',
      summary: 'Delete an issue (owners and administrators)',
      auth: 'non_get',
      response: { 204: Type.Null() },
    },
    (h, { project, iid }) => {
      services.issues.remove(h.actor, project, iid)
      return h.reply.code(204).send()
    },
  )
}
