import { NamespaceBasic, NamespaceExistence, NamespaceExistsQuery } from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/** One namespace and whether a path is taken (services/namespaces.ts; lib/api/namespaces.rb). */
export function namespaceRoutes(api: ApiContext): void {
  const { route } = api
  const { namespaces } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/namespaces/:id',
      summary: 'Read a namespace by id or URL-encoded path (its user, group members, administrators)',
      auth: 'required',
      pathParams: IdPath,
      response: { 200: NamespaceBasic },
    },
    (h) => namespaces.get(h.actor, h.path.id),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/namespaces/:id/exists',
      summary: 'Whether a namespace path is taken, with a free one suggested',
      auth: 'required',
      pathParams: IdPath,
      input: NamespaceExistsQuery,
      response: { 200: NamespaceExistence },
    },
    (h) => namespaces.exists(h.actor, h.path.id, h.params.parent_id),
  )
}
