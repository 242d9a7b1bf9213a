import type { MergeRequest, MergeRequestBasic, UserBasic } from '../../schema/index.js'
import type { MergeRequestRow } from '../store/merge-requests.js'
import type { ProjectRow } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { mergeRequestCommits } from '../git/objects.js'
import { countTasks } from '../domain/tasks.js'
import { issuableFields } from './issuable.js'
import { presentUser } from './users.js'

/** What the service loads for a merge request: its author, and the SHA its target branch points to. */
export interface MergeRequestRecords {
  author: UserRow | undefined
  targetSha: string | undefined
}

/** The merge request's commits (real git objects, written to `project.bundle` on export). */
const commitsOf = (row: MergeRequestRow, loaded: MergeRequestRecords) =>
  mergeRequestCommits(row, loaded.targetSha)

/**
 * `Entities::MergeRequestBasic` (`lib/api/entities/merge_request_basic.rb`) of a seeded merge request. Chosen
 * where the seed says nothing: the author merged or closed it, it is mergeable while open, it has no
 * pipeline, labels, milestone, assignees or reviewers.
 */
export function presentMergeRequestBasic(
  instance: Instance,
  row: MergeRequestRow,
  project: ProjectRow,
  ee: boolean,
  loaded: MergeRequestRecords,
): MergeRequestBasic {
  const authorRow = loaded.author
  if (!authorRow) throw new Error(`merge request ${row.id}: author ${row.author_id} is missing`)
  const author: UserBasic = presentUser(authorRow, instance)
  const tasks = countTasks(row.description)
  const merged = row.state === 'merged'
  const commits = commitsOf(row, loaded)
  return {
    ...issuableFields(row),
    merged_by: merged ? author : null,
    merge_user: merged ? author : null,
    merged_at: row.merged_at,
    closed_by: row.state === 'closed' ? author : null,
    closed_at: row.closed_at,
    target_branch: row.target_branch,
    source_branch: row.source_branch,
    user_notes_count: 0,
    upvotes: 0,
    downvotes: 0,
    author,
    assignees: [],
    assignee: null,
    reviewers: [],
    source_project_id: row.project_id,
    target_project_id: row.project_id,
    labels: [],
    draft: false,
    work_in_progress: false,
    milestone: null,
    merge_when_pipeline_succeeds: false,
    merge_status: 'can_be_merged',
    detailed_merge_status: row.state === 'opened' ? 'mergeable' : 'not_open',
    sha: commits.head.sha,
    merge_commit_sha: commits.merge?.sha ?? null,
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: null,
    prepared_at: row.created_at,
    ...(ee ? { approvals_before_merge: null } : {}),
    reference: `!${row.iid}`,
    references: { short: `!${row.iid}`, relative: `!${row.iid}`, full: `${project.full_path}!${row.iid}` },
    web_url: `${instance.baseUrl}/${project.full_path}/-/merge_requests/${row.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: false,
    squash_on_merge: false,
    task_completion_status: { count: tasks.total, completed_count: tasks.done },
    has_conflicts: false,
    blocking_discussions_resolved: true,
    imported: false,
    imported_from: 'none',
  }
}

/** `Entities::MergeRequest` (GitLab's doc/api/issues.md): the basic record plus what single reads add. */
export function presentMergeRequest(
  instance: Instance,
  row: MergeRequestRow,
  project: ProjectRow,
  viewer: { subscribed: boolean; canMerge: boolean },
  ee: boolean,
  loaded: MergeRequestRecords,
): MergeRequest {
  const basic = presentMergeRequestBasic(instance, row, project, ee, loaded)
  const { base } = commitsOf(row, loaded)
  return {
    ...basic,
    subscribed: viewer.subscribed,
    changes_count: '0',
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: { base_sha: base, head_sha: basic.sha, start_sha: base },
    merge_error: null,
    first_contribution: false,
    user: { can_merge: viewer.canMerge },
  }
}
