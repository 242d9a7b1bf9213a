import { Type } from '@sinclair/typebox'
import {
  GroupLabel,
  GroupLabelCreate,
  GroupLabelDeleteByName,
  GroupLabelUpdate,
  GroupLabelUpdateByName,
  GroupLabelWithCounts,
  PageQuery,
} from '../../schema/index.js'
import { boolParam } from '../../schema/params.js'
import type { ApiContext } from './context.js'
import { labelRoutes } from './label-routes.js'

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

/** A group's labels (services/group-labels.ts; `lib/api/group_labels.rb`, `lib/api/subscriptions.rb`). */
export function groupLabelRoutes(api: ApiContext): void {
  labelRoutes(api, {
    segment: 'groups',
    service: api.services.groupLabels,
    scope: (group) => ({ kind: 'group', group }),
    inputs: {
      list: GroupLabelQuery,
      get: GroupLabelGetQuery,
      create: GroupLabelCreate,
      update: GroupLabelUpdate,
      updateByName: GroupLabelUpdateByName,
      deleteByName: GroupLabelDeleteByName,
    },
    entity: GroupLabel,
    withCounts: GroupLabelWithCounts,
    labelParam: 'name',
    summaries: {
      list: "List a group's labels (and its ancestors')",
      get: 'Read one group label by id or title',
      create: 'Create a group label (Planner and up)',
      update: 'Rename, recolor or describe a group label (Planner and up)',
      remove: 'Delete a group label (Planner and up); its issues lose it',
      updateByName: 'Edit the group label named by `label_id` or `name` (deprecated form)',
      removeByName: 'Delete the group label named by `name` (deprecated form)',
      subscribe: 'Subscribe to a group label (304 when already)',
      unsubscribe: 'Unsubscribe from a group label (304 when not)',
    },
  })
}
