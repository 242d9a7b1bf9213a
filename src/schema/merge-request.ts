import { Type, type Static } from '@sinclair/typebox'
import { Nullable, Timestamp, UserBasic } from './common.js'
import { Milestone } from './milestone.js'
import { IssueReferences, TaskCompletionStatus, TimeStats } from './issue.js'

const basic = {
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.String({ description: 'opened, merged, closed' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  merged_by: Nullable(UserBasic),
  merge_user: Nullable(UserBasic),
  merged_at: Nullable(Timestamp),
  closed_by: Nullable(UserBasic),
  closed_at: Nullable(Timestamp),
  target_branch: Type.String(),
  source_branch: Type.String(),
  user_notes_count: Type.Integer(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  author: UserBasic,
  assignees: Type.Array(UserBasic),
  assignee: Nullable(UserBasic),
  reviewers: Type.Array(UserBasic),
  source_project_id: Type.Integer(),
  target_project_id: Type.Integer(),
  labels: Type.Array(Type.String()),
  draft: Type.Boolean(),
  work_in_progress: Type.Boolean(),
  milestone: Nullable(Milestone),
  merge_when_pipeline_succeeds: Type.Boolean(),
  merge_status: Type.String(),
  detailed_merge_status: Type.String(),
  sha: Nullable(Type.String()),
  merge_commit_sha: Nullable(Type.String()),
  squash_commit_sha: Nullable(Type.String()),
  discussion_locked: Nullable(Type.Boolean()),
  should_remove_source_branch: Nullable(Type.Boolean()),
  force_remove_source_branch: Nullable(Type.Boolean()),
  prepared_at: Nullable(Timestamp),
  approvals_before_merge: Type.Optional(Nullable(Type.Integer({ description: '`[paid]`' }))),
  reference: Type.String(),
  references: IssueReferences,
  web_url: Type.String(),
  time_stats: TimeStats,
  squash: Type.Boolean(),
  squash_on_merge: Type.Boolean(),
  task_completion_status: TaskCompletionStatus,
  has_conflicts: Type.Boolean(),
  blocking_discussions_resolved: Type.Boolean(),
  imported: Type.Boolean(),
  imported_from: Type.String(),
}

/**
 * `Entities::MergeRequestBasic` (`lib/api/entities/merge_request_basic.rb`): the records of `GET
 * .../closed_by`.
 */
export const MergeRequestBasic = Type.Object(basic, { title: 'MergeRequestBasic' })
export type MergeRequestBasic = Static<typeof MergeRequestBasic>

/** `Entities::DiffRefs`. */
export const DiffRefs = Type.Object({
  base_sha: Nullable(Type.String()),
  head_sha: Nullable(Type.String()),
  start_sha: Nullable(Type.String()),
})

/** GitLab's doc/api/issues.md (`Entities::MergeRequest`): the records of `GET .../related_merge_requests`. */
export const MergeRequest = Type.Object(
  {
    ...basic,
    subscribed: Type.Boolean(),
    changes_count: Nullable(Type.String()),
    latest_build_started_at: Nullable(Timestamp),
    latest_build_finished_at: Nullable(Timestamp),
    first_deployed_to_production_at: Nullable(Timestamp),
    pipeline: Nullable(Type.Object({}, { additionalProperties: true })),
    head_pipeline: Nullable(Type.Object({}, { additionalProperties: true })),
    diff_refs: DiffRefs,
    merge_error: Nullable(Type.String()),
    first_contribution: Type.Boolean(),
    user: Type.Object({ can_merge: Type.Boolean() }),
  },
  { title: 'MergeRequest' },
)
export type MergeRequest = Static<typeof MergeRequest>
