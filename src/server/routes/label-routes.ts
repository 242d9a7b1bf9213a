import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox'
import { Issue } from '../../schema/index.js'
import type { PageOut } from '../grape/pagination.js'
import type { Actor } from '../services/access.js'
import type { IssueListScope } from '../services/issues/list.js'
import type { ApiContext } from './context.js'
import { labelIssueCounts } from './label-counts.js'
import { IdPath } from './paths.js'

type IssueCounts = { open_issues_count: number; closed_issues_count: number }

/** What the label routes of a project and a group differ in; `O` is the owner's row. */
export interface LabelOwner<O, L extends TObject, C extends TObject, U extends TObject> {
  /** The URL's owner segment: `/api/v4/<segment>/:id/labels`. */
  segment: 'projects' | 'groups'
  /** The owner's label service (services/project-labels.ts, services/group-labels.ts). */
  service: {
    labels(
      actor: Actor,
      id: string,
      q: Static<L>,
      countsOf: (owner: O, title: string) => IssueCounts,
    ): PageOut<unknown>
    get(actor: Actor, id: string, ref: string, includeAncestors: boolean): unknown
    create(actor: Actor, id: string, input: Static<C>): unknown
    update(actor: Actor, id: string, ref: string, input: Static<U>): unknown
    remove(actor: Actor, id: string, ref: string): void
    subscribe(actor: Actor, id: string, ref: string, on: boolean): unknown
  }
  /** The issue lists a label's counts are read from. */
  scope(owner: O): IssueListScope
  /** The parameters of each route, and the entity one label is shown as (with and without counts). */
  inputs: { list: L; get: TObject; create: C; update: U; updateByName: TObject; deleteByName: TObject }
  entity: TSchema
  withCounts: TSchema
  /** The one-label path parameter: `label_id` on project routes, `name` on group routes (GitLab's own names). */
  labelParam: 'label_id' | 'name'
  /** The OpenAPI summaries, per route. */
  summaries: Record<
    | 'list'
    | 'get'
    | 'create'
    | 'update'
    | 'remove'
    | 'updateByName'
    | 'removeByName'
    | 'subscribe'
    | 'unsubscribe',
    string
  >
}

/** `:label_id` or `:name`: the label's id or its URL-encoded title (`find_label`). */
const LABEL_PATHS = {
  label_id: Type.Object({ id: Type.String(), label_id: Type.String() }),
  name: Type.Object({ id: Type.String(), name: Type.String() }),
}
const labelOf = (path: { label_id: string } | { name: string }) =>
  'name' in path ? path.name : path.label_id

/** The deprecated forms name the label in their parameters (`params[:label_id] || params[:name]`). */
const named = (p: { label_id?: number; name?: string }) => String(p.label_id ?? p.name)

/**
 * The label routes a project and a group both serve (`lib/api/labels.rb`, `lib/api/group_labels.rb`,
 * `lib/api/subscriptions.rb`): every call authenticates (`before { authenticate! }`).
 */
export function labelRoutes<O, L extends TObject, C extends TObject, U extends TObject>(
  api: ApiContext,
  owner: LabelOwner<O, L, C, U>,
): void {
  const { route } = api
  const { issues } = api.services
  const { service, entity, inputs, summaries } = owner
  const base = `/api/v4/${owner.segment}/:id/labels`
  const LabelPath = LABEL_PATHS[owner.labelParam]

  route(
    {
      method: 'GET',
      url: base,
      summary: summaries.list,
      auth: 'required',
      pathParams: IdPath,
      input: inputs.list,
      // Either record, written in the order the presenter builds it (the counts before `subscribed`).
      response: { 200: Type.Array(Type.Union([entity, owner.withCounts])) },
    },
    (h) => {
      const issueJson = h.reply.compileSerializationSchema(Issue) as (issue: Issue) => string
      return h.sendPage(
        service.labels(h.actor, h.path.id, h.params, (o, title) =>
          labelIssueCounts(issues, h.actor, owner.scope(o), title, issueJson),
        ),
      )
    },
  )

  route(
    {
      method: 'GET',
      url: `${base}/:${owner.labelParam}`,
      summary: summaries.get,
      auth: 'required',
      pathParams: LabelPath,
      input: inputs.get,
      response: { 200: entity },
    },
    (h) =>
      service.get(
        h.actor,
        h.path.id,
        labelOf(h.path),
        (h.params as { include_ancestor_groups?: boolean }).include_ancestor_groups !== false,
      ),
  )

  route(
    {
      method: 'POST',
      url: base,
      summary: summaries.create,
      auth: 'required',
      pathParams: IdPath,
      input: inputs.create,
      response: { 201: entity },
      errors: [409],
    },
    (h) => h.reply.code(201).send(service.create(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: `${base}/:${owner.labelParam}`,
      summary: summaries.update,
      auth: 'required',
      pathParams: LabelPath,
      input: inputs.update,
      response: { 200: entity },
    },
    (h) => service.update(h.actor, h.path.id, labelOf(h.path), h.params),
  )

  route(
    {
      method: 'DELETE',
      url: `${base}/:${owner.labelParam}`,
      summary: summaries.remove,
      auth: 'required',
      pathParams: LabelPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      service.remove(h.actor, h.path.id, labelOf(h.path))
      return h.reply.code(204).send()
    },
  )

  // The forms GitLab deprecated in 12.4 and still serves, the label named in the parameters.
  route(
    {
      method: 'PUT',
      url: base,
      summary: summaries.updateByName,
      auth: 'required',
      pathParams: IdPath,
      input: inputs.updateByName,
      response: { 200: entity },
    },
    // The by-name input is the update's plus `label_id`/`name`, which the service ignores.
    (h) => service.update(h.actor, h.path.id, named(h.params), h.params as Static<U>),
  )

  route(
    {
      method: 'DELETE',
      url: base,
      summary: summaries.removeByName,
      auth: 'required',
      pathParams: IdPath,
      input: inputs.deleteByName,
      response: { 204: Type.Null() },
    },
    (h) => {
      service.remove(h.actor, h.path.id, named(h.params))
      return h.reply.code(204).send()
    },
  )

  for (const [action, on] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const)
    route(
      {
        method: 'POST',
        url: `${base}/:label_id/${action}`,
        summary: on ? summaries.subscribe : summaries.unsubscribe,
        auth: 'required',
        pathParams: Type.Object({ id: Type.String(), label_id: Type.String() }),
        response: { 201: entity, 304: Type.Null() },
      },
      (h) => h.reply.code(201).send(service.subscribe(h.actor, h.path.id, h.path.label_id, on)),
    )
}
