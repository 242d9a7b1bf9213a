import { Type } from '@sinclair/typebox'
import {
  Member,
  MemberBulkResult,
  MemberCreate,
  MemberDeleteQuery,
  MemberListQuery,
  MemberUpdate,
} from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const MemberPath = Type.Object({ id: Type.String(), user_id: Type.Integer() })

/**
 * Project and group members (services/members/; `lib/api/members.rb`): the same routes under
 * `/projects/:id` and `/groups/:id`, every call signed in (`before { authenticate! }`).
 */
export function memberRoutes(api: ApiContext): void {
  const { route } = api
  const { members } = api.services

  for (const kind of ['project', 'group'] as const) {
    const base = `/api/v4/${kind}s/:id/members`
    const of = `a ${kind}`

    route(
      {
        method: 'GET',
        url: base,
        summary: `List the direct members of ${of}`,
        auth: 'required',
        pathParams: IdPath,
        input: MemberListQuery,
        response: { 200: Type.Array(Member) },
      },
      (h) => h.sendPage(members.list(h.actor, kind, h.path.id, h.params)),
    )

    route(
      {
        method: 'GET',
        url: `${base}/all`,
        summary: `List the members of ${of}, inherited ones too, each user at its highest level`,
        auth: 'required',
        pathParams: IdPath,
        input: MemberListQuery,
        response: { 200: Type.Array(Member) },
      },
      (h) => h.sendPage(members.listAll(h.actor, kind, h.path.id, h.params)),
    )

    route(
      {
        method: 'GET',
        url: `${base}/:user_id`,
        summary: `Read a direct member of ${of}`,
        auth: 'required',
        pathParams: MemberPath,
        response: { 200: Member },
      },
      (h) => members.get(h.actor, kind, h.path.id, h.path.user_id),
    )

    route(
      {
        method: 'GET',
        url: `${base}/all/:user_id`,
        summary: `Read a member of ${of}, inherited ones too`,
        auth: 'required',
        pathParams: MemberPath,
        response: { 200: Member },
      },
      (h) => members.getInherited(h.actor, kind, h.path.id, h.path.user_id),
    )

    route(
      {
        method: 'POST',
        url: base,
        summary: `Add a member (or several, comma-separated) to ${of}`,
        auth: 'required',
        errors: [409],
        pathParams: IdPath,
        input: MemberCreate,
        response: { 201: Type.Union([Member, MemberBulkResult]) },
      },
      (h) => h.reply.code(201).send(members.add(h.actor, kind, h.path.id, h.params)),
    )

    route(
      {
        method: 'PUT',
        url: `${base}/:user_id`,
        summary: `Edit a member of ${of}: its access level and expiry`,
        auth: 'required',
        pathParams: MemberPath,
        input: MemberUpdate,
        response: { 200: Member },
      },
      (h) => {
        // Grape reads a blank or JSON null `expires_at` as nil, which UpdateService then sets: the expiry goes.
        const given = { ...(h.req.query as object), ...(h.req.body as object) } as { expires_at?: unknown }
        const clear =
          given.expires_at === null ||
          (typeof given.expires_at === 'string' && given.expires_at.trim() === '')
        return members.edit(h.actor, kind, h.path.id, h.path.user_id, h.params, clear)
      },
    )

    route(
      {
        method: 'DELETE',
        url: `${base}/:user_id`,
        summary: `Remove a member from ${of}`,
        auth: 'required',
        pathParams: MemberPath,
        input: MemberDeleteQuery,
        response: { 204: Type.Null() },
      },
      (h) => {
        members.remove(h.actor, kind, h.path.id, h.path.user_id, h.params)
        return h.reply.code(204).send()
      },
    )
  }
}
