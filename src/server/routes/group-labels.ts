import { Type } from '@sinclair/typebox'
import {
  GroupLabel,
  GroupLabelCreate,
  GroupLabelDeleteByName,
  GroupLabelUpdate,
  GroupLabelUpdateByName,
  GroupLabelWithCounts,
  Issue,
  PageQuery,
} from '../../schema/index.js'
import { boolParam } from '../../schema/params.js'
import type { ApiContext } from './context.js'
import { labelIssueCounts } from './label-counts.js'
import { IdPath } from './paths.js'

const GroupLabelQuery = Type.Object(
  {
    with_counts: Type.Optional(boolParam({ default: false })),
    include_ancestor_groups: Type.Optional(boolParam({ default: true })),
    include_descendant_groups: Type.Optional(boolParam({ default: false })),
    only_group_labels: Type.Optional(boolParam({ default: true })),
    search: Type.Optional(Type.String()),
    ...PageQuery.properties,
  },
  { title: 'GroupLabelListQuery' },
)
const GroupLabelGetQuery = Type.Object({
  include_ancestor_groups: Type.Optional(boolParam({ default: true })),
  include_descendant_groups: Type.Optional(boolParam({ default: false })),
  only_group_labels: Type.Optional(boolParam({ default: true })),
})
/** `:name`: the label's id or its URL-encoded title (`find_label`). */
const GroupLabelPath = Type.Object({ id: Type.String(), name: Type.String() })

/**
 * A group's labels (services/group-labels.ts; `lib/api/group_labels.rb`, `lib/api/subscriptions.rb`):
 * every call authenticates (`before { authenticate! }`).
 */
export function groupLabelRoutes(api: ApiContext): void {
  const { route } = api
  const { groupLabels, issues } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/labels',
      summary: "List a group's labels (and its ancestors')",
      auth: 'required',
      pathParams: IdPath,
      input: GroupLabelQuery,
      response: { 200: Type.Array(Type.Union([GroupLabel, GroupLabelWithCounts])) },
    },
    (h) => {
      const issueJson = h.reply.compileSerializationSchema(Issue) as (issue: Issue) => string
      return h.sendPage(
        groupLabels.labels(h.actor, h.path.id, h.params, (group, title) =>
          labelIssueCounts(issues, h.actor, { kind: 'group', group }, title, issueJson),
        ),
      )
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/labels/:name',
      summary: 'Read one group label by id or title',
      auth: 'required',
      pathParams: GroupLabelPath,
      input: GroupLabelGetQuery,
      response: { 200: GroupLabel },
    },
    (h) => groupLabels.get(h.actor, h.path.id, h.path.name, h.params.include_ancestor_groups !== false),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/groups/:id/labels',
      summary: 'Create a group label (Planner and up)',
      auth: 'required',
      pathParams: IdPath,
      input: GroupLabelCreate,
      response: { 201: GroupLabel },
      errors: [409],
    },
    (h) => h.reply.code(201).send(groupLabels.create(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/groups/:id/labels/:name',
      summary: 'Rename, recolor or describe a group label (Planner and up)',
      auth: 'required',
      pathParams: GroupLabelPath,
      input: GroupLabelUpdate,
      response: { 200: GroupLabel },
    },
    (h) => groupLabels.update(h.actor, h.path.id, h.path.name, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/groups/:id/labels/:name',
      summary: 'Delete a group label (Planner and up); its issues lose it',
      auth: 'required',
      pathParams: GroupLabelPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      groupLabels.remove(h.actor, h.path.id, h.path.name)
      return h.reply.code(204).send()
    },
  )

  // The forms GitLab deprecated in 12.4 and still serves, the label named in the parameters.
  route(
    {
      method: 'PUT',
      url: '/api/v4/groups/:id/labels',
      summary: 'Edit the group label named by `label_id` or `name` (deprecated form)',
      auth: 'required',
      pathParams: IdPath,
      input: GroupLabelUpdateByName,
      response: { 200: GroupLabel },
    },
    (h) => groupLabels.update(h.actor, h.path.id, String(h.params.label_id ?? h.params.name), h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/groups/:id/labels',
      summary: 'Delete the group label named by `name` (deprecated form)',
      auth: 'required',
      pathParams: IdPath,
      input: GroupLabelDeleteByName,
      response: { 204: Type.Null() },
    },
    (h) => {
      groupLabels.remove(h.actor, h.path.id, h.params.name)
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
        url: `/api/v4/groups/:id/labels/:label_id/${action}`,
        summary: on
          ? 'Subscribe to a group label (304 when already)'
          : 'Unsubscribe from a group label (304 when not)',
        auth: 'required',
        pathParams: Type.Object({ id: Type.String(), label_id: Type.String() }),
        response: { 201: GroupLabel, 304: Type.Null() },
      },
      (h) => h.reply.code(201).send(groupLabels.subscribe(h.actor, h.path.id, h.path.label_id, on)),
    )
}
