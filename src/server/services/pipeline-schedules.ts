import { checkUnmodifiedSince } from '../grape/unmodified-since.js'
import type {
  PipelineSchedule,
  PipelineScheduleCreate,
  PipelineScheduleDetails,
  PipelineSchedulePipelinesQuery,
  PipelineScheduleUpdate,
  PipelineScheduleVariable,
  PipelineScheduleVariableCreate,
  PipelineScheduleVariableUpdate,
} from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { cronTimezoneValid, cronValid, nextRunAt } from '../domain/cron-schedule.js'
import { applies } from '../domain/releases.js'
import { forbidden, notFound, paramError, validationError } from '../grape/gitlab-errors.js'
import { pageOf } from '../grape/pagination.js'
import { pipelinePresenter } from '../present/pipelines.js'
import { presentUser } from '../present/users.js'
import type { PipelineScheduleRow, ScheduleVariableRow } from '../store/pipeline-schedules.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, writable, type Actor } from './access.js'
import { ciAbilities } from './ci-access.js'
import type { ServiceContext } from './context.js'
import { mayCreatePipeline } from './pipeline-api.js'
import type { PipelineService } from './pipelines.js'
import { runDueSchedules, runSchedule, scheduleInputs } from './scheduled-pipelines.js'

/** `Ci::PipelineSchedule::VALID_REF_FORMAT_REGEX`: a full branch or tag ref. */
const FULL_REF = /^(refs\/tags\/|refs\/heads\/)\S+/
const KEY_FORMAT = /^[a-zA-Z0-9_]+$/
const BLANK = "can't be blank"
const INVALID = 'syntax is invalid'
const TOO_LONG = 'is too long (maximum is 255 characters)'
/**
 * `Ci::PipelineScheduleInput::MAX_VALUE_SIZE`, GitLab's `Interpolation::Access::MAX_ACCESS_BYTESIZE`:
 * the characters of a value's JSON.
 */
const MAX_INPUT_VALUE_SIZE = 1024
/** `Ci::Pipeline::INPUTS_LIMIT`: the inputs a schedule may have. */
const INPUTS_LIMIT = 20
/**
 * `plan_limits.ci_pipeline_schedules` of a self-managed GitLab's `default` plan (the column's default in
 * `db/structure.sql`): the schedules a project may have, checked on create (`Limitable`).
 */
const SCHEDULES_LIMIT = 10

/** One `inputs` item of a create (`name`, `value`) or an update (`destroy` too). */
type InputChange = { name: string; value?: unknown; destroy?: boolean }
/** What a save does to the inputs: the values to write by name, the names to remove, the model's errors. */
type InputPlan = { put: Map<string, unknown>; remove: string[]; nested: Errors; collection: Errors }
type Errors = Record<string, string[]>
const addError = (errors: Errors, field: string, message: string) => (errors[field] ??= []).push(message)

/**
 * Grape's `types: [String, Array, Numeric, TrueClass, FalseClass]` for each `value` (a hash is
 * `is invalid`; a JSON null passes, as nil does), and, on an update, `value` required unless `destroy`
 * is true: 400 `{"error":"inputs[0][value] is missing"}`, before anything else.
 */
function checkInputParams(inputs: InputChange[] | undefined, update: boolean) {
  const errors: string[] = []
  inputs?.forEach((input, i) => {
    const { value } = input
    if (update && input.destroy !== true && value === undefined) errors.push(`inputs[${i}][value] is missing`)
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      errors.push(`inputs[${i}][value] is invalid`)
  })
  if (errors.length > 0) throw paramError(errors.join(', '))
}

/**
 * `inputs_attributes` against the schedule's `current` inputs (`UpdateService#prepare_inputs_for_update`
 * finds each given name's input: a known name is updated, or removed with `destroy`; an unknown one is
 * added, or ignored with `destroy`), then `Ci::PipelineScheduleInput`'s validations of each input saved
 * (`inputs.name`, `inputs.value`) and `Ci::PipelineSchedule`'s of the list: no name twice among the new
 * ones (`nested_attributes_duplicates`, skipped after a name error) and at most INPUTS_LIMIT.
 */
function planInputs(current: string[], changes: InputChange[]): InputPlan {
  const plan: InputPlan = { put: new Map(), remove: [], nested: {}, collection: {} }
  const kept = new Set(current)
  const added: string[] = []
  for (const { name, value, destroy } of changes) {
    if (destroy === true) {
      if (kept.delete(name)) plan.remove.push(name)
      continue
    }
    if (name.trim() === '') addError(plan.nested, 'inputs.name', BLANK)
    if ([...name].length > 255) addError(plan.nested, 'inputs.name', TOO_LONG)
    if ([...JSON.stringify(value ?? null)].length > MAX_INPUT_VALUE_SIZE)
      addError(plan.nested, 'inputs.value', `exceeds max serialized size: ${MAX_INPUT_VALUE_SIZE} characters`)
    if (!kept.has(name)) added.push(name)
    plan.put.set(name, value ?? null)
  }
  const duplicates = [...new Set(added.filter((name, i) => added.indexOf(name) !== i))]
  if (duplicates.length > 0 && !plan.nested['inputs.name'])
    addError(plan.collection, 'inputs', `have duplicate values (${duplicates.join(', ')})`)
  if (kept.size + added.length > INPUTS_LIMIT)
    addError(plan.collection, 'inputs', `exceeds the limit of ${INPUTS_LIMIT}.`)
  return plan
}

/**
 * Pipeline schedules (`lib/api/ci/pipeline_schedules.rb`, `Ci::PipelineSchedulePolicy`): Reporters read
 * them, Developers create them (owning them), their owner (while a Developer) or a Maintainer administers
 * them (delete, take ownership, delete variables), only their owner (or an administrator) edits them and
 * their variables. Every save sets `next_run_at` again from the clock (`CronSchedulable`). Due active
 * schedules run when the emulator's clock moves (`fireDue`), as `PipelineScheduleWorker` runs them.
 */
export function pipelineScheduleService(ctx: ServiceContext, pipelines: PipelineService) {
  const { store, access } = ctx
  const table = store.pipelineSchedules
  const box = store.secrets
  const presentPipeline = pipelinePresenter(ctx.instance)

  const level = (actor: Actor, p: ProjectRow, min: number) => actor.admin || access.atLeast(actor, p, min)
  /** `read_pipeline_schedule`: Reporter, with the pipeline abilities the features leave. */
  const mayRead = (actor: Actor, p: ProjectRow) =>
    actor.admin ||
    (access.atLeast(actor, p, Level.reporter) && ciAbilities(store, access, actor, p).pipelines)
  const owns = (actor: Actor, row: PipelineScheduleRow) => row.owner_id !== null && row.owner_id === actor.id
  /**
   * `admin_pipeline_schedule`: `admin_pipeline` (Maintainer), or the owner with `update_build` (Developer);
   * neither in an archived project.
   */
  const mayAdminister = (actor: Actor, p: ProjectRow, row: PipelineScheduleRow) =>
    writable(p) &&
    (level(actor, p, Level.maintainer) || (owns(actor, row) && level(actor, p, Level.developer)))
  /** From GitLab 17.11 (RELEASE_RULES.pipelineScheduleInputs): a schedule's `inputs`, taken and shown. */
  const inputsOn = () => applies(ctx.instance.version, 'pipelineScheduleInputs')
  /**
   * `read_pipeline_schedule_inputs`, which the entity asks before it shows `inputs`: given with
   * `admin_pipeline_schedule` (and `read_pipeline_schedule_variables`) by `Ci::PipelineSchedulePolicy`.
   */
  const mayReadInputs = (actor: Actor, p: ProjectRow, row: PipelineScheduleRow) =>
    inputsOn() && mayAdminister(actor, p, row)
  /**
   * `protected_ref` of `Ci::PipelineSchedulePolicy`, which prevents `create_pipeline_schedule`,
   * `update_pipeline_schedule` and `play_pipeline_schedule`: the caller may not update the branch (or
   * create the tag) the ref names, by its name, whether or not it exists. A full ref's kind is its prefix's;
   * a short one is a tag when the repository has a tag of that name.
   */
  const refProtected = (actor: Actor, p: ProjectRow, ref: string) => {
    const full = FULL_REF.exec(ref)
    const name = full ? ref.slice(full[1]!.length) : ref
    const tag = full
      ? full[1] === 'refs/tags/'
      : store.pipelines.refsNamed(p.id, ref).some((r) => r.kind === 'tag')
    return !pipelines.mayWriteRef(actor, p, name, tag)
  }
  /**
   * `update_pipeline_schedule`: an administrator, or the owner with `update_build`; not in an archived
   * project, nor on a ref the caller may not write.
   */
  const mayUpdate = (actor: Actor, p: ProjectRow, row: PipelineScheduleRow) =>
    writable(p) &&
    (actor.admin || (owns(actor, row) && access.atLeast(actor, p, Level.developer))) &&
    !refProtected(actor, p, row.ref)
  /**
   * `BaseSaveService#allowed_to_save?`, asked again of the schedule with its new attributes: a ref the
   * caller may not write is 400 `{"base":["The current user is not authorized to ..."]}`
   * (`render_validation_error!`), before the ref is expanded or checked.
   */
  const requireRefWritable = (actor: Actor, p: ProjectRow, ref: string, verb: 'create' | 'update') => {
    if (refProtected(actor, p, ref))
      throw validationError({ base: [`The current user is not authorized to ${verb} the pipeline schedule`] })
  }
  /** `set_pipeline_variables`: Developer (GitLab's default minimum role to override variables). */
  const requireSetVariables = (actor: Actor, p: ProjectRow) => {
    if (!level(actor, p, Level.developer)) throw forbidden()
  }

  /** The `pipeline_schedule` helper: 404 `Pipeline Schedule Not Found` when missing or unreadable. */
  const find = (actor: Actor, p: ProjectRow, id: number) => {
    const row = table.get(p.id, id)
    if (!row || !mayRead(actor, p)) throw notFound('Pipeline Schedule')
    return row
  }
  const findVariable = (row: PipelineScheduleRow, key: string) => {
    const variable = table.variable(row.id, key)
    if (!variable) throw notFound('Pipeline Schedule Variable')
    return variable
  }

  const presentVariable = (v: ScheduleVariableRow): PipelineScheduleVariable => ({
    variable_type: v.variable_type,
    key: v.key,
    value: box.open(v.value_encrypted),
    raw: v.raw === 1,
  })
  /**
   * `Entities::Ci::PipelineSchedule`. `viewer` is the entity's `user:` option: the list and GET pass
   * `current_user`, and `inputs` shows only to a viewer with `read_pipeline_schedule_inputs`; create,
   * update and take_ownership present without it (`lib/api/ci/pipeline_schedules.rb`), so their answers
   * carry no `inputs` (`options[:user] &&` is false).
   */
  const present = (p: ProjectRow, row: PipelineScheduleRow, viewer?: Actor): PipelineSchedule => {
    const owner = row.owner_id === null ? undefined : store.users.get(row.owner_id)
    return {
      id: row.id,
      description: row.description,
      ref: row.ref,
      cron: row.cron,
      cron_timezone: row.cron_timezone,
      next_run_at: row.next_run_at,
      active: row.active === 1,
      created_at: row.created_at,
      updated_at: row.updated_at,
      owner: owner ? presentUser(owner, ctx.instance) : null,
      ...(viewer && mayReadInputs(viewer, p, row) ? { inputs: scheduleInputs(store, row.id) } : {}),
    }
  }
  /**
   * `Entities::Ci::PipelineScheduleDetails`: `variables` goes to a viewer with
   * `read_pipeline_schedule_variables` (given with `admin_pipeline_schedule`: a Maintainer or the
   * schedule's owner). Without a viewer (create, update, take_ownership) `Ability.allowed?(nil, ...)` is
   * false: no `variables` key, whoever called.
   */
  const details = (p: ProjectRow, row: PipelineScheduleRow, viewer?: Actor): PipelineScheduleDetails => {
    const lastId = table.lastPipelineId(row.id)
    const last = lastId === undefined ? undefined : store.pipelines.byId(lastId)
    return {
      ...present(p, row, viewer),
      last_pipeline: last ? presentPipeline.listItem(p, last) : null,
      ...(viewer && mayAdminister(viewer, p, row)
        ? { variables: table.variables(row.id).map(presentVariable) }
        : {}),
    }
  }

  /**
   * `Ci::PipelineSchedules::BaseSaveService#execute` after the access checks: a short ref is expanded to
   * the branch or tag it names (`refs/heads/...`); one that names both or neither is `is ambiguous` and
   * stops there; then the model's validations, all of them together. Every save sets `next_run_at` again.
   */
  const validated = (
    p: ProjectRow,
    row: Omit<PipelineScheduleRow, 'id' | 'next_run_at'>,
    inputs?: InputPlan,
    creating = false,
  ) => {
    let ref = row.ref
    if (!FULL_REF.test(ref)) {
      const named = ref === '' ? [] : store.pipelines.refsNamed(p.id, ref)
      const [only] = named
      if (named.length !== 1 || !only) throw validationError({ ref: ['is ambiguous'] })
      ref = `${only.kind === 'tag' ? 'refs/tags/' : 'refs/heads/'}${ref}`
    }
    const cron = row.cron.trim()
    // `Limitable`'s check (on create) is declared first, then `has_many :inputs` validates the inputs before
    // the model's own validations.
    const errors: Errors = {}
    const add = (field: string, message: string) => addError(errors, field, message)
    if (creating && table.count(p.id, undefined) >= SCHEDULES_LIMIT)
      add('base', `Maximum number of ci pipeline schedules (${SCHEDULES_LIMIT}) exceeded`)
    Object.assign(errors, inputs?.nested)
    if (!cronValid(cron)) add('cron', INVALID)
    if (cron === '') add('cron', BLANK)
    if (!cronTimezoneValid(row.cron_timezone)) add('cron_timezone', INVALID)
    if (row.cron_timezone.trim() === '') add('cron_timezone', BLANK)
    if (row.description.trim() === '') add('description', BLANK)
    for (const [field, messages] of Object.entries(inputs?.collection ?? {}))
      for (const message of messages) add(field, message)
    if (Object.keys(errors).length > 0) throw validationError(errors)
    const now = ctx.clock.now()
    return { ...row, ref, cron, next_run_at: nextRunAt(cron, row.cron_timezone, now).toISOString() }
  }
  /** Writes a validated plan's inputs, each value's JSON sealed. */
  const writeInputs = (scheduleId: number, plan: InputPlan | undefined) => {
    for (const name of plan?.remove ?? []) table.removeInput(scheduleId, name)
    for (const [name, value] of plan?.put ?? [])
      table.putInput(scheduleId, name, box.seal(JSON.stringify(value)))
  }
  const save = (
    p: ProjectRow,
    row: PipelineScheduleRow,
    change: Partial<PipelineScheduleRow>,
    inputs?: InputPlan,
  ) => {
    const next = validated(p, { ...row, ...change, updated_at: isoNow(ctx.clock) }, inputs)
    table.update(row.id, next)
    writeInputs(row.id, inputs)
    return table.get(p.id, row.id) as PipelineScheduleRow
  }

  const variableErrors = (key: string) => {
    const errors: string[] = []
    if (key === '') errors.push(BLANK)
    if (key.length > 255) errors.push('is too long (maximum is 255 characters)')
    if (!KEY_FORMAT.test(key)) errors.push("can contain only letters, digits and '_'.")
    return errors
  }

  return {
    /** `GET .../pipeline_schedules`: 403 without `read_pipeline_schedule`. */
    list(
      actor: Actor,
      p: ProjectRow,
      q: { page?: number; per_page?: number; scope?: 'active' | 'inactive' },
    ) {
      if (!mayRead(actor, p)) throw forbidden()
      const page = pageOf(q)
      const active = q.scope === undefined ? undefined : q.scope === 'active'
      const rows = table.ofProject(p.id, active, page.perPage, page.offset)
      return { items: rows.map((row) => present(p, row, actor)), page, total: table.count(p.id, active) }
    },

    get: (actor: Actor, p: ProjectRow, id: number) => details(p, find(actor, p, id), actor),

    /** `GET .../pipelines`: the schedule's pipelines as `GET /pipelines` lists them, oldest first by default. */
    pipelines(actor: Actor, p: ProjectRow, id: number, q: PipelineSchedulePipelinesQuery) {
      const row = find(actor, p, id)
      return pipelines.list(actor, p, { ...q, sort: q.sort ?? 'asc' }, row.id)
    },

    /** `POST`: `create_pipeline_schedule` (Developer) or 403; the caller owns it. */
    create(actor: Actor, p: ProjectRow, params: PipelineScheduleCreate): PipelineScheduleDetails {
      const given = inputsOn() ? params.inputs : undefined
      checkInputParams(given, false)
      if (!mayCreatePipeline(ctx, actor, p)) throw forbidden()
      requireRefWritable(actor, p, params.ref, 'create')
      const now = isoNow(ctx.clock)
      const inputs = given && planInputs([], given)
      const row = validated(
        p,
        {
          project_id: p.id,
          owner_id: actor.id,
          description: params.description,
          ref: params.ref,
          cron: params.cron,
          cron_timezone: params.cron_timezone ?? 'UTC',
          active: params.active === false ? 0 : 1,
          created_at: now,
          updated_at: now,
        },
        inputs,
        true,
      )
      const id = table.insert(row)
      writeInputs(id, inputs)
      return details(p, table.get(p.id, id) as PipelineScheduleRow)
    },

    /** `PUT`: the owner only (or an administrator), 403 for everyone else who reads it. */
    update(actor: Actor, p: ProjectRow, id: number, params: PipelineScheduleUpdate): PipelineScheduleDetails {
      const given = inputsOn() ? params.inputs : undefined
      checkInputParams(given, true)
      const row = find(actor, p, id)
      if (!mayUpdate(actor, p, row)) throw forbidden()
      const change: Partial<PipelineScheduleRow> = {}
      if (params.description !== undefined) change.description = params.description
      if (params.ref !== undefined) change.ref = params.ref
      if (params.cron !== undefined) change.cron = params.cron
      if (params.cron_timezone !== undefined) change.cron_timezone = params.cron_timezone
      if (params.active !== undefined) change.active = params.active ? 1 : 0
      if (change.ref !== undefined) requireRefWritable(actor, p, change.ref, 'update')
      const current = table.inputs(row.id).map((i) => i.name)
      return details(p, save(p, row, change, given && planInputs(current, given)))
    },

    /** `POST .../take_ownership`: 200 when the caller owns it already, else 201 and the caller owns it. */
    takeOwnership(
      actor: Actor,
      p: ProjectRow,
      id: number,
    ): { status: 200 | 201; body: PipelineScheduleDetails } {
      const row = find(actor, p, id)
      if (!mayAdminister(actor, p, row)) throw forbidden()
      if (owns(actor, row)) return { status: 200, body: details(p, row) }
      return { status: 201, body: details(p, save(p, row, { owner_id: actor.id })) }
    },

    /** `DELETE`: `admin_pipeline_schedule`; `If-Unmodified-Since` older than the last change is a 412. */
    remove(actor: Actor, p: ProjectRow, id: number, unmodifiedSince?: string | string[]): void {
      const row = find(actor, p, id)
      if (!mayAdminister(actor, p, row)) throw forbidden()
      checkUnmodifiedSince(unmodifiedSince, row.updated_at)
      table.remove(row.id)
    },

    /**
     * `POST .../play` (`Ci::PipelineSchedules::PlayService`): `play_pipeline_schedule` (`create_pipeline`, on
     * a ref the caller may write) or 403; the pipeline is the caller's, not the owner's
     * (`RunPipelineScheduleWorker.perform_async(schedule.id, current_user.id)`), and `next_run_at` stays.
     * GitLab queues it and answers 201 whatever comes of it: a refused pipeline leaves nothing.
     */
    async play(actor: Actor, p: ProjectRow, id: number): Promise<void> {
      const row = find(actor, p, id)
      if (!actor.user || !mayCreatePipeline(ctx, actor, p) || refProtected(actor, p, row.ref))
        throw forbidden()
      await runSchedule(ctx, pipelines, p, row, actor.user)
    },

    /** `POST .../variables`: `set_pipeline_variables`, then `update_pipeline_schedule`; 400 as the model. */
    createVariable(
      actor: Actor,
      p: ProjectRow,
      id: number,
      params: PipelineScheduleVariableCreate,
    ): PipelineScheduleVariable {
      requireSetVariables(actor, p)
      const row = find(actor, p, id)
      if (!mayUpdate(actor, p, row)) throw forbidden()
      const key = params.key.trim()
      const errors = variableErrors(key)
      if (errors.length === 0 && table.variable(row.id, key)) errors.push('has already been taken')
      if (errors.length > 0) throw validationError({ key: errors })
      table.insertVariable({
        schedule_id: row.id,
        key,
        value_encrypted: box.seal(params.value),
        variable_type: params.variable_type ?? 'env_var',
        raw: 0,
      })
      return presentVariable(findVariable(row, key))
    },

    /** `PUT .../variables/:key`: as `createVariable`; 404 `Pipeline Schedule Variable Not Found`. */
    updateVariable(
      actor: Actor,
      p: ProjectRow,
      id: number,
      key: string,
      params: PipelineScheduleVariableUpdate,
    ): PipelineScheduleVariable {
      requireSetVariables(actor, p)
      const row = find(actor, p, id)
      if (!mayUpdate(actor, p, row)) throw forbidden()
      const variable = findVariable(row, key)
      table.updateVariable({
        id: variable.id,
        value_encrypted: params.value === undefined ? variable.value_encrypted : box.seal(params.value),
        variable_type: params.variable_type ?? variable.variable_type,
      })
      return presentVariable(findVariable(row, key))
    },

    /** `DELETE .../variables/:key`: `admin_pipeline_schedule` (a Maintainer too); 202 with the variable. */
    removeVariable(actor: Actor, p: ProjectRow, id: number, key: string): PipelineScheduleVariable {
      requireSetVariables(actor, p)
      const row = find(actor, p, id)
      if (!mayAdminister(actor, p, row)) throw forbidden()
      const variable = findVariable(row, key)
      table.removeVariable(variable.id)
      return presentVariable(variable)
    },

    /** Runs the due schedules once (services/scheduled-pipelines.ts); the number of pipelines made. */
    fireDue: () => runDueSchedules(ctx, pipelines),
  }
}
export type PipelineScheduleService = ReturnType<typeof pipelineScheduleService>
