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
