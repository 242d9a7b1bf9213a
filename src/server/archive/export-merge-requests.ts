import { EMULATOR_SIGNATURE, mergeRequestCommits, type MergeRequestRefs } from '../git/objects.js'
import type { ExportReader } from '../store/exports.js'
import type { MergeRequestRow } from '../store/merge-requests.js'
import type { ProjectRow } from '../store/projects.js'

/** What the commits of a merge request row depend on (`mergeRequestCommits`). */
export const mergeRequestRefs = (m: MergeRequestRow): MergeRequestRefs => ({
  iid: m.iid,
  source_branch: m.source_branch,
  target_branch: m.target_branch,
  state: m.state,
})

/**
 * One `merge_requests.ndjson` line (`included_attributes.merge_requests` and the methods
 * `diff_head_sha`, `source_branch_sha`, `target_branch_sha`, `state` of GitLab's
 * `lib/gitlab/import_export/project/import_export.yml`), with its `merge_request_diff`: the head
 * commit on top of the target branch, the commits `project.bundle` holds. Without them GitLab
 * drops the diff (`MergeRequestParser#parse!` keeps only a valid `merge_request_diff`).
 * `merge_when_pipeline_succeeds` is not written: GitLab's import forces it to false.
 */
export function mergeRequestLine(reader: ExportReader, project: ProjectRow): (m: MergeRequestRow) => unknown {
  const shaOf = new Map(reader.refs(project.id).map((r) => [r.name, r.sha]))
  return (m) => {
    const mr = mergeRequestRefs(m)
    const { base, head, merge } = mergeRequestCommits(mr, shaOf.get(mr.target_branch))
    const message = head.body.toString('utf8').split('\n\n').slice(1).join('\n\n')
    const who = { name: EMULATOR_SIGNATURE.name, email: EMULATOR_SIGNATURE.email }
    return {
      iid: mr.iid,
      title: m.title,
      description: m.description,
      state: mr.state,
      author_id: m.author_id,
      source_branch: mr.source_branch,
      target_branch: mr.target_branch,
      source_project_id: m.project_id,
      target_project_id: m.project_id,
      created_at: m.created_at,
      updated_at: m.updated_at,
      merge_status: mr.state === 'opened' ? 'can_be_merged' : 'unchecked',
      merge_commit_sha: merge?.sha ?? null,
      draft: false,
      squash: false,
      discussion_locked: null,
      diff_head_sha: head.sha,
      source_branch_sha: shaOf.get(mr.source_branch) ?? null,
      target_branch_sha: shaOf.get(mr.target_branch) ?? null,
      metrics: { merged_at: m.merged_at, latest_closed_at: m.closed_at },
      notes: [],
      merge_request_diff: {
        state: 'collected',
        created_at: m.created_at,
        updated_at: m.created_at,
        base_commit_sha: base,
        head_commit_sha: head.sha,
        start_commit_sha: base,
        commits_count: 1,
        files_count: 0,
        sorted: true,
        diff_type: 'regular',
        merge_request_diff_commits: [
          {
            relative_order: 0,
            sha: head.sha,
            message,
            authored_date: EMULATOR_SIGNATURE.date,
            committed_date: EMULATOR_SIGNATURE.date,
            author_name: who.name,
            author_email: who.email,
            committer_name: who.name,
            committer_email: who.email,
            trailers: {},
            commit_author: who,
            committer: who,
          },
        ],
        merge_request_diff_files: [],
      },
      label_links: [],
    }
  }
}
