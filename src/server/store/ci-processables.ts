import type { Db } from './db.js'

/** A job's place in its pipeline's plan (migration 24). */
export interface ProcessableRow {
  build_id: number
  pipeline_id: number
  stage_idx: number
  bridge: number
  downstream_pipeline_id: number | null
}

/**
 * The CI engine's record of each job a `.gitlab-ci.yml` made (migration 24): its stage's position and
 * whether it is a trigger job. Bridges (`Ci::Bridge`): `isBridge(buildId)` tells one apart, and
 * `bridges(pipelineId)` lists a pipeline's bridges with the downstream pipeline each started (what
 * `GET /pipelines/:id/bridges` shows as `downstream_pipeline`); `/pipelines/:id/jobs` leaves them out.
 */
export function ciProcessableTable(db: Db) {
  const put = db.prepare(
    `INSERT OR REPLACE INTO ci_processables (build_id, pipeline_id, stage_idx, bridge, downstream_pipeline_id)
     VALUES (@build_id, @pipeline_id, @stage_idx, @bridge, @downstream_pipeline_id)`,
  )
  const get = db.prepare('SELECT * FROM ci_processables WHERE build_id = ?')
  const ofPipeline = db.prepare('SELECT * FROM ci_processables WHERE pipeline_id = ? ORDER BY build_id')
  const bridgesOf = db.prepare(
    'SELECT * FROM ci_processables WHERE pipeline_id = ? AND bridge = 1 ORDER BY build_id',
  )
  // A bridge waits, `pending` with no move due, only while its child's remote includes are fetched.
  const waiting = db
    .prepare(
      `SELECT p.build_id FROM ci_processables p JOIN ci_builds b ON b.id = p.build_id
       WHERE p.bridge = 1 AND p.downstream_pipeline_id IS NULL AND b.status = 'pending' AND b.due_at IS NULL
       ORDER BY p.build_id`,
    )
    .pluck()
  const planned = db.prepare('SELECT 1 FROM ci_processables WHERE pipeline_id = ? LIMIT 1').pluck()
  const setDownstream = db.prepare('UPDATE ci_processables SET downstream_pipeline_id = ? WHERE build_id = ?')
  const putError = db.prepare(
    'INSERT OR REPLACE INTO ci_pipeline_errors (pipeline_id, message) VALUES (?, ?)',
  )
  const getError = db.prepare('SELECT message FROM ci_pipeline_errors WHERE pipeline_id = ?').pluck()
  return {
    put: (row: ProcessableRow) => put.run({ ...row }),
    get: (buildId: number) => get.get(buildId) as ProcessableRow | undefined,
    /** Every planned job of a pipeline (none for a pipeline from the seed shortcut). */
    ofPipeline: (pipelineId: number) => ofPipeline.all(pipelineId) as ProcessableRow[],
    /** Whether the pipeline's jobs came from a `.gitlab-ci.yml`. */
    isPlanned: (pipelineId: number) => planned.get(pipelineId) !== undefined,
    isBridge: (buildId: number) => (get.get(buildId) as ProcessableRow | undefined)?.bridge === 1,
    bridges: (pipelineId: number) => bridgesOf.all(pipelineId) as ProcessableRow[],
    /** The bridges waiting for their downstream pipeline's remote includes. */
    waitingBridges: () => waiting.all() as number[],
    setDownstream: (buildId: number, pipelineId: number) => setDownstream.run(pipelineId, buildId),
    /** The configuration error of a pipeline persisted as failed (GitLab's `yaml_errors`). */
    putError: (pipelineId: number, message: string) => putError.run(pipelineId, message),
    error: (pipelineId: number) => getError.get(pipelineId) as string | undefined,
  }
}
