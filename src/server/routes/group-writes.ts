import { Type } from '@sinclair/typebox'
import {
  Group,
  GroupCreate,
  GroupDeleteQuery,
  GroupDetail,
  GroupShare,
  GroupTransfer,
  GroupTreeQuery,
  GroupUpdate,
  PublicGroupDetails,
  TransferLocationsQuery,
} from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const Accepted = Type.Object({ message: Type.String() })

/**
 * Groups written through the API and the groups below one (services/group-writes.ts,
 * services/groups.ts; lib/api/groups.rb): writes need a signed-in caller (`authenticate_non_get!`).
 */
export function groupWriteRoutes(api: ApiContext): void {
  const { route } = api
  const { groups, groupWrites } = api.services

  route(
    {
      method: 'POST',
      url: '/api/v4/groups',
      summary: 'Create a group, or a subgroup with parent_id',
      auth: 'non_get',
      input: GroupCreate,
      response: { 201: GroupDetail },
    },
    (h) => h.reply.code(201).send(groupWrites.create(h.actor, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/groups/:id',
      summary: 'Edit a group (Owners)',
      auth: 'non_get',
      pathParams: IdPath,
      input: GroupUpdate,
      response: { 200: GroupDetail },
    },
    (h) => groupWrites.update(h.actor, h.path.id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/groups/:id',
      summary:
        'Delete a group (Owners): from 18.0 marks it for deletion, permanently_remove removes a marked subgroup',
      auth: 'non_get',
      pathParams: IdPath,
      input: GroupDeleteQuery,
      response: { 202: Accepted },
    },
    (h) => {
      groupWrites.remove(h.actor, h.path.id, h.params)
      return h.reply.code(202).send({ message: '202 Accepted' })
    },
  )

  const since = (rule: Parameters<typeof applies>[1]) => applies(api.instance.version, rule)
  const below = [
    ['subgroups', "List a group's subgroups that the caller can read", groups.subgroups, true],
    [
      'descendant_groups',
      'List every group below a group that the caller can read',
      groups.descendantGroups,
      since('groupDescendants'),
    ],
  ] as const
  for (const [name, summary, list, exists] of below)
    if (exists)
      route(
        {
          method: 'GET',
          url: `/api/v4/groups/:id/${name}`,
          summary,
          pathParams: IdPath,
          input: GroupTreeQuery,
          response: { 200: Type.Array(Group) },
        },
        (h) => h.sendPage(list(h.actor, h.path.id, h.params)),
      )

  if (since('groupTransfer'))
    route(
      {
        method: 'POST',
        url: '/api/v4/groups/:id/transfer',
        summary: 'Move a group under another group (group_id), or to the top level without it',
        auth: 'non_get',
        pathParams: IdPath,
        input: GroupTransfer,
        response: { 201: GroupDetail },
      },
      (h) => h.reply.code(201).send(groupWrites.transfer(h.actor, h.path.id, h.params.group_id)),
    )

  if (since('groupTransferLocations'))
    route(
      {
        method: 'GET',
        url: '/api/v4/groups/:id/transfer_locations',
        summary: 'List the groups the caller may move a group under (Owners)',
        auth: 'non_get',
        pathParams: IdPath,
        input: TransferLocationsQuery,
        response: { 200: Type.Array(PublicGroupDetails) },
      },
      (h) => h.sendPage(groupWrites.transferLocations(h.actor, h.path.id, h.params)),
    )

  route(
    {
      method: 'POST',
      url: '/api/v4/groups/:id/share',
      summary: 'Share a group with another group (Owners)',
      auth: 'non_get',
      pathParams: IdPath,
      input: GroupShare,
      response: { 201: GroupDetail },
    },
    (h) => h.reply.code(201).send(groupWrites.share(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/groups/:id/share/:group_id',
      summary: 'Stop sharing a group with another group (Owners)',
      auth: 'non_get',
      pathParams: Type.Object({ id: Type.String(), group_id: Type.Integer() }),
      response: { 204: Type.Null() },
    },
    (h) => {
      groupWrites.unshare(h.actor, h.path.id, h.path.group_id)
      return h.reply.code(204).send()
    },
  )
}
