import { Type } from '@sinclair/typebox'
import { BasicProjectDetails, CurrentUser, Group, Project, Version } from '../../schema/index.js'
import { unauthorized } from '../gitlab-errors.js'
import { namespaceNames, presentGroup } from '../present/namespaces.js'
import { basicProjectDetails, projectFor } from '../present/projects.js'
import { presentCurrentUser } from '../present/users.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/** The calls a client makes first: version, current user, project and group reads. */
export function metaRoutes(api: ApiContext) {
  const { route, access, instance } = api
  const { store } = api.ctx

  route(
    {
      method: 'GET',
      url: '/api/v4/version',
      summary: 'Version of the instance',
      auth: 'required',
      response: { 200: Version },
    },
    (h) => {
      if (!h.actor.user) throw unauthorized()
      const ee = instance.edition === 'ee'
      return {
        version: `${instance.version}${ee ? '-ee' : ''}`,
        revision: 'e6c0d1a5d2b',
        kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
        enterprise: ee,
      }
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/user',
      summary: 'The signed-in user',
      auth: 'required',
      response: { 200: CurrentUser },
    },
    (h) => {
      if (!h.actor.user) throw unauthorized()
      return presentCurrentUser(h.actor.user, instance)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id',
      summary: 'Read a project',
      pathParams: IdPath,
      response: { 200: Type.Union([Project, BasicProjectDetails]) },
    },
    (h) => {
      const full = projectFor({ store, access, instance }, h.actor, access.project(h.actor, h.path.id))
      // Anonymous callers get `ProjectDetails`: BasicProjectDetails' fields, plus the fork source that is
      // not modelled here (lib/api/projects.rb `get ":id"`, lib/api/entities/project_details.rb).
      return h.actor.user ? full : basicProjectDetails(full)
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id',
      summary: 'Read a group',
      pathParams: IdPath,
      response: { 200: Group },
    },
    (h) => {
      const group = access.group(h.actor, h.path.id)
      return presentGroup(group, namespaceNames(store, group.id).join(' / '), instance)
    },
  )
}
