import { Type } from '@sinclair/typebox'
import {
  BasicGroupDetails,
  BasicProjectDetails,
  JobTokenAllowlistAdd,
  JobTokenGroupLink,
  JobTokenGroupsAllowlistAdd,
  JobTokenProjectLink,
  JobTokenScope,
  JobTokenScopeUpdate,
  PageQuery,
} from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import { pageOf } from '../grape/pagination.js'
import type { JobTokenScopeService } from '../services/job-token-scopes.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/** The writes declare `requires :id, type: Integer`: a project's path there is a 400 `id is invalid`. */
const NumericIdPath = Type.Object({ id: Type.Integer() })
const ProjectLinkPath = Type.Object({ id: Type.Integer(), target_project_id: Type.Integer() })
const GroupLinkPath = Type.Object({ id: Type.Integer(), target_group_id: Type.Integer() })
const BASE = '/api/v4/projects/:id/job_token_scope'

/**
 * `lib/api/project_job_token_scope.rb`: the CI/CD job token scope of a project and its allowlists (Maintainer),
 * each part from the release that brought it (RELEASE_RULES.jobTokenScopeSettingsApi, jobTokenAllowlistApi,
 * jobTokenGroupsAllowlist); before, its paths are no route (404).
 */
export function jobTokenScopeRoutes(api: ApiContext, scopes: JobTokenScopeService) {
  const since = (rule: Parameters<typeof applies>[1]) => applies(api.instance.version, rule)
  if (since('jobTokenScopeSettingsApi')) settingsRoutes(api, scopes)
  if (since('jobTokenAllowlistApi')) projectAllowlistRoutes(api, scopes)
  if (since('jobTokenGroupsAllowlist')) groupsAllowlistRoutes(api, scopes)
}

/** Whether other projects' job tokens are limited to the allowlists: read and set. */
function settingsRoutes(api: ApiContext, scopes: JobTokenScopeService) {
  const { route, access } = api
  route(
    {
      method: 'GET',
      url: BASE,
      summary: 'Read the CI/CD job token access settings of a project',
      auth: 'required',
      pathParams: IdPath,
      response: { 200: JobTokenScope },
    },
    (h) => scopes.get(h.actor, access.project(h.actor, h.path.id)),
  )

  route(
    {
      method: 'PATCH',
      url: BASE,
      summary: "Turn the limit on other projects' CI/CD job tokens on or off",
      auth: 'required',
      pathParams: IdPath,
      input: JobTokenScopeUpdate,
      response: { 204: Type.Null() },
    },
    (h) => {
      scopes.setInbound(h.actor, access.project(h.actor, h.path.id), h.params.enabled)
      return h.reply.code(204).send()
    },
  )
}

/** The projects whose job tokens may reach the project. */
function projectAllowlistRoutes(api: ApiContext, scopes: JobTokenScopeService) {
  const { route, access } = api
  route(
    {
      method: 'GET',
      url: `${BASE}/allowlist`,
      summary: 'List the projects whose CI/CD job tokens may reach this one (the project itself first)',
      auth: 'required',
      pathParams: IdPath,
      input: PageQuery,
      response: { 200: Type.Array(BasicProjectDetails) },
    },
    (h) => h.sendPage(scopes.projects(h.actor, access.project(h.actor, h.path.id), pageOf(h.params))),
  )

  route(
    {
      method: 'POST',
      url: `${BASE}/allowlist`,
      summary: 'Let the CI/CD job tokens of a project reach this one',
      auth: 'required',
      pathParams: NumericIdPath,
      input: JobTokenAllowlistAdd,
      response: { 201: JobTokenProjectLink },
    },
    (h) => {
      const project = access.project(h.actor, String(h.path.id))
      return h.reply.code(201).send(scopes.addProject(h.actor, project, h.params.target_project_id))
    },
  )

  route(
    {
      method: 'DELETE',
      url: `${BASE}/allowlist/:target_project_id`,
      summary: 'Take a project off the allowlist',
      auth: 'required',
      pathParams: ProjectLinkPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      const project = access.project(h.actor, String(h.path.id))
      scopes.removeProject(h.actor, project, String(h.path.target_project_id))
      return h.reply.code(204).send()
    },
  )
}

/** The groups whose projects' job tokens may reach the project. */
function groupsAllowlistRoutes(api: ApiContext, scopes: JobTokenScopeService) {
  const { route, access } = api
  route(
    {
      method: 'GET',
      url: `${BASE}/groups_allowlist`,
      summary: 'List the groups whose projects may reach this one with CI/CD job tokens',
      auth: 'required',
      pathParams: IdPath,
      input: PageQuery,
      response: { 200: Type.Array(BasicGroupDetails) },
    },
    (h) => h.sendPage(scopes.groups(h.actor, access.project(h.actor, h.path.id), pageOf(h.params))),
  )

  route(
    {
      method: 'POST',
      url: `${BASE}/groups_allowlist`,
      summary: 'Let the CI/CD job tokens of the projects in a group (and its subgroups) reach this one',
      auth: 'required',
      pathParams: NumericIdPath,
      input: JobTokenGroupsAllowlistAdd,
      response: { 201: JobTokenGroupLink },
    },
    (h) => {
      const project = access.project(h.actor, String(h.path.id))
      return h.reply.code(201).send(scopes.addGroup(h.actor, project, h.params.target_group_id))
    },
  )

  route(
    {
      method: 'DELETE',
      url: `${BASE}/groups_allowlist/:target_group_id`,
      summary: 'Take a group off the allowlist',
      auth: 'required',
      pathParams: GroupLinkPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      const project = access.project(h.actor, String(h.path.id))
      scopes.removeGroup(h.actor, project, h.path.target_group_id)
      return h.reply.code(204).send()
    },
  )
}
