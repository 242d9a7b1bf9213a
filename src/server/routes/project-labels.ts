import { Type } from '@sinclair/typebox'
import {
  Issue,
  LabelCreate,
  LabelDeleteByName,
  LabelUpdate,
  LabelUpdateByName,
  PageQuery,
  ProjectLabel,
  ProjectLabelWithCounts,
} from '../../schema/index.js'
import { boolParam } from '../../schema/params.js'
import type { ApiContext } from './context.js'
import { labelIssueCounts } from './label-counts.js'
import { IdPath } from './paths.js'

/** `include_ancestor_groups` (default true) adds the labels of the project's groups. */
const LabelQuery = Type.Object(
  {
    with_counts: Type.Optional(boolParam({ default: false })),
    include_ancestor_groups: Type.Optional(boolParam({ default: true })),
    search: Type.Optional(Type.String()),
    ...PageQuery.properties,
  },
  { title: 'LabelListQuery' },
)
const LabelGetQuery = Type.Object({ include_ancestor_groups: Type.Optional(boolParam({ default: true })) })
/** `:label_id`: the label's id or its URL-encoded title (`find_label`). */
const LabelPath = Type.Object({ id: Type.String(), label_id: Type.String() })

/**
 * A project's labels (services/project-labels.ts; `lib/api/labels.rb` and `lib/api/subscriptions.rb`):
 * every call authenticates (`before { authenticate! }`).
 */
export function projectLabelRoutes(api: ApiContext): void {
  const { route } = api
  const { projectLabels, issues } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/labels',
      summary: "List a project's labels",
      auth: 'required',
      pathParams: IdPath,
      input: LabelQuery,
      // Either record, written in the order the presenter builds it (the counts before `subscribed`).
      response: { 200: Type.Array(Type.Union([ProjectLabel, ProjectLabelWithCounts])) },
    },
    (h) => {
      const issueJson = h.reply.compileSerializationSchema(Issue) as (issue: Issue) => string
      return h.sendPage(
        projectLabels.labels(h.actor, h.path.id, h.params, (project, title) =>
          labelIssueCounts(issues, h.actor, { kind: 'project', project }, title, issueJson),
        ),
      )
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/labels/:label_id',
      summary: 'Read one label by id or title',
      auth: 'required',
      pathParams: LabelPath,
      input: LabelGetQuery,
      response: { 200: ProjectLabel },
    },
    (h) => projectLabels.get(h.actor, h.path.id, h.path.label_id, h.params.include_ancestor_groups !== false),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/labels',
      summary: 'Create a label (Planner and up)',
      auth: 'required',
      pathParams: IdPath,
      input: LabelCreate,
      response: { 201: ProjectLabel },
      errors: [409],
    },
    (h) => h.reply.code(201).send(projectLabels.create(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/labels/:label_id',
      summary: 'Rename, recolor, describe or prioritize a label (Planner and up)',
      auth: 'required',
      pathParams: LabelPath,
      input: LabelUpdate,
      response: { 200: ProjectLabel },
    },
    (h) => projectLabels.update(h.actor, h.path.id, h.path.label_id, h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/labels/:label_id',
      summary: 'Delete a label (Planner and up); its issues lose it',
      auth: 'required',
      pathParams: LabelPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      projectLabels.remove(h.actor, h.path.id, h.path.label_id)
      return h.reply.code(204).send()
    },
  )

  // The forms GitLab deprecated in 12.4 and still serves, the label named in the parameters
  // (`params[:label_id] || params[:name]`).
  const named = (p: { label_id?: number; name?: string }) => String(p.label_id ?? p.name)
  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/labels',
      summary: 'Edit the label named by `label_id` or `name` (deprecated form)',
      auth: 'required',
      pathParams: IdPath,
      input: LabelUpdateByName,
      response: { 200: ProjectLabel },
    },
    (h) => projectLabels.update(h.actor, h.path.id, named(h.params), h.params),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/labels',
      summary: 'Delete the label named by `label_id` or `name` (deprecated form)',
      auth: 'required',
      pathParams: IdPath,
      input: LabelDeleteByName,
      response: { 204: Type.Null() },
    },
    (h) => {
      projectLabels.remove(h.actor, h.path.id, named(h.params))
      return h.reply.code(204).send()
    },
  )

  for (const [action, subscribed] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const)
    route(
      {
        method: 'POST',
        url: `/api/v4/projects/:id/labels/:label_id/${action}`,
        summary: subscribed
          ? 'Subscribe to a label (304 when already)'
          : 'Unsubscribe from a label (304 when not)',
        auth: 'required',
        pathParams: LabelPath,
        response: { 201: ProjectLabel, 304: Type.Null() },
      },
      (h) => h.reply.code(201).send(projectLabels.subscribe(h.actor, h.path.id, h.path.label_id, subscribed)),
    )
}
