import type { Db } from './db.js'

export interface MergeRequestRow {
  id: number
  iid: number
  project_id: number
  title: string
  description: string | null
  state: 'opened' | 'merged' | 'closed'
  author_id: number
  source_branch: string
  target_branch: string
  created_at: string
  updated_at: string
  merged_at: string | null
  closed_at: string | null
}

/** Merge requests (seeded) and the issues they mention or close. */
export function mergeRequestTable(db: Db) {
  const related = db.prepare(
    `SELECT m.* FROM merge_requests m JOIN merge_request_issues l ON l.merge_request_id = m.id
     WHERE l.issue_id = ? ORDER BY m.project_id, m.iid`,
  )
  const closing = db.prepare(
    `SELECT m.* FROM merge_requests m JOIN merge_request_issues l ON l.merge_request_id = m.id
     WHERE l.issue_id = ? AND l.closes = 1 ORDER BY m.created_at DESC, m.id DESC`,
  )
  const refSha = db.prepare(
    "SELECT sha FROM project_refs WHERE project_id = ? AND kind = 'branch' AND name = ?",
  )
  const insert = db.prepare(
    `INSERT INTO merge_requests (iid, project_id, title, description, state, author_id, source_branch, target_branch,
       created_at, updated_at, merged_at, closed_at)
     VALUES (@iid, @project_id, @title, @description, @state, @author_id, @source_branch, @target_branch,
       @created_at, @updated_at, @merged_at, @closed_at)`,
  )
  const openBranches = db.prepare(
    `SELECT source_branch AS name FROM merge_requests WHERE project_id = ? AND state = 'opened'
     UNION SELECT target_branch FROM merge_requests WHERE project_id = ? AND state = 'opened'`,
  )
  const link = db.prepare(
    'INSERT OR REPLACE INTO merge_request_issues (merge_request_id, issue_id, closes) VALUES (?, ?, ?)',
  )
  return {
    insert: (mr: Omit<MergeRequestRow, 'id'>) => Number(insert.run(mr).lastInsertRowid),
    /** Records that the merge request mentions the issue, or closes it when merged. */
    link: (mergeRequestId: number, issueId: number, closes: boolean) =>
      link.run(mergeRequestId, issueId, closes ? 1 : 0),
    /** The commit a branch of the project points at, if the project has that branch. */
    refSha: (projectId: number, ref: string) =>
      (refSha.get(projectId, ref) as { sha: string } | undefined)?.sha,
    /** The source and target branches of the project's open merge requests. */
    openBranchNames: (projectId: number) =>
      (openBranches.all(projectId, projectId) as { name: string }[]).map((r) => r.name),
    /** Merge requests that mention or close the issue, by project and iid. */
    relatedTo: (issueId: number) => related.all(issueId) as MergeRequestRow[],
    /** Merge requests that close the issue when merged, newest first. */
    closing: (issueId: number) => closing.all(issueId) as MergeRequestRow[],
  }
}
