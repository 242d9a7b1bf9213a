import type { Db } from './db.js'
import type { JobRow, PipelineRow } from './pipelines.js'

export interface JobArtifactRow {
  build_id: number
  size: number
  created_at: string
  expire_at: string | null
}

export interface JobStateRow {
  build_id: number
  allow_failure: number
  user_id: number | null
  /** `job_variables_attributes` of the play that started it, as JSON `[{key, value}]`. */
  variables: string | null
  erased_at: string | null
  erased_by_id: number | null
  /** The CI/CD variables it was given when it started running, sealed JSON (migration 34). */
  runner_variables: string | null
  /** The archive's `expire_at` once the archive is gone (expired or deleted, migration 46). */
  artifacts_expire_at: string | null
}

/** A job whose definition has `trigger:` is a bridge (`Ci::Bridge`), not a build. */
const IS_BRIDGE = `EXISTS (SELECT 1 FROM ci_job_definitions d WHERE d.build_id = b.id
  AND json_extract(d.definition, '$.trigger') IS NOT NULL)`
const statusIn = (statuses: readonly string[] | undefined) =>
  statuses ? `AND b.status IN (${statuses.map(() => '?').join(',')})` : ''

const NO_STATE = {
  allow_failure: 0,
  user_id: null,
  variables: null,
  erased_at: null,
  erased_by_id: null,
  runner_variables: null,
  artifacts_expire_at: null,
}

/** Traces, artifacts and job states (migration 23); rows in and out, no rules. */
export function jobOutputTable(db: Db) {
  const putTrace = db.prepare('INSERT OR REPLACE INTO ci_job_traces (build_id, trace) VALUES (?, ?)')
  const getTrace = db.prepare('SELECT trace FROM ci_job_traces WHERE build_id = ?').pluck()
  const traceSize = db
    .prepare('SELECT length(CAST(trace AS BLOB)) FROM ci_job_traces WHERE build_id = ?')
    .pluck()
  const dropTrace = db.prepare('DELETE FROM ci_job_traces WHERE build_id = ?')
  const putArtifact = db.prepare(
    'INSERT OR REPLACE INTO ci_job_artifacts (build_id, size, created_at, expire_at) VALUES (?, ?, ?, ?)',
  )
  const getArtifact = db.prepare('SELECT * FROM ci_job_artifacts WHERE build_id = ?')
  const dropArtifact = db.prepare('DELETE FROM ci_job_artifacts WHERE build_id = ?')
  const putChunk = db.prepare('INSERT INTO ci_job_artifact_chunks (build_id, seq, data) VALUES (?, ?, ?)')
  const getChunk = db
    .prepare('SELECT data FROM ci_job_artifact_chunks WHERE build_id = ? AND seq = ?')
    .pluck()
  const putEntry = db.prepare(
    'INSERT INTO ci_job_artifact_entries (build_id, path, content) VALUES (?, ?, ?)',
  )
  const getEntry = db
    .prepare('SELECT content FROM ci_job_artifact_entries WHERE build_id = ? AND path = ?')
    .pluck()
  const entryUnder = db
    .prepare('SELECT 1 FROM ci_job_artifact_entries WHERE build_id = ? AND substr(path, 1, ?) = ? LIMIT 1')
    .pluck()
  const getState = db.prepare('SELECT * FROM ci_job_states WHERE build_id = ?')
  const putState = db.prepare(
    `INSERT OR REPLACE INTO ci_job_states
       (build_id, allow_failure, user_id, variables, erased_at, erased_by_id, runner_variables, artifacts_expire_at)
     VALUES (@build_id, @allow_failure, @user_id, @variables, @erased_at, @erased_by_id, @runner_variables,
       @artifacts_expire_at)`,
  )
  const state = (buildId: number): JobStateRow =>
    (getState.get(buildId) as JobStateRow | undefined) ?? { build_id: buildId, ...NO_STATE }
  const latestSuccessful = db.prepare(
    `SELECT b.* FROM ci_builds b WHERE b.name = ? AND b.status = 'success' AND b.retried = 0 AND NOT ${IS_BRIDGE}
       AND b.pipeline_id = (SELECT MAX(id) FROM pipelines WHERE project_id = ? AND ref = ? AND status = 'success')
     ORDER BY b.id DESC LIMIT 1`,
  )
  const bridge = db.prepare(`SELECT 1 FROM ci_builds b WHERE b.id = ? AND ${IS_BRIDGE}`).pluck()
  const keepArtifact = db.prepare('UPDATE ci_job_artifacts SET expire_at = NULL WHERE build_id = ?')
  const locked = db.prepare('SELECT 1 FROM ci_pipeline_artifact_locks WHERE pipeline_id = ?').pluck()
  const UNLOCKED = `NOT EXISTS (SELECT 1 FROM ci_pipeline_artifact_locks l WHERE l.pipeline_id = b.pipeline_id)`
  const expiredUnlocked = db.prepare(
    `SELECT a.* FROM ci_job_artifacts a JOIN ci_builds b ON b.id = a.build_id
     WHERE a.expire_at IS NOT NULL AND a.expire_at < ? AND ${UNLOCKED} ORDER BY a.expire_at, a.build_id`,
  )
  const unlockedOfProject = db.prepare(
    `SELECT a.* FROM ci_job_artifacts a JOIN ci_builds b ON b.id = a.build_id JOIN pipelines p ON p.id = b.pipeline_id
     WHERE p.project_id = ? AND ${UNLOCKED} ORDER BY a.build_id`,
  )
  const downstream = db.prepare(
    `SELECT * FROM pipelines WHERE upstream_job_id = ?
       OR id = (SELECT downstream_pipeline_id FROM ci_processables WHERE build_id = ?)
     ORDER BY id DESC LIMIT 1`,
  )
  return {
    /** The pipeline a bridge started (its `ci_processables` record, or `pipelines.upstream_job_id`). */
    downstreamOf: (jobId: number) => downstream.get(jobId, jobId) as PipelineRow | undefined,
    /** Whether the job is a bridge (`Ci::Bridge`), which the routes scoped to `builds` do not find. */
    isBridge: (jobId: number) => bridge.get(jobId) !== undefined,
    /**
     * A page of a project's builds (bridges left out), newest first, in `statuses` when given;
     * `limit + 1` rows tell the caller whether more follow.
     */
    projectBuilds: (
      projectId: number,
      statuses: readonly string[] | undefined,
      limit: number,
      offset: number,
    ) =>
      db
        .prepare(
          `SELECT b.* FROM ci_builds b JOIN pipelines p ON p.id = b.pipeline_id
           WHERE p.project_id = ? ${statusIn(statuses)} AND NOT ${IS_BRIDGE}
           ORDER BY b.id DESC LIMIT ? OFFSET ?`,
        )
        .all(projectId, ...(statuses ?? []), limit, offset) as JobRow[],
    /** A pipeline's current bridges in `statuses` when given, oldest first. */
    bridges: (pipelineId: number, statuses: readonly string[] | undefined) =>
      db
        .prepare(
          `SELECT b.* FROM ci_builds b WHERE b.pipeline_id = ? AND b.retried = 0 ${statusIn(statuses)} AND ${IS_BRIDGE}
           ORDER BY b.id`,
        )
        .all(pipelineId, ...(statuses ?? [])) as JobRow[],
    /** `latest_successful_build_for_ref`: the successful build named `name` of the ref's latest successful pipeline. */
    latestSuccessful: (projectId: number, ref: string, name: string) =>
      latestSuccessful.get(name, projectId, ref) as JobRow | undefined,
    putTrace: (buildId: number, trace: string) => putTrace.run(buildId, trace),
    trace: (buildId: number) => getTrace.get(buildId) as string | undefined,
    /** The trace's size in bytes, without reading it. */
    traceSize: (buildId: number) => traceSize.get(buildId) as number | undefined,
    dropTrace: (buildId: number) => dropTrace.run(buildId),
    /** Stores an archive as chunks of at most `chunkSize` bytes, with the files it holds. */
    putArtifact(
      row: JobArtifactRow,
      zip: Uint8Array,
      entries: { path: string; content: Uint8Array }[],
      chunkSize: number,
    ) {
      dropArtifact.run(row.build_id)
      putArtifact.run(row.build_id, row.size, row.created_at, row.expire_at)
      for (let seq = 0; seq * chunkSize < zip.length; seq++)
        putChunk.run(row.build_id, seq, zip.subarray(seq * chunkSize, (seq + 1) * chunkSize))
      for (const e of entries) putEntry.run(row.build_id, e.path, e.content)
    },
    artifact: (buildId: number) => getArtifact.get(buildId) as JobArtifactRow | undefined,
    /** One chunk of an archive (`seq` from 0); undefined past the last. */
    chunk: (buildId: number, seq: number) => getChunk.get(buildId, seq) as Uint8Array | undefined,
    /** One file of an archive. */
    entry: (buildId: number, path: string) => getEntry.get(buildId, path) as Uint8Array | undefined,
    /** Whether an archive holds files under the folder `dir`. */
    hasEntriesUnder: (buildId: number, dir: string) =>
      entryUnder.get(buildId, dir.length + 1, `${dir}/`) !== undefined,
    dropArtifact: (buildId: number) => dropArtifact.run(buildId),
    /** The archive never expires (`keep_artifacts!`). */
    keepArtifact: (buildId: number) => keepArtifact.run(buildId),
    /** Whether the pipeline's artifacts are locked (`artifacts_locked`, migration 46). */
    pipelineLocked: (pipelineId: number) => locked.get(pipelineId) !== undefined,
    /** Archives whose `expire_at` is before `now`, of unlocked pipelines, earliest first. */
    expiredUnlocked: (now: string) => expiredUnlocked.all(now) as JobArtifactRow[],
    /** The project's archives of unlocked pipelines. */
    unlockedOfProject: (projectId: number) => unlockedOfProject.all(projectId) as JobArtifactRow[],
    state,
    setState: (buildId: number, change: Partial<Omit<JobStateRow, 'build_id'>>) =>
      putState.run({ ...state(buildId), ...change, build_id: buildId }),
  }
}
export type JobOutputTable = ReturnType<typeof jobOutputTable>
