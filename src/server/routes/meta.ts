import { CurrentUser, Group, Project, Version } from '../../schema/index.js'
import { unauthorized } from '../gitlab-errors.js'
import { namespaceNames, presentGroup, presentProject } from '../present/namespaces.js'
import { presentCurrentUser } from '../present/users.js'
import { Level } from '../services/access.js'
import type { ApiContext } from './context.js'
import { defineRoute } from './define.js'
import { IdPath } from './paths.js'

/** The calls a client makes first: version, current user, project and group reads. */
export function metaRoutes(api: ApiContext) {
  const { app, registry, access, instance } = api
  const { store } = api.ctx

  defineRoute(
    app,
    registry,
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

  defineRoute(
    app,
    registry,
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

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/projects/:id',
      summary: 'Read a project',
      pathParams: IdPath,
      response: { 200: Project },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id as string)
      const ns = store.namespaces.get(project.namespace_id)
      if (!ns) throw new Error(`project ${project.id} has no namespace`)
      const direct = h.actor.direct(store, `project:${project.id}`)
      const group =
        ns.kind === 'group' ? access.groupLevel(h.actor, ns) : ns.owner_id === h.actor.id ? Level.owner : 0
      const permissions = h.actor.user
        ? {
            project_access: direct ? { access_level: direct, notification_level: 3 } : null,
            group_access: group ? { access_level: group, notification_level: 3 } : null,
          }
        : undefined
      const fullName = [...namespaceNames(store, ns.id), project.name].join(' / ')
      return presentProject(
        project,
        ns,
        fullName,
        store.projects.openIssuesCount(project.id),
        instance,
        permissions,
      )
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: '/api/v4/groups/:id',
      summary: 'Read a group',
      pathParams: IdPath,
      response: { 200: Group },
    },
    (h) => {
      const group = access.group(h.actor, h.path.id as string)
      return presentGroup(group, namespaceNames(store, group.id).join(' / '), instance)
    },
  )
}
