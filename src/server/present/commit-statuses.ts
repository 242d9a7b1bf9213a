import type { CommitStatus, PipelineStatus } from '../../schema/index.js'
import type { StatusListRow } from '../store/commit-statuses.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { presentUser } from './users.js'

/**
 * `Entities::CommitStatus` (`lib/api/entities/commit_status.rb`), in its key order; `author` is the
 * status's user (a job's: its pipeline's), from `users`, loaded once per page.
 */
export function presentCommitStatuses(
  rows: StatusListRow[],
  users: ReadonlyMap<number, UserRow>,
  instance: Instance,
): CommitStatus[] {
  return rows.map((r) => {
    const author = r.user_id === null ? undefined : users.get(r.user_id)
    return {
      id: r.id,
      sha: r.sha,
      ref: r.ref,
      status: r.status as PipelineStatus,
      name: r.name,
      target_url: r.target_url,
      description: r.description,
      created_at: r.created_at,
      started_at: r.started_at,
      finished_at: r.finished_at,
      allow_failure: r.allow_failure === 1,
      coverage: r.coverage,
      pipeline_id: r.pipeline_id,
      author: author ? presentUser(author, instance) : null,
    }
  })
}
