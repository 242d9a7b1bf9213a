import type { Db } from './db.js'

/** A status an external CI system posted on a commit (migration 36). */
export interface CommitStatusRow {
  id: number
  pipeline_id: number
  name: string
  ref: string
  status: string
  target_url: string | null
  description: string | null
  coverage: number | null
  user_id: number | null
  retried: number
  created_at: string
  started_at: string | null
  finished_at: string | null
}
export type NewCommitStatus = Omit<CommitStatusRow, 'id' | 'retried'>

/**
 * One row of a commit's statuses as `GET .../commits/:sha/statuses` lists them: a posted status, or a
 * job (build or bridge) of one of the commit's pipelines, with its pipeline's sha, ref and user.
 */
export interface StatusListRow {
  id: number
  sha: string
  ref: string
  status: string
  name: string
  stage: string
  target_url: string | null
  description: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
  allow_failure: number
  coverage: number | null
  pipeline_id: number
  user_id: number | null
}

/** The filters of a commit's status list; `undefined` filters nothing. */
export interface StatusListFilter {
  projectId: number
  sha: string
  ref?: string
  stage?: string
  name?: string
  pipelineId?: number
  /** Retried ones too. */
  all: boolean
  order: 'id' | 'pipeline_id'
  sort: 'asc' | 'desc'
}

/**
 * The next id of a job or a posted status: one sequence for both, as GitLab's `ci_builds` holds both,
 * so that a commit's list never shows one id twice.
 */
export const NEXT_CI_ID = `(SELECT COALESCE(MAX(id), 0) + 1 FROM
  (SELECT MAX(id) AS id FROM ci_builds UNION ALL SELECT MAX(id) FROM commit_statuses))`

// Jobs and posted statuses as one relation: GitLab keeps both in `ci_builds` (`CommitStatus`).
const EVERY_STATUS = `
  SELECT b.id, p.sha, p.ref, b.status, b.name, b.stage, NULL AS target_url, NULL AS description, b.created_at,
    b.started_at, b.finished_at,
    (COALESCE(s.allow_failure, 0) = 1 OR json_extract(d.definition, '$.allow_failure') = 1) AS allow_failure,
    b.coverage, b.pipeline_id, p.user_id, b.retried, p.project_id
  FROM ci_builds b JOIN pipelines p ON p.id = b.pipeline_id
    LEFT JOIN ci_job_states s ON s.build_id = b.id LEFT JOIN ci_job_definitions d ON d.build_id = b.id
  UNION ALL
  SELECT c.id, p.sha, c.ref, c.status, c.name, 'external', c.target_url, c.description, c.created_at,
    c.started_at, c.finished_at, 0, c.coverage, c.pipeline_id, c.user_id, c.retried, p.project_id
  FROM commit_statuses c JOIN pipelines p ON p.id = c.pipeline_id`

function where(f: StatusListFilter): { sql: string; args: (string | number)[] } {
  const parts = ['project_id = ?', 'sha = ?']
  const args: (string | number)[] = [f.projectId, f.sha]
  const add = (sql: string, value: string | number | undefined) => {
    if (value === undefined) return
    parts.push(sql)
    args.push(value)
  }
  add('ref = ?', f.ref)
  add('stage = ?', f.stage)
  add('name = ?', f.name)
  add('pipeline_id = ?', f.pipelineId)
  if (!f.all) parts.push('retried = 0')
  return { sql: parts.join(' AND '), args }
}

/** Posted commit statuses (`commit_statuses`) and a commit's list of every status; rows in and out, no rules. */
export function commitStatusTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO commit_statuses (id, pipeline_id, name, ref, status, target_url, description, coverage, user_id,
       created_at, started_at, finished_at)
     VALUES (${NEXT_CI_ID}, @pipeline_id, @name, @ref, @status, @target_url, @description, @coverage, @user_id, @created_at,
       @started_at, @finished_at)`,
  )
  const update = db.prepare(
    `UPDATE commit_statuses SET status = @status, target_url = @target_url, description = @description,
       coverage = @coverage, started_at = @started_at, finished_at = @finished_at WHERE id = @id`,
  )
  const open = db.prepare(
    `SELECT * FROM commit_statuses WHERE pipeline_id = ? AND name = ? AND ref = ? AND user_id IS ?
       AND status IN ('pending', 'running') ORDER BY id LIMIT 1`,
  )
  const retryOthers = db.prepare(
    'UPDATE commit_statuses SET retried = 1 WHERE pipeline_id = ? AND name = ? AND id <> ? AND retried = 0',
  )
  const current = db.prepare(
    'SELECT status, started_at FROM commit_statuses WHERE pipeline_id = ? AND retried = 0',
  )
  const byId = db.prepare('SELECT * FROM commit_statuses WHERE id = ?')
  const coverage = db
    .prepare(
      `SELECT AVG(coverage) FROM (
         SELECT coverage FROM commit_statuses WHERE pipeline_id = ? AND retried = 0
         UNION ALL SELECT coverage FROM ci_builds WHERE pipeline_id = ? AND retried = 0)`,
    )
    .pluck()
  return {
    insert: (s: NewCommitStatus) => Number(insert.run(s).lastInsertRowid),
    update: (s: CommitStatusRow) => void update.run(s),
    get: (id: number) => byId.get(id) as CommitStatusRow | undefined,
    /** The pending or running status of this name, ref and user in the pipeline (the one a post moves). */
    open: (pipelineId: number, name: string, ref: string, userId: number | null) =>
      open.get(pipelineId, name, ref, userId) as CommitStatusRow | undefined,
    /** Marks the pipeline's other statuses of this name retried (`update_older_statuses_retried!`). */
    retryOthers: (pipelineId: number, name: string, id: number) => void retryOthers.run(pipelineId, name, id),
    /** The pipeline's current (not retried) posted statuses, for its composite status and times. */
    current: (pipelineId: number) =>
      current.all(pipelineId) as Pick<CommitStatusRow, 'status' | 'started_at'>[],
    /** The mean coverage of the pipeline's current jobs and posted statuses that have one (null: none has). */
    coverage: (pipelineId: number) => coverage.get(pipelineId, pipelineId) as number | null,
    count: (f: StatusListFilter) => {
      const w = where(f)
      return db
        .prepare(`SELECT COUNT(*) FROM (${EVERY_STATUS}) WHERE ${w.sql}`)
        .pluck()
        .get(...w.args) as number
    },
    page: (f: StatusListFilter, limit: number, offset: number) => {
      const w = where(f)
      const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
      const order = f.order === 'pipeline_id' ? `pipeline_id ${dir}, id ${dir}` : `id ${dir}`
      return db
        .prepare(`SELECT * FROM (${EVERY_STATUS}) WHERE ${w.sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .all(...w.args, limit, offset) as StatusListRow[]
    },
  }
}
export type CommitStatusTable = ReturnType<typeof commitStatusTable>
