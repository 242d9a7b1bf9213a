import type { Db } from './db.js'

export interface ImportRow {
  project_id: number
  user_id: number
  status: 'scheduled' | 'started' | 'finished' | 'failed'
  import_type: string
  correlation_id: string
  source: string
  override_params: string
  overwrite_path: string | null
  error: string | null
  created_at: string
  updated_at: string
}

export interface FailureRow {
  id: number
  project_id: number
  correlation_id: string
  relation_key: string
  relation_index: number
  exception_class: string
  exception_message: string | null
  source: string
  created_at: string
}

/** Project import records and the relations that failed in each run. */
export function importTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO project_imports (project_id, user_id, status, import_type, correlation_id, source, override_params,
       overwrite_path, created_at, updated_at)
     VALUES (@project_id, @user_id, 'scheduled', @import_type, @correlation_id, @source, @override_params,
       @overwrite_path, @now, @now)`,
  )
  const byProject = db.prepare('SELECT * FROM project_imports WHERE project_id = ?')
  const setStatus = db.prepare(
    'UPDATE project_imports SET status = ?, error = ?, updated_at = ? WHERE project_id = ?',
  )
  const moveTo = db.prepare('UPDATE project_imports SET project_id = ? WHERE project_id = ?')
  const unfinished = db.prepare("SELECT * FROM project_imports WHERE status IN ('scheduled', 'started')")
  const addFailure = db.prepare(
    `INSERT INTO import_failures (project_id, correlation_id, relation_key, relation_index, exception_class,
       exception_message, source, created_at)
     VALUES (@project_id, @correlation_id, @relation_key, @relation_index, @exception_class, @exception_message,
       @source, @created_at)`,
  )
  const failures = db.prepare(
    'SELECT * FROM import_failures WHERE project_id = ? AND correlation_id = ? ORDER BY id DESC LIMIT ?',
  )
  return {
    insert: (row: Omit<ImportRow, 'status' | 'error' | 'created_at' | 'updated_at'> & { now: string }) =>
      insert.run(row),
    byProject: (projectId: number) => byProject.get(projectId) as ImportRow | undefined,
    setStatus: (projectId: number, status: ImportRow['status'], error: string | null, now: string) =>
      setStatus.run(status, error, now, projectId),
    /** Re-points an import record at another project (overwrite keeps the new project's record). */
    moveTo: (from: number, to: number) => moveTo.run(to, from),
    unfinished: () => unfinished.all() as ImportRow[],
    addFailure: (row: Omit<FailureRow, 'id'>) => addFailure.run(row),
    /** The newest `limit` failures of one run. */
    failures: (projectId: number, correlationId: string, limit: number) =>
      failures.all(projectId, correlationId, limit) as FailureRow[],
  }
}

/**
 * The writes an import makes that other tables' modules do not offer: project attributes, a
 * milestone with its exported iid, merge requests, award emoji, user look-ups by email, and
 * removing or renaming a project (overwrite).
 */
export function importWriter(db: Db) {
  const byEmail = db.prepare('SELECT id FROM users WHERE email = ? COLLATE NOCASE')
  const byUsername = db.prepare('SELECT id FROM users WHERE username = ?')
  const milestoneIid = db.prepare('SELECT 1 FROM milestones WHERE project_id = ? AND iid = ?')
  const nextMilestoneIid = db.prepare(
    'SELECT COALESCE(MAX(iid), 0) + 1 AS iid FROM milestones WHERE project_id = ?',
  )
  const insertMilestone = db.prepare(
    `INSERT INTO milestones (iid, project_id, title, description, state, start_date, due_date, created_at, updated_at)
     VALUES (@iid, @project_id, @title, @description, @state, @start_date, @due_date, @created_at, @updated_at)`,
  )
  const insertMr = db.prepare(
    `INSERT INTO merge_requests (iid, project_id, title, description, state, author_id, source_branch, target_branch,
       created_at, updated_at, merged_at, closed_at)
     VALUES (@iid, @project_id, @title, @description, @state, @author_id, @source_branch, @target_branch,
       @created_at, @updated_at, @merged_at, @closed_at)`,
  )
  const award = db.prepare(
    'INSERT OR IGNORE INTO award_emoji (issue_id, user_id, name, created_at) VALUES (?, ?, ?, ?)',
  )
  const votes = db.prepare(
    `UPDATE issues SET
       upvotes = (SELECT COUNT(*) FROM award_emoji WHERE issue_id = @id AND name = 'thumbsup'),
       downvotes = (SELECT COUNT(*) FROM award_emoji WHERE issue_id = @id AND name = 'thumbsdown')
     WHERE id = @id`,
  )
  const setProject = db.prepare(
    `UPDATE projects SET description = @description, visibility = @visibility, archived = @archived,
       default_branch = @default_branch, name = @name WHERE id = @id`,
  )
  const rename = db.prepare('UPDATE projects SET path = ?, full_path = ? WHERE id = ?')
  // `UPDATE OR IGNORE`: a user or group the new project already has keeps the new project's row.
  const moveMembers = db.prepare(
    "UPDATE OR IGNORE members SET source_id = @to WHERE source_type = 'project' AND source_id = @from",
  )
  // A bot whose membership moved is the new project's bot now, so its token goes on working there.
  const moveBots = db.prepare(
    `UPDATE bot_users SET source_id = @to WHERE source_type = 'project' AND source_id = @from
       AND user_id IN (SELECT user_id FROM members WHERE source_type = 'project' AND source_id = @to)`,
  )
  const moveShares = db.prepare(
    'UPDATE OR IGNORE project_group_links SET project_id = @to WHERE project_id = @from',
  )
  return {
    /** A user by email (case-insensitive), else by username: how an administrator's import maps members. */
    findUser: (email: string | null, username: string | null) =>
      ((email ? byEmail.get(email) : undefined) ?? (username ? byUsername.get(username) : undefined)) as
        { id: number } | undefined,
    /** True when the project has a milestone with this iid. */
    milestoneIidTaken: (projectId: number, iid: number) => milestoneIid.get(projectId, iid) !== undefined,
    /** Inserts a milestone keeping `iid` when it is free in the project, else the next one. */
    insertMilestone: (m: {
      iid: number | null
      project_id: number
      title: string
      description: string | null
      state: string
      start_date: string | null
      due_date: string | null
      created_at: string
      updated_at: string
    }) => {
      const free = m.iid !== null && m.iid > 0 && !milestoneIid.get(m.project_id, m.iid)
      const iid = free ? m.iid : (nextMilestoneIid.get(m.project_id) as { iid: number }).iid
      return Number(insertMilestone.run({ ...m, iid }).lastInsertRowid)
    },
    insertMergeRequest: (m: Record<string, unknown>) => Number(insertMr.run(m).lastInsertRowid),
    addAward: (issueId: number, userId: number, name: string, createdAt: string) => {
      award.run(issueId, userId, name, createdAt)
      votes.run({ id: issueId })
    },
    setProject: (p: {
      id: number
      description: string | null
      visibility: string
      archived: number
      default_branch: string | null
      name: string
    }) => setProject.run(p),
    renameProject: (id: number, path: string, fullPath: string) => rename.run(path, fullPath, id),
    /**
     * An overwrite's `Projects::MoveAccessService` (`remove_remaining_elements: false`): the old project's
     * members (its access-token bots among them) and group shares that the new project lacks move to it.
     */
    moveAccess: (from: number, to: number) => {
      moveMembers.run({ from, to })
      moveBots.run({ from, to })
      moveShares.run({ from, to })
    },
  }
}
export type ImportWriter = ReturnType<typeof importWriter>
