import type { Db } from './db.js'

export interface PipelineScheduleRow {
  id: number
  project_id: number
  owner_id: number | null
  description: string
  /** The full ref (`refs/heads/main`), as GitLab keeps it once expanded. */
  ref: string
  cron: string
  cron_timezone: string
  next_run_at: string
  active: number
  created_at: string
  updated_at: string
}
export type NewPipelineSchedule = Omit<PipelineScheduleRow, 'id'>
export type PipelineScheduleChange = Omit<PipelineScheduleRow, 'id' | 'project_id' | 'created_at'>

export interface ScheduleVariableRow {
  id: number
  schedule_id: number
  key: string
  value_encrypted: string
  variable_type: 'env_var' | 'file'
  raw: number
}
export type NewScheduleVariable = Omit<ScheduleVariableRow, 'id'>

/** A schedule's CI input (migration 47): `value_encrypted` seals the value's JSON. */
export interface ScheduleInputRow {
  id: number
  schedule_id: number
  name: string
  value_encrypted: string
}

/**
 * Pipeline schedules, their variables (values sealed) and the pipelines they made (migration 38), their
 * inputs (values sealed, migration 47); rows in and out, in GitLab's order (by id), no rules.
 */
export function pipelineScheduleTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO ci_pipeline_schedules (project_id, owner_id, description, ref, cron, cron_timezone, next_run_at,
       active, created_at, updated_at)
     VALUES (@project_id, @owner_id, @description, @ref, @cron, @cron_timezone, @next_run_at, @active, @created_at,
       @updated_at)`,
  )
  const update = db.prepare(
    `UPDATE ci_pipeline_schedules SET owner_id = @owner_id, description = @description, ref = @ref, cron = @cron,
       cron_timezone = @cron_timezone, next_run_at = @next_run_at, active = @active, updated_at = @updated_at
     WHERE id = @id`,
  )
  // `?2 IS NULL`: every schedule, or the active (1) or inactive (0) ones (`PipelineSchedulesFinder` scopes).
  const ofProject = db.prepare(
    'SELECT * FROM ci_pipeline_schedules WHERE project_id = ?1 AND (?2 IS NULL OR active = ?2) ORDER BY id LIMIT ?3 OFFSET ?4',
  )
  const count = db
    .prepare(
      'SELECT COUNT(*) FROM ci_pipeline_schedules WHERE project_id = ?1 AND (?2 IS NULL OR active = ?2)',
    )
    .pluck()
  const byId = db.prepare('SELECT * FROM ci_pipeline_schedules WHERE project_id = ? AND id = ?')
  const due = db.prepare(
    'SELECT * FROM ci_pipeline_schedules WHERE active = 1 AND next_run_at < ? ORDER BY next_run_at, id',
  )
  const remove = db.prepare('DELETE FROM ci_pipeline_schedules WHERE id = ?')
  const varsOf = db.prepare('SELECT * FROM ci_pipeline_schedule_variables WHERE schedule_id = ? ORDER BY id')
  const varByKey = db.prepare(
    'SELECT * FROM ci_pipeline_schedule_variables WHERE schedule_id = ? AND key = ?',
  )
  const insertVar = db.prepare(
    `INSERT INTO ci_pipeline_schedule_variables (schedule_id, key, value_encrypted, variable_type, raw)
     VALUES (@schedule_id, @key, @value_encrypted, @variable_type, @raw)`,
  )
  const updateVar = db.prepare(
    'UPDATE ci_pipeline_schedule_variables SET value_encrypted = @value_encrypted, variable_type = @variable_type WHERE id = @id',
  )
  const removeVar = db.prepare('DELETE FROM ci_pipeline_schedule_variables WHERE id = ?')
  const inputsOf = db.prepare('SELECT * FROM ci_pipeline_schedule_inputs WHERE schedule_id = ? ORDER BY id')
  // An input given again keeps its row (and its place), as GitLab updates the input of that name.
  const putInput = db.prepare(
    `INSERT INTO ci_pipeline_schedule_inputs (schedule_id, name, value_encrypted) VALUES (?, ?, ?)
     ON CONFLICT (schedule_id, name) DO UPDATE SET value_encrypted = excluded.value_encrypted`,
  )
  const removeInput = db.prepare('DELETE FROM ci_pipeline_schedule_inputs WHERE schedule_id = ? AND name = ?')
  const link = db.prepare(
    'INSERT INTO ci_pipeline_schedule_pipelines (pipeline_id, schedule_id) VALUES (?, ?)',
  )
  const lastPipeline = db
    .prepare('SELECT MAX(pipeline_id) FROM ci_pipeline_schedule_pipelines WHERE schedule_id = ?')
    .pluck()
  const pipelineIds = db.prepare(
    'SELECT pipeline_id FROM ci_pipeline_schedule_pipelines WHERE schedule_id = ? ORDER BY pipeline_id',
  )
  return {
    insert: (row: NewPipelineSchedule) => Number(insert.run(row).lastInsertRowid),
    update: (id: number, row: PipelineScheduleChange) => void update.run({ ...row, id }),
    ofProject: (projectId: number, active: boolean | undefined, limit: number, offset: number) =>
      ofProject.all(
        projectId,
        active === undefined ? null : Number(active),
        limit,
        offset,
      ) as PipelineScheduleRow[],
    count: (projectId: number, active: boolean | undefined) =>
      count.get(projectId, active === undefined ? null : Number(active)) as number,
    get: (projectId: number, id: number) => byId.get(projectId, id) as PipelineScheduleRow | undefined,
    /** Active schedules whose `next_run_at` is before `now` (`Ci::PipelineSchedule.runnable_schedules`). */
    due: (now: string) => due.all(now) as PipelineScheduleRow[],
    remove: (id: number) => void remove.run(id),
    variables: (scheduleId: number) => varsOf.all(scheduleId) as ScheduleVariableRow[],
    variable: (scheduleId: number, key: string) =>
      varByKey.get(scheduleId, key) as ScheduleVariableRow | undefined,
    insertVariable: (row: NewScheduleVariable) => void insertVar.run(row),
    updateVariable: (row: Pick<ScheduleVariableRow, 'id' | 'value_encrypted' | 'variable_type'>) =>
      void updateVar.run(row),
    removeVariable: (id: number) => void removeVar.run(id),
    inputs: (scheduleId: number) => inputsOf.all(scheduleId) as ScheduleInputRow[],
    putInput: (scheduleId: number, name: string, valueEncrypted: string) =>
      void putInput.run(scheduleId, name, valueEncrypted),
    removeInput: (scheduleId: number, name: string) => void removeInput.run(scheduleId, name),
    /** Records that the schedule made the pipeline (GitLab's `ci_pipelines.pipeline_schedule_id`). */
    linkPipeline: (pipelineId: number, scheduleId: number) => void link.run(pipelineId, scheduleId),
    /** The newest pipeline the schedule made (`last_pipeline`), if any. */
    lastPipelineId: (scheduleId: number) => (lastPipeline.get(scheduleId) as number | null) ?? undefined,
    /** Every pipeline the schedule made, oldest first. */
    pipelineIds: (scheduleId: number) =>
      (pipelineIds.all(scheduleId) as { pipeline_id: number }[]).map((r) => r.pipeline_id),
  }
}
export type PipelineScheduleTable = ReturnType<typeof pipelineScheduleTable>
