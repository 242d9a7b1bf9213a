import { Type } from '@sinclair/typebox'
import { CurrentUser, GroupDetail, Project, ProjectDetails, Version } from '../../schema/index.js'
import { unauthorized } from '../grape/gitlab-errors.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/** The calls a client makes first: version, current user, project and group reads. */
export function metaRoutes(api: ApiContext) {
  const { route, instance } = api
  const { projects, groups, userAdmin } = api.services

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
    (h) => userAdmin.current(h.actor),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id',
      summary: 'Read a project',
      pathParams: IdPath,
      response: { 200: Type.Union([Project, ProjectDetails]) },
    },
    (h) => projects.get(h.actor, h.path.id),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id',
      summary: 'Read a group',
      pathParams: IdPath,
      response: { 200: GroupDetail },
    },
    (h) => groups.get(h.actor, h.path.id),
  )
}
