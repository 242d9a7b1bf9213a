import { Type } from '@sinclair/typebox'
import {
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
import { labelRoutes } from './label-routes.js'

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

/** A project's labels (services/project-labels.ts; `lib/api/labels.rb`, `lib/api/subscriptions.rb`). */
export function projectLabelRoutes(api: ApiContext): void {
  labelRoutes(api, {
    segment: 'projects',
    service: api.services.projectLabels,
    scope: (project) => ({ kind: 'project', project }),
    inputs: {
      list: LabelQuery,
      get: LabelGetQuery,
      create: LabelCreate,
      update: LabelUpdate,
      updateByName: LabelUpdateByName,
      deleteByName: LabelDeleteByName,
    },
    entity: ProjectLabel,
    withCounts: ProjectLabelWithCounts,
    labelParam: 'label_id',
    summaries: {
      list: "List a project's labels",
      get: 'Read one label by id or title',
      create: 'Create a label (Planner and up)',
      update: 'Rename, recolor, describe or prioritize a label (Planner and up)',
      remove: 'Delete a label (Planner and up); its issues lose it',
      updateByName: 'Edit the label named by `label_id` or `name` (deprecated form)',
      removeByName: 'Delete the label named by `label_id` or `name` (deprecated form)',
      subscribe: 'Subscribe to a label (304 when already)',
      unsubscribe: 'Unsubscribe from a label (304 when not)',
    },
  })
}
