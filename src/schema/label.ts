import { Type, type Static } from '@sinclair/typebox'
import { Nullable } from './common.js'

/** GitLab's doc/api/issues.md: a label as `with_labels_details=true` shows it. */
export const LabelDetail = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.String(),
    description: Nullable(Type.String()),
    description_html: Type.String(),
    text_color: Type.String(),
  },
  { title: 'LabelDetail' },
)
export type LabelDetail = Static<typeof LabelDetail>

/**
 * `Entities::ProjectLabel` (`lib/api/entities/project_label.rb` over `Label` and `LabelBasic`): a project's
 * label as `/projects/:id/labels` shows it. `priority` is the project's (null when unprioritised).
 */
export const ProjectLabel = Type.Object(
  {
    ...LabelDetail.properties,
    subscribed: Type.Boolean(),
    priority: Nullable(Type.Integer()),
    is_project_label: Type.Boolean(),
  },
  { title: 'ProjectLabel' },
)
export type ProjectLabel = Static<typeof ProjectLabel>

/** `ProjectLabel` with `with_counts=true`: the issue and merge request counts come before `subscribed`. */
export const ProjectLabelWithCounts = Type.Object(
  {
    ...LabelDetail.properties,
    open_issues_count: Type.Integer(),
    closed_issues_count: Type.Integer(),
    open_merge_requests_count: Type.Integer(),
    subscribed: Type.Boolean(),
    priority: Nullable(Type.Integer()),
    is_project_label: Type.Boolean(),
  },
  { title: 'ProjectLabelWithCounts' },
)
export type ProjectLabelWithCounts = Static<typeof ProjectLabelWithCounts>

/** `Entities::GroupLabel` (`lib/api/entities/group_label.rb`, `Entities::Label`): a group's label. */
export const GroupLabel = Type.Object(
  { ...LabelDetail.properties, subscribed: Type.Boolean() },
  { title: 'GroupLabel' },
)
export type GroupLabel = Static<typeof GroupLabel>

/** `GroupLabel` with `with_counts=true`: the counts come before `subscribed`. */
export const GroupLabelWithCounts = Type.Object(
  {
    ...LabelDetail.properties,
    open_issues_count: Type.Integer(),
    closed_issues_count: Type.Integer(),
    open_merge_requests_count: Type.Integer(),
    subscribed: Type.Boolean(),
  },
  { title: 'GroupLabelWithCounts' },
)
export type GroupLabelWithCounts = Static<typeof GroupLabelWithCounts>

/** `POST /groups/:id/labels` (`label_create_params`: no priority, which is a project's). */
export const GroupLabelCreate = Type.Object({
  name: Type.String(),
  color: Type.String({ description: '#RRGGBB, #RGB or a CSS color name' }),
  description: Type.Optional(Type.String()),
})
export type GroupLabelCreate = Static<typeof GroupLabelCreate>

/** `PUT /groups/:id/labels/:name` (`group_label_update_params`): at least one of them. */
export const GroupLabelUpdate = Type.Object(
  {
    new_name: Type.Optional(Type.String()),
    color: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
  },
  { 'x-at-least-one-of': ['new_name', 'color', 'description'] },
)
export type GroupLabelUpdate = Static<typeof GroupLabelUpdate>

/** `PUT /groups/:id/labels` (deprecated in 12.4, still served): the label by `label_id` or `name`. */
export const GroupLabelUpdateByName = Type.Object(
  {
    label_id: Type.Optional(Type.Integer()),
    name: Type.Optional(Type.String()),
    ...GroupLabelUpdate.properties,
  },
  { 'x-at-least-one-of': GroupLabelUpdate['x-at-least-one-of'], 'x-exactly-one-of': ['label_id', 'name'] },
)

/** `DELETE /groups/:id/labels` (deprecated, still served): `name` required, as the group form has it. */
export const GroupLabelDeleteByName = Type.Object({ name: Type.String() })

/** `POST /projects/:id/labels` (`lib/api/helpers/label_helpers.rb` `label_create_params`). */
export const LabelCreate = Type.Object({
  name: Type.String(),
  color: Type.String({ description: '#RRGGBB, #RGB or a CSS color name' }),
  description: Type.Optional(Type.String()),
  priority: Type.Optional(Type.Integer({ description: 'blank: none' })),
})
/** Grape reads a blank `priority` as nil: null here. */
export type LabelCreate = Omit<Static<typeof LabelCreate>, 'priority'> & { priority?: number | null }

/** `PUT /projects/:id/labels/:label_id` (`project_label_update_params`): at least one of them. */
export const LabelUpdate = Type.Object(
  {
    new_name: Type.Optional(Type.String()),
    color: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    priority: Type.Optional(Type.Integer({ description: 'blank: no priority' })),
  },
  { 'x-at-least-one-of': ['new_name', 'color', 'description', 'priority'] },
)
export type LabelUpdate = Omit<Static<typeof LabelUpdate>, 'priority'> & { priority?: number | null }

/** The label of the deprecated `PUT` and `DELETE /projects/:id/labels` (GitLab 12.4): by id or by name, not both. */
const labelByIdOrName = { label_id: Type.Optional(Type.Integer()), name: Type.Optional(Type.String()) }

/** `PUT /projects/:id/labels` (deprecated, still served; python-gitlab 3.x edits labels with it). */
export const LabelUpdateByName = Type.Object(
  { ...labelByIdOrName, ...LabelUpdate.properties },
  { 'x-at-least-one-of': LabelUpdate['x-at-least-one-of'], 'x-exactly-one-of': ['label_id', 'name'] },
)

/** `DELETE /projects/:id/labels` (deprecated, still served). */
export const LabelDeleteByName = Type.Object(labelByIdOrName, { 'x-exactly-one-of': ['label_id', 'name'] })
