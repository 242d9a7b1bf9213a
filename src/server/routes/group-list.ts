import { Type } from '@sinclair/typebox'
import { Group, GroupTreeQuery, NamespaceBasic, NamespaceListQuery } from '../../schema/index.js'
import type { Strategies } from '../services/groups.js'
import type { ApiContext } from './context.js'

/** `pagination` and `cursor` of the query as given: single strings only, as Ruby's `==` compares them. */
function strategiesOf(query: unknown): Strategies {
  const { pagination, cursor } = query as Record<string, unknown>
  return {
    pagination: typeof pagination === 'string' ? pagination : undefined,
    cursor: typeof cursor === 'string' ? cursor : undefined,
  }
}

/** `GET /groups` and `GET /namespaces`, the two namespace lists (services/groups.ts). */
export function groupListRoutes(api: ApiContext): void {
  const { route } = api
  const { groups } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/groups',
      summary: 'List the groups the caller can see',
      input: GroupTreeQuery,
      errors: [405],
      response: { 200: Type.Array(Group) },
    },
    (h) => h.sendPage(groups.list(h.actor, h.params, strategiesOf(h.req.query))),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/namespaces',
      summary: "List the caller's namespaces (administrators: all)",
      auth: 'required',
      input: NamespaceListQuery,
      response: { 200: Type.Array(NamespaceBasic) },
    },
    (h) => h.sendPage(groups.namespaces(h.actor, h.params)),
  )
}
