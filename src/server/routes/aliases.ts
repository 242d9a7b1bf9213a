import { Type } from '@sinclair/typebox'
import { PageQuery, ProjectAlias, ProjectAliasCreate } from '../../schema/index.js'
import { pageOf, setPageHeaders } from '../pagination.js'
import { aliasService } from '../services/aliases.js'
import type { ApiContext } from './context.js'
import { defineRoute } from './define.js'
import { syncHook } from '../sync-hook.js'

const NamePath = Type.Object({ name: Type.String() })
const PREFIX = '/api/v4/project_aliases'

/**
 * Project aliases (`ee/lib/api/project_aliases.rb`). EE only: GitLab CE has no such routes, so on `ce`
 * they are not registered and answer the router's 404. Administrators only, checked before the
 * parameters as GitLab's `before` block does.
 */
export function aliasRoutes(api: ApiContext): void {
  if (api.instance.edition !== 'ee') return
  const { app, registry } = api
  const aliases = aliasService(api.ctx.store)
  app.addHook(
    'preHandler',
    syncHook((req) => {
      const url = req.routeOptions.url ?? ''
      if (url === PREFIX || url.startsWith(`${PREFIX}/`)) aliases.requireAdmin(req.actor)
    }),
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: PREFIX,
      summary: 'List project aliases (administrators)',
      input: PageQuery,
      response: { 200: Type.Array(ProjectAlias) },
    },
    (h) => {
      const page = pageOf(h.params)
      const { items, total } = aliases.list(page.perPage, page.offset)
      const link = { baseUrl: api.instance.baseUrl, path: PREFIX, params: { ...(h.req.query as object) } }
      setPageHeaders(h.reply, link, page, total)
      return items
    },
  )

  defineRoute(
    app,
    registry,
    {
      method: 'GET',
      url: `${PREFIX}/:name`,
      summary: 'Read a project alias (administrators)',
      pathParams: NamePath,
      response: { 200: ProjectAlias },
    },
    (h) => aliases.get(h.path.name as string),
  )

  defineRoute(
    app,
    registry,
    {
      method: 'POST',
      url: PREFIX,
      summary: 'Create a project alias (administrators)',
      input: ProjectAliasCreate,
      response: { 201: ProjectAlias },
    },
    (h) => h.reply.code(201).send(aliases.create(h.params)),
  )

  defineRoute(
    app,
    registry,
    {
      method: 'DELETE',
      url: `${PREFIX}/:name`,
      summary: 'Delete a project alias (administrators)',
      pathParams: NamePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      aliases.remove(h.path.name as string)
      return h.reply.code(204).send()
    },
  )
}
