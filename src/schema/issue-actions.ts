import { Type, type Static } from '@sinclair/typebox'

/** `PUT .../reorder` (`lib/api/issues.rb`), global issue ids; at least one is required. */
export const IssueReorder = Type.Object(
  {
    move_after_id: Type.Optional(Type.Integer({ description: 'the issue to place after (below) this one' })),
    move_before_id: Type.Optional(
      Type.Integer({ description: 'the issue to place before (above) this one' }),
    ),
  },
  { title: 'IssueReorder', 'x-at-least-one-of': ['move_after_id', 'move_before_id'] },
)
export type IssueReorder = Static<typeof IssueReorder>

/** `POST .../move` (`lib/api/issues.rb`). */
export const IssueMove = Type.Object({ to_project_id: Type.Integer() }, { title: 'IssueMove' })
export type IssueMove = Static<typeof IssueMove>

/** GitLab's doc/api/issues.md: `POST .../time_estimate`. */
export const TimeEstimateInput = Type.Object(
  { duration: Type.String({ description: 'GitLab duration, e.g. 3h30m' }) },
  { title: 'TimeEstimateInput' },
)
export type TimeEstimateInput = Static<typeof TimeEstimateInput>

/** GitLab's doc/api/issues.md: `POST .../add_spent_time`; a leading `-` subtracts. */
export const SpentTimeInput = Type.Object(
  {
    duration: Type.String({ description: 'GitLab duration, e.g. 1h or -30m' }),
    summary: Type.Optional(Type.String({ description: 'at most 255 characters' })),
  },
  { title: 'SpentTimeInput' },
)
export type SpentTimeInput = Static<typeof SpentTimeInput>
