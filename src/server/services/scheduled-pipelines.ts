import { isoNow } from '../domain/clock.js'
import { nextRunAt } from '../domain/cron-schedule.js'
import { GitLabError } from '../grape/gitlab-errors.js'
import type { PipelineScheduleInput } from '../../schema/index.js'
import type { Store } from '../store/index.js'
import type { PipelineScheduleRow } from '../store/pipeline-schedules.js'
import type { ProjectRow } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { acceptedInputs, mayCreatePipeline, requireBuildsEnabled } from './pipeline-api.js'
import type { PipelineService } from './pipelines.js'
import { resolveRef } from './refs.js'

/** A schedule's CI inputs, their values unsealed, in the order they were made. */
export const scheduleInputs = (store: Store, scheduleId: number): PipelineScheduleInput[] =>
  store.pipelineSchedules.inputs(scheduleId).map((i) => ({
    name: i.name,
    value: JSON.parse(store.secrets.open(i.value_encrypted)) as PipelineScheduleInput['value'],
  }))

/**
 * `RunPipelineScheduleWorker#run_pipeline_schedule`: a pipeline of the schedule's ref for `user`, source
 * `schedule`, with the schedule's variables and inputs, through `Ci::CreatePipelineService` with
 * `save_on_errors: false`: whatever refuses it (the user's rights, the ref, the configuration) leaves
 * nothing, and GitLab only logs the refusal. True when a pipeline was made.
 */
export async function runSchedule(
  ctx: ServiceContext,
  pipelines: PipelineService,
  p: ProjectRow,
  row: PipelineScheduleRow,
  user: UserRow,
): Promise<boolean> {
  const { store } = ctx
  const actor = new Actor(user)
  try {
    requireBuildsEnabled(ctx, p)
    if (!mayCreatePipeline(ctx, actor, p) || !pipelines.mayWriteOriginRef(actor, p, row.ref)) return false
    const ref = resolveRef(store, p.id, row.ref)
    if (ref === undefined || ref === 'ambiguous') return false
    const variables = store.pipelineSchedules.variables(row.id).map((v) => ({
      key: v.key,
      value: store.secrets.open(v.value_encrypted),
      variable_type: v.variable_type,
    }))
    // `inputs: schedule.inputs_hash`, checked against `spec:inputs` as any pipeline's inputs are
    const inputs = acceptedInputs(
      ctx.instance.version,
      Object.fromEntries(scheduleInputs(store, row.id).map((i) => [i.name, i.value])),
    )
    const input = { project: p, ref: ref.name, sha: ref.sha, tag: ref.kind === 'tag', userId: user.id }
    const scheduled = { ...input, source: 'schedule' as const, scheduleId: row.id, variables }
    await pipelines.create(inputs ? { ...scheduled, inputs } : scheduled, 400, false)
    return true
  } catch (err) {
    if (err instanceof GitLabError) return false
    throw err
  }
}

/**
 * `PipelineScheduleWorker` at the clock's time: each active schedule whose `next_run_at` has passed runs
 * once, oldest first. A schedule whose owner was removed is left as it is (`RunPipelineScheduleWorker`
 * returns without a user); otherwise `next_run_at` moves to its next time after now, then the pipeline
 * is made for the owner, or refused silently (a blocked owner, one no longer a Developer, a ref gone).
 * The number of pipelines made.
 */
export async function runDueSchedules(ctx: ServiceContext, pipelines: PipelineService): Promise<number> {
  const { store } = ctx
  let made = 0
  for (const row of store.pipelineSchedules.due(isoNow(ctx.clock))) {
    const p = store.projects.get(row.project_id)
    const owner = row.owner_id === null ? undefined : store.users.get(row.owner_id)
    if (!p || !owner) continue
    const now = ctx.clock.now()
    store.pipelineSchedules.update(row.id, {
      ...row,
      next_run_at: nextRunAt(row.cron, row.cron_timezone, now).toISOString(),
      updated_at: now.toISOString(),
    })
    if (await runSchedule(ctx, pipelines, p, row, owner)) made++
  }
  return made
}
