import { Type } from '@sinclair/typebox'
import { ProtectedTag, ProtectedTagQuery, ProtectTag } from '../../schema/index.js'
import { pageOf } from '../grape/pagination.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const NamePath = Type.Object({ id: Type.String(), name: Type.String() })

/** `lib/api/protected_tags.rb` (Maintainer): list, get, protect, unprotect. */
export function repositoryProtectedTagRoutes(api: ApiContext): void {
  const { route } = api
  const tags = api.services.repository.protectedTags

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/protected_tags',
      summary: 'List protected tags (Maintainer)',
      auth: 'required',
      pathParams: IdPath,
      input: ProtectedTagQuery,
      response: { 200: Type.Array(ProtectedTag) },
    },
    (h) => h.sendPage(tags.list(h.actor, h.path.id, pageOf(h.params))),
  )
  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/protected_tags/:name',
      summary: 'Read a protected tag or wildcard (Maintainer)',
      auth: 'required',
      pathParams: NamePath,
      response: { 200: ProtectedTag },
    },
    (h) => tags.get(h.actor, h.path.id, h.path.name),
  )
  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/protected_tags',
      summary: 'Protect a tag or wildcard: who may create it (Maintainer)',
      auth: 'required',
      errors: [422],
      pathParams: IdPath,
      input: ProtectTag,
      response: { 201: ProtectedTag },
    },
    (h) => h.reply.code(201).send(tags.protect(h.actor, h.path.id, h.params)),
  )
  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/protected_tags/:name',
      summary: 'Unprotect a tag or wildcard (Maintainer)',
      auth: 'required',
      pathParams: NamePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      tags.unprotect(h.actor, h.path.id, h.path.name)
      return h.reply.code(204).send()
    },
  )
}
