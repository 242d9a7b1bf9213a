import { COMPLETED_STATUSES } from '../../schema/pipeline.js'
import { NEXT_CI_ID } from './commit-statuses.js'
import type { Db, Statement } from './db.js'
import type { TokenDigest } from './token-digests.js'
import type { RefKind } from './projects.js'

export interface PipelineRow {
  id: number
  iid: number
  project_id: number
  ref: string
  sha: string
  tag: number
  status: string
  source: string
  user_id: number | null
  trigger_id: number | null
  upstream_pipeline_id: number | null
  upstream_job_id: number | null
  created_at: string
  updated_at: string
  started_at: string | null
  finished_at: string | null
}
export type NewPipeline = Omit<PipelineRow, 'id' | 'iid' | 'started_at' | 'finished_at'>

export interface JobRow {
  id: number
  pipeline_id: number
  name: string
  stage: string
  position: number
  status: string
  /** What the job ends as when it runs out its time: success, failed, canceled or manual. */
  outcome: string
  duration_ms: number
  token_digest: string
  token_encrypted: string
  retried: number
  failure_reason: string | null
  created_at: string
  queued_at: string | null
  started_at: string | null
  finished_at: string | null
  due_at: string | null
  /** What its trace reported through its `coverage:` expression (migration 39), once finished. */
  coverage: number | null
}
export type NewJob = Omit<JobRow, 'id' | 'token_digest' | 'retried' | 'failure_reason' | 'coverage'> & {
  token: string
}

export interface VariableRow {
  key: string
  value: string
  variable_type: string
}

/** Filters of `GET /projects/:id/pipelines`, already checked; `order` is a whitelisted column. */
export interface PipelineFilter {
  projectId: number
  statuses?: string[]
  ref?: string
  sha?: string
  source?: string
  userId?: number
  tag?: boolean
  updatedBefore?: string
  updatedAfter?: string
  createdBefore?: string
  createdAfter?: string
  /** The latest pipeline of each branch or each tag of the project (`scope=branches|tags`). */
  latestPerRef?: RefKind
  /** `PipelinesFinder#by_pipeline_schedules`: the pipelines one schedule made (migration 38). */
  scheduleId?: number
  /** `PipelinesFinder#by_yaml_errors`: with (true) or without (false) a kept configuration error. */
  yamlErrors?: boolean
  none?: boolean
  order: 'id' | 'status' | 'ref' | 'updated_at' | 'user_id'
  sort: 'asc' | 'desc'
}

function where(f: PipelineFilter): { sql: string; args: unknown[] } {
  const parts = ['project_id = ?']
  const args: unknown[] = [f.projectId]
  const add = (sql: string, ...values: unknown[]) => {
    parts.push(sql)
    args.push(...values)
  }
  if (f.none) add('0')
  if (f.statuses) add(`status IN (${f.statuses.map(() => '?').join(',')})`, ...f.statuses)
  if (f.ref !== undefined) add('ref = ?', f.ref)
  if (f.sha !== undefined) add('sha = ?', f.sha)
  if (f.source !== undefined) add('source = ?', f.source)
  if (f.userId !== undefined) add('user_id = ?', f.userId)
  if (f.tag !== undefined) add('tag = ?', f.tag ? 1 : 0)
  if (f.scheduleId !== undefined)
    add('id IN (SELECT pipeline_id FROM ci_pipeline_schedule_pipelines WHERE schedule_id = ?)', f.scheduleId)
  if (f.yamlErrors !== undefined)
    add(`id ${f.yamlErrors ? '' : 'NOT '}IN (SELECT pipeline_id FROM ci_pipeline_errors)`)
  if (f.updatedBefore) add('updated_at < ?', f.updatedBefore)
  if (f.updatedAfter) add('updated_at > ?', f.updatedAfter)
  if (f.createdBefore) add('created_at < ?', f.createdBefore)
  if (f.createdAfter) add('created_at > ?', f.createdAfter)
  if (f.latestPerRef)
    add(
      `id IN (SELECT MAX(id) FROM pipelines WHERE project_id = ? AND ref IN
         (SELECT name FROM project_refs WHERE project_id = ? AND kind = ?) GROUP BY ref)`,
      f.projectId,
      f.projectId,
      f.latestPerRef,
    )
  return { sql: parts.join(' AND '), args }
}

/** Pipelines, their variables and their jobs (`ci_builds`); rows in and out, no rules. */
export function pipelineTable(db: Db, tokenDigest: TokenDigest) {
  const insert = db.prepare(
    `INSERT INTO pipelines (iid, project_id, ref, sha, tag, status, source, user_id, trigger_id, upstream_pipeline_id,
       upstream_job_id, created_at, updated_at)
     VALUES ((SELECT COALESCE(MAX(iid), 0) + 1 FROM pipelines WHERE project_id = @project_id), @project_id, @ref, @sha,
       @tag, @status, @source, @user_id, @trigger_id, @upstream_pipeline_id, @upstream_job_id, @created_at, @updated_at)`,
  )
  const byId = db.prepare('SELECT * FROM pipelines WHERE project_id = ? AND id = ?')
  let lockNew: Statement | undefined
  const setState = db.prepare(
    'UPDATE pipelines SET status = ?, started_at = ?, finished_at = ?, updated_at = ? WHERE id = ?',
  )
  const insertVar = db.prepare(
    'INSERT INTO pipeline_variables (pipeline_id, position, key, value, variable_type) VALUES (?, ?, ?, ?, ?)',
  )
  const varsOf = db.prepare(
    'SELECT key, value, variable_type FROM pipeline_variables WHERE pipeline_id = ? ORDER BY position',
  )
  const insertJob = db.prepare(
    `INSERT INTO ci_builds (id, pipeline_id, name, stage, position, status, outcome, duration_ms, token_digest,
       token_encrypted, created_at, queued_at, started_at, finished_at, due_at)
     VALUES (${NEXT_CI_ID}, @pipeline_id, @name, @stage, @position, @status, @outcome, @duration_ms, @token_digest,
       @token_encrypted, @created_at, @queued_at, @started_at, @finished_at, @due_at)`,
  )
  const jobsOf = db.prepare('SELECT * FROM ci_builds WHERE pipeline_id = ? ORDER BY position, id')
  const jobByDigest = db.prepare('SELECT * FROM ci_builds WHERE token_digest = ?')
  const jobById = db.prepare('SELECT * FROM ci_builds WHERE id = ?')
  const nextDue = db.prepare('SELECT * FROM ci_builds WHERE due_at IS NOT NULL ORDER BY due_at, id LIMIT 1')
  const pipelineOf = db.prepare('SELECT * FROM pipelines WHERE id = ?')
  const setJob = db.prepare(
    `UPDATE ci_builds SET status = @status, outcome = @outcome, retried = @retried, failure_reason = @failure_reason,
       queued_at = @queued_at, started_at = @started_at, finished_at = @finished_at, due_at = @due_at,
       coverage = @coverage WHERE id = @id`,
  )
  const childrenOf = db.prepare(
    "SELECT * FROM pipelines WHERE upstream_pipeline_id = ? AND source = 'parent_pipeline' ORDER BY id",
  )
  const remove = db.prepare('DELETE FROM pipelines WHERE id = ?')
  const newestFor = db.prepare(
    `SELECT * FROM pipelines WHERE project_id = ?1 AND sha = ?2 AND (?3 IS NULL OR ref = ?3) AND (?4 IS NULL OR id = ?4)
     ORDER BY id DESC LIMIT 1`,
  )
  const refsNamed = db.prepare('SELECT kind, name, sha FROM project_refs WHERE project_id = ? AND name = ?')
  const completed = COMPLETED_STATUSES.map((s) => `'${s}'`).join(', ')
  const stalled = db.prepare(
    `SELECT id, project_id, status FROM pipelines p WHERE status NOT IN (${completed})
       AND NOT EXISTS (SELECT 1 FROM ci_builds b WHERE b.pipeline_id = p.id AND b.due_at IS NOT NULL)
     ORDER BY id LIMIT ?`,
  )
  return {
    /** The branch and the tag of a project with this name (none, one or both). */
    refsNamed: (projectId: number, name: string) =>
      refsNamed.all(projectId, name) as { kind: RefKind; name: string; sha: string }[],
    /**
     * A new pipeline, locked (`artifacts_locked`) while its project keeps the latest artifacts
     * (`Project#default_pipeline_lock`). Here and not in a trigger: a trigger would also lock the rows
     * a snapshot's restore or an undo copies back, whatever their lock was.
     */
    insert: (p: NewPipeline) => {
      const id = Number(insert.run(p).lastInsertRowid)
      ;(lockNew ??= db.prepare(
        `INSERT OR IGNORE INTO ci_pipeline_artifact_locks (pipeline_id) SELECT ? WHERE COALESCE(
           (SELECT keep_latest_artifact FROM project_ci_cd_settings WHERE project_id = ?), 1) = 1`,
      )).run(id, p.project_id)
      return id
    },
    get: (projectId: number, id: number) => byId.get(projectId, id) as PipelineRow | undefined,
    byId: (id: number) => pipelineOf.get(id) as PipelineRow | undefined,
    setState: (p: Pick<PipelineRow, 'id' | 'status' | 'started_at' | 'finished_at' | 'updated_at'>) =>
      setState.run(p.status, p.started_at, p.finished_at, p.updated_at, p.id),
    count: (f: PipelineFilter) => {
      const w = where(f)
      return db
        .prepare(`SELECT COUNT(*) FROM pipelines WHERE ${w.sql}`)
        .pluck()
        .get(...w.args) as number
    },
    page: (f: PipelineFilter, limit: number, offset: number) => {
      const w = where(f)
      const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
      return db
        .prepare(
          `SELECT * FROM pipelines WHERE ${w.sql} ORDER BY ${f.order} ${dir}, id ${dir} LIMIT ? OFFSET ?`,
        )
        .all(...w.args, limit, offset) as PipelineRow[]
    },
    /** The project's newest pipeline for a commit, of that ref and id when given (`newest_first(sha:)`). */
    newestFor: (projectId: number, sha: string, ref: string | null, id: number | null) =>
      newestFor.get(projectId, sha, ref, id) as PipelineRow | undefined,
    /** The child pipelines a pipeline's trigger jobs started in its own project (`source = parent_pipeline`). */
    children: (pipelineId: number) => childrenOf.all(pipelineId) as PipelineRow[],
    /**
     * Deletes a pipeline; its variables, jobs and what they left (traces, artifacts, definitions, states)
     * go with it by `ON DELETE CASCADE`, and downstream pipelines lose their upstream link (`SET NULL`).
     */
    remove: (id: number) => void remove.run(id),
    addVariables: (pipelineId: number, vars: VariableRow[]) =>
      vars.forEach((v, n) => insertVar.run(pipelineId, n, v.key, v.value, v.variable_type)),
    variables: (pipelineId: number) => varsOf.all(pipelineId) as VariableRow[],
    insertJob: ({ token, ...job }: NewJob) =>
      Number(insertJob.run({ ...job, token_digest: tokenDigest(token) }).lastInsertRowid),
    jobs: (pipelineId: number) => jobsOf.all(pipelineId) as JobRow[],
    jobByToken: (token: string) => jobByDigest.get(tokenDigest(token)) as JobRow | undefined,
    /** The job whose automatic move comes first, due or not. */
    nextDue: () => nextDue.get() as JobRow | undefined,
    setJob: (job: JobRow) => setJob.run(job),
    /**
     * Unfinished pipelines with no move to come (one waiting for a manual job, one an
     * administrator forced to `running`), at most `limit`: what no clock can finish.
     */
    stalled: (limit: number) => stalled.all(limit) as Pick<PipelineRow, 'id' | 'project_id' | 'status'>[],
    /** A job by its id (the job page, which names no pipeline). */
    job: (id: number) => jobById.get(id) as JobRow | undefined,
  }
}
export type PipelineTable = ReturnType<typeof pipelineTable>
