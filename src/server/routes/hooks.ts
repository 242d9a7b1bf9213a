import { STATUS_CODES } from 'node:http'
import { Type } from '@sinclair/typebox'
import {
  groupHookEntity,
  HOOK_TEST_TRIGGERS,
  HookCreate,
  HookEventsQuery,
  HookUpdate,
  PageQuery,
  projectHookEntity,
  WebHookLog,
} from '../../schema/index.js'
import { applies } from '../domain/releases.js'
import { GitLabError, paramError } from '../grape/gitlab-errors.js'
import { pageOf } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { HookOwner } from '../services/hooks/hooks.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const HookPath = Type.Object({ id: Type.String(), hook_id: Type.Integer() })
const TestPath = Type.Object({ id: Type.String(), hook_id: Type.Integer(), trigger: Type.String() })
const TRIGGERS: readonly string[] = HOOK_TEST_TRIGGERS
/** `lib/api/hooks/events.rb`'s `status` values: Rack's status codes and three classes. */
const EVENT_STATUSES = new Set([
  ...Object.keys(STATUS_CODES),
  'successful',
  'client_failure',
  'server_failure',
])
/** `lib/api/hooks/events.rb`: `per_page` in 1..20, default 20. */
const EVENTS_PER_PAGE = 20

/**
 * Project hooks (`lib/api/project_hooks.rb`) and, on EE, group hooks (`ee/lib/api/group_hooks.rb`):
 * the same routes under `/projects/:id/hooks` (Maintainer) and `/groups/:id/hooks` (Owner), with
 * `test/:trigger` (`lib/api/hooks/trigger_test.rb`) and, where the release has it, `events`.
 */
export function hookRoutes(api: ApiContext): void {
  const { route, access, instance } = api
  const hooks = api.services.hooks
  const named = applies(instance.version, 'webhookNames')
  const kinds = [
    {
      base: '/api/v4/projects/:id/hooks',
      noun: 'project',
      entity: projectHookEntity(named, false),
      listed: projectHookEntity(named, true),
      owner: (actor: Actor, id: string): HookOwner => ({ project: access.project(actor, id) }),
    },
    ...(instance.edition === 'ee'
      ? [
          {
            base: '/api/v4/groups/:id/hooks',
            noun: 'group',
            entity: groupHookEntity(named, false),
            listed: groupHookEntity(named, true),
            owner: (actor: Actor, id: string): HookOwner => ({ group: access.group(actor, id) }),
          },
        ]
      : []),
  ]

  for (const { base, noun, entity, listed, owner } of kinds) {
    route(
      {
        method: 'GET',
        url: base,
        summary: `List ${noun} hooks`,
        auth: 'required',
        pathParams: IdPath,
        input: PageQuery,
        response: { 200: Type.Array(listed) },
      },
      (h) => {
        const page = pageOf(h.params)
        const { items, total } = hooks.list(h.actor, owner(h.actor, h.path.id), page.perPage, page.offset)
        return h.sendPage({ items, page, total })
      },
    )

    route(
      {
        method: 'GET',
        url: `${base}/:hook_id`,
        summary: `Get a ${noun} hook`,
        auth: 'required',
        pathParams: HookPath,
        response: { 200: entity },
      },
      (h) => hooks.get(h.actor, owner(h.actor, h.path.id), h.path.hook_id),
    )

    route(
      {
        method: 'POST',
        url: base,
        summary: `Add a ${noun} hook (422 Invalid url given for a URL GitLab refuses)`,
        auth: 'required',
        errors: [422],
        pathParams: IdPath,
        input: HookCreate,
        response: { 201: entity },
      },
      (h) => h.reply.code(201).send(hooks.create(h.actor, owner(h.actor, h.path.id), h.params)),
    )

    route(
      {
        method: 'PUT',
        url: `${base}/:hook_id`,
        summary: `Edit a ${noun} hook`,
        auth: 'required',
        errors: [422],
        pathParams: HookPath,
        input: HookUpdate,
        response: { 200: entity },
      },
      (h) => hooks.update(h.actor, owner(h.actor, h.path.id), h.path.hook_id, h.params),
    )

    route(
      {
        method: 'DELETE',
        url: `${base}/:hook_id`,
        summary: `Delete a ${noun} hook`,
        auth: 'required',
        pathParams: HookPath,
        response: { 204: Type.Null() },
      },
      (h) => {
        hooks.remove(h.actor, owner(h.actor, h.path.id), h.path.hook_id)
        return h.reply.code(204).send()
      },
    )

    route(
      {
        method: 'POST',
        url: `${base}/:hook_id/test/:trigger`,
        summary: `Send a sample event of a kind to a ${noun} hook now`,
        auth: 'required',
        errors: [422],
        pathParams: TestPath,
        response: { 201: Type.Object({ message: Type.String() }) },
      },
      async (h) => {
        if (!TRIGGERS.includes(h.path.trigger)) throw paramError('trigger does not have a valid value')
        await hooks.test(h.actor, owner(h.actor, h.path.id), h.path.hook_id, h.path.trigger)
        return h.reply.code(201).send({ message: '201 Created' })
      },
    )

    if (!applies(instance.version, 'webhookEventsApi')) continue
    route(
      {
        method: 'GET',
        url: `${base}/:hook_id/events`,
        summary: `List the deliveries of a ${noun} hook, newest first`,
        auth: 'required',
        pathParams: HookPath,
        input: HookEventsQuery,
        response: { 200: Type.Array(WebHookLog) },
      },
      (h) => {
        const perPage = h.params.per_page ?? EVENTS_PER_PAGE
        if (perPage < 1 || perPage > EVENTS_PER_PAGE)
          throw new GitLabError(400, { error: 'per_page does not have a valid value' })
        if (!(h.params.status ?? []).every((s) => EVENT_STATUSES.has(s)))
          throw paramError('status does not have a valid value')
        const page = pageOf({ ...h.params, per_page: perPage })
        const { items, total } = hooks.events(
          h.actor,
          owner(h.actor, h.path.id),
          h.path.hook_id,
          h.params.status,
          page.perPage,
          page.offset,
        )
        return h.sendPage({ items, page, total })
      },
    )
  }
}
