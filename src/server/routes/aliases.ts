import { Type } from '@sinclair/typebox'
import { PageQuery, ProjectAlias, ProjectAliasCreate } from '../../schema/index.js'
import { pageOf } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { ApiContext } from './context.js'

const NamePath = Type.Object({ name: Type.String() })

/**
 * Project aliases (`ee/lib/api/project_aliases.rb`). EE only: GitLab CE has no such routes, so on `ce`
 * they are not registered and answer the router's 404. Administrators only, checked before the
 * parameters as GitLab's `before` block does.
 */
export function aliasRoutes(api: ApiContext): void {
  if (api.instance.edition !== 'ee') return
  const { route } = api
  const { aliases } = api.services
  // On each route rather than as an app-wide hook, which every other request would run too.
  const before = ({ actor }: { actor: Actor }) => aliases.requireAdmin(actor)

  route(
    {
      method: 'GET',
      url: '/api/v4/project_aliases',
      before,
      summary: 'List project aliases (administrators)',
      input: PageQuery,
      response: { 200: Type.Array(ProjectAlias) },
    },
    (h) => {
      const page = pageOf(h.params)
      const { items, total } = aliases.list(page.perPage, page.offset)
      return h.sendPage({ items, page, total })
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/project_aliases/:name',
      before,
      summary: 'Read a project alias (administrators)',
      pathParams: NamePath,
      response: { 200: ProjectAlias },
    },
    (h) => aliases.get(h.path.name),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/project_aliases',
      before,
      summary: 'Create a project alias (administrators)',
      input: ProjectAliasCreate,
      response: { 201: ProjectAlias },
    },
    (h) => h.reply.code(201).send(aliases.create(h.params)),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/project_aliases/:name',
      before,
      summary: 'Delete a project alias (administrators)',
      pathParams: NamePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      aliases.remove(h.path.name)
      return h.reply.code(204).send()
    },
  )
}
