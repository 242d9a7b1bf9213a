import type {
  Deployment,
  DeploymentCreate,
  DeploymentListQuery,
  Environment,
  EnvironmentCreate,
  EnvironmentListQuery,
  EnvironmentUpdate,
  Project,
  ReviewAppsDeleteQuery,
  ReviewAppsDeletion,
} from '../../schema/index.js'
import { guessTier, isEnvironmentName } from '../ci/environment.js'
import { isoNow } from '../domain/clock.js'
import { commitOf } from './ci-plans.js'
import {
  badRequest,
  forbidden,
  messageError,
  paramError,
  recordNotFound,
  unauthorized,
  validationError,
} from '../grape/gitlab-errors.js'
import { pageOf } from '../grape/pagination.js'
import { pipelinePresenter } from '../present/pipelines.js'
import { presentEnvironmentBasic } from '../present/environments.js'
import { basicProjectDetails } from '../present/projects.js'
import { presentUser } from '../present/users.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { DeploymentRow, EnvironmentRow, NewEnvironment } from '../store/environments.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, writable, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { uniqueSlug } from './job-environments.js'
import { environmentStops } from './environment-stops.js'
import { deleteDueEnvironments, deleteReviewApps } from './environment-review-apps.js'
import { jobOutputsOf, pipelineCommit } from './job-outputs.js'
import { ciAbilities } from './ci-access.js'
import { repositoryCore } from './repository/core.js'

/** `1.week` of `stop_stale`'s latest `before`. */
const WEEK_MS = 7 * 86_400_000
/** `Environments::EnvironmentsFinder`'s shortest `search` (`MIN_SEARCH_LENGTH`). */
const MIN_SEARCH = 3
const NAME_FORMAT =
  "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"

/** `nullify_if_blank :external_url, :description`: a blank (or JSON null) is none. */
const orNull = (text: string | null | undefined) => (text == null || text.trim() === '' ? null : text)

/**
 * The parameter rules Grape checks before the endpoint runs (after `authenticate!`, before the project
 * is looked up): `slug`'s `absence`, `name` and `search`'s `mutually_exclusive`.
 */
export function checkEnvironmentParams(params: { slug?: string; name?: string; search?: string }): void {
  if (params.slug !== undefined) throw paramError('slug is automatically generated and cannot be changed')
  if (params.name !== undefined && params.search !== undefined)
    throw paramError('name, search cannot be used together')
}

/**
 * `DeploymentsFinder#validate!`'s refusals of queries it would run inefficiently (400, `bad_request!`);
 * the `updated_at` pairing it only reports in development.
 */
function checkDeploymentQuery(q: DeploymentListQuery): void {
  const byUpdated = q.updated_after !== undefined || q.updated_before !== undefined
  const byFinished = q.finished_after !== undefined || q.finished_before !== undefined
  if (byUpdated && byFinished)
    throw badRequest('Both `updated_at` filter and `finished_at` filter can not be specified')
  if (byFinished !== (q.order_by === 'finished_at'))
    throw badRequest('`finished_at` filter and `finished_at` sorting must be paired')
  if (byFinished && q.status !== 'success')
    throw badRequest('`finished_at` filter must be combined with `success` status filter.')
}

/**
 * Environments and deployments (`lib/api/environments.rb`, `lib/api/deployments.rb`, `ProjectPolicy`):
 * Reporters read them (anyone who reads a public or internal project), Developers create, edit, stop (see
 * `mayStop`) and delete environments (a stopped one only) and create and update deployments; Maintainers
 * stop stale environments and delete deployments. Protected environments (EE) are left out. A missing one
 * is ActiveRecord's `404 Not found`.
 */
export function environmentService(
  ctx: ServiceContext,
  projectRecord: (p: ProjectRow) => Project,
  runner: () => PipelineRunner,
) {
  const { store, access } = ctx
  const table = store.environments
  const stops = environmentStops(ctx, runner)
  const presentJob = pipelinePresenter(ctx.instance)
  const refs = repositoryCore(ctx)

  const level = (actor: Actor, p: ProjectRow, min: number) => actor.admin || access.atLeast(actor, p, min)
  /** A write at `min`: never in an archived project (`ArchivedAbilities`: environment, deployment). */
  const mayWrite = (actor: Actor, p: ProjectRow, min: number) => writable(p) && level(actor, p, min)
  /** `read_environment`, `read_deployment`. */
  const mayRead = (actor: Actor, p: ProjectRow) =>
    level(actor, p, Level.reporter) || p.visibility !== 'private'
  const require = (actor: Actor, p: ProjectRow, min: number) => {
    if (!actor.user) throw unauthorized()
    if (min === Level.reporter ? !mayRead(actor, p) : !mayWrite(actor, p, min)) throw forbidden()
  }
  const find = (p: ProjectRow, id: number) => {
    const row = table.get(p.id, id)
    if (!row) throw recordNotFound()
    return row
  }
  const findDeployment = (p: ProjectRow, id: number) => {
    const row = table.deployment(p.id, id)
    if (!row) throw recordNotFound()
    return row
  }

  const basic = presentEnvironmentBasic
  const presentDeployment = (p: ProjectRow, row: DeploymentRow): Deployment => {
    const user = row.user_id === null ? undefined : store.users.get(row.user_id)
    const job = row.deployable_id === null ? undefined : store.pipelines.job(row.deployable_id)
    const pipeline = job && store.pipelines.byId(job.pipeline_id)
    const starter = pipeline?.user_id == null ? undefined : store.users.get(pipeline.user_id)
    return {
      id: row.id,
      iid: row.iid,
      ref: row.ref,
      sha: row.sha,
      created_at: row.created_at,
      updated_at: row.updated_at,
      user: user ? presentUser(user, ctx.instance) : null,
      environment: basic(table.get(p.id, row.environment_id)!),
      deployable:
        job && pipeline
          ? presentJob.job(
              p,
              pipeline,
              starter,
              job,
              isoNow(ctx.clock),
              jobOutputsOf(store, job, pipelineCommit(store, pipeline)),
            )
          : null,
      status: row.status as Deployment['status'],
    }
  }
  const present = (p: ProjectRow, row: EnvironmentRow, withLast = false): Environment => {
    const last = withLast ? table.lastDeployment(row.id) : undefined
    return {
      ...basic(row),
      tier: row.tier as Environment['tier'],
      ...(withLast ? {} : { project: basicProjectDetails(projectRecord(p)) }),
      ...(withLast ? { last_deployment: last ? presentDeployment(p, last) : null } : {}),
      state: row.state as Environment['state'],
      auto_stop_at: row.auto_stop_at,
      description: row.description,
      auto_stop_setting: row.auto_stop_setting as Environment['auto_stop_setting'],
    }
  }

  /**
   * `stop_environment` on an environment (`EnvironmentPolicy`, delegating to `ProjectPolicy`): Maintainers
   * (the project's, which `ArchivedAbilities` leaves); Developers who may play its last stop action
   * (`create_deployment` and `play_job`: the job's ref theirs to write) when it is available with stop
   * actions, else who may `update_environment`.
   */
  const mayStop = (actor: Actor, p: ProjectRow, row: EnvironmentRow) => {
    if (level(actor, p, Level.maintainer)) return true
    if (!mayWrite(actor, p, Level.developer)) return false
    const last = row.state === 'available' ? stops.actions(row).at(-1) : undefined
    if (!last) return true
    const pipeline = store.pipelines.byId(last.pipeline_id)
    return (
      pipeline !== undefined &&
      ciAbilities(store, access, actor, p).builds &&
      refs.canWriteRef(actor, p, pipeline.ref, pipeline.tag === 1)
    )
  }

  /** `Environment`'s validations of what the API sets, all of them together; 400 `{message: {...}}`. */
  const validate = (p: ProjectRow, row: NewEnvironment, before?: EnvironmentRow) => {
    const id = before?.id
    const errors: Record<string, string[]> = {}
    const add = (field: string, message: string) => (errors[field] ??= []).push(message)
    if (row.name.trim() === '') add('name', "can't be blank")
    if (row.name.length > 255) add('name', 'is too long (maximum is 255 characters)')
    if (row.name !== '' && !isEnvironmentName(row.name.slice(0, 255))) add('name', NAME_FORMAT)
    const same = table.named(p.id, row.name)
    if (same && same.id !== id) add('name', 'has already been taken')
    if (row.external_url !== null) {
      if (row.external_url.length > 255) add('external_url', 'is too long (maximum is 255 characters)')
      if (!/^https?:\/\/[^\s/]+/i.test(row.external_url))
        add('external_url', 'is blocked: Only allowed schemes are http, https')
    }
    // Checked only when it changes (`if: :description_changed?`).
    if (
      row.description !== null &&
      row.description !== before?.description &&
      [...row.description].length > 10_000
    )
      add('description', 'is too long (maximum is 10000 characters)')
    if (Object.keys(errors).length > 0) throw validationError(errors)
  }

  return {
    /** `GET .../environments`, by id; `search` matches the start of the name or of a folder's part of it. */
    list(actor: Actor, p: ProjectRow, q: EnvironmentListQuery) {
      require(actor, p, Level.reporter)
      if (q.search !== undefined && q.search !== '' && q.search.length < MIN_SEARCH)
        throw badRequest(`Search query is less than ${MIN_SEARCH} characters`)
      const page = pageOf(q)
      const f = { name: q.name, search: q.search || undefined, state: q.states }
      const rows = table.list(p.id, f, page.perPage, page.offset)
      return { items: rows.map((row) => present(p, row)), page, total: table.count(p.id, f) }
    },

    /** `GET .../environments/:id`: with its last successful deployment, without its project. */
    get(actor: Actor, p: ProjectRow, id: number): Environment {
      require(actor, p, Level.reporter)
      return present(p, find(p, id), true)
    },

    /** `POST .../environments`: `auto_stop_setting` `always` unless told. */
    create(actor: Actor, p: ProjectRow, params: EnvironmentCreate): Environment {
      require(actor, p, Level.developer)
      const now = isoNow(ctx.clock)
      const row = {
        project_id: p.id,
        name: params.name,
        slug: '',
        external_url: orNull(params.external_url),
        tier: params.tier ?? guessTier(params.name),
        state: 'available',
        created_at: now,
        updated_at: now,
        auto_stop_at: null,
        description: orNull(params.description),
        auto_stop_setting: params.auto_stop_setting ?? 'always',
      }
      validate(p, row)
      const id = table.insert({ ...row, slug: uniqueSlug(store, p.id, row.name) })
      return present(p, find(p, id))
    },

    /**
     * `PUT .../environments/:environment_id` (`assign_attributes`, `save`): what is given changes;
     * `updated_at` only moves when something did. `nulls` are the parameters the body gives as `null`,
     * which Grape's `values` lets through: a null `tier` is guessed again from the name
     * (`ensure_environment_tier`); a null `auto_stop_setting` reaches a `NOT NULL` column, GitLab's 500,
     * which we answer as the value outside `values` it is (400, nothing changed; our choice).
     */
    update(
      actor: Actor,
      p: ProjectRow,
      id: number,
      params: EnvironmentUpdate,
      nulls: ReadonlySet<string> = new Set(),
    ): Environment {
      require(actor, p, Level.developer)
      const row = find(p, id)
      if (nulls.has('auto_stop_setting')) throw paramError('auto_stop_setting does not have a valid value')
      const next = {
        ...row,
        ...(params.external_url !== undefined ? { external_url: orNull(params.external_url) } : {}),
        ...(params.tier !== undefined ? { tier: params.tier } : {}),
        ...(nulls.has('tier') ? { tier: guessTier(row.name) } : {}),
        ...(params.description !== undefined ? { description: orNull(params.description) } : {}),
        ...(params.auto_stop_setting !== undefined ? { auto_stop_setting: params.auto_stop_setting } : {}),
      }
      validate(p, next, row)
      const changed = (Object.keys(next) as (keyof EnvironmentRow)[]).some((k) => next[k] !== row[k])
      if (changed) table.update({ ...next, updated_at: isoNow(ctx.clock) })
      return present(p, find(p, id))
    },

    /** `DELETE`: `destroy_environment` (Developer), which a environment not stopped never has (403). */
    remove(actor: Actor, p: ProjectRow, id: number): void {
      require(actor, p, Level.reporter)
      const row = find(p, id)
      if (!mayWrite(actor, p, Level.developer) || row.state !== 'stopped') throw forbidden()
      table.remove(row.id)
    },

    /**
     * `POST .../stop` (`Environments::StopService`): plays the environment's stop actions (it is `stopping`
     * until one succeeds) or stops it at once; `force` stops it at once. `stop_environment` on the
     * environment, else 403 (after the 404 of a missing one).
     */
    stop(actor: Actor, p: ProjectRow, id: number, force = false): Environment {
      require(actor, p, Level.reporter)
      const row = find(p, id)
      if (!mayStop(actor, p, row)) throw forbidden()
      stops.stop(row, force)
      return present(p, find(p, id))
    },

    /**
     * `POST .../environments/stop_stale`: `stop_environment` on the project (Maintainer, 403); `before` from
     * ten years to a week ago, else 400 `Invalid Date`; the stale environments stop.
     */
    stopStale(actor: Actor, p: ProjectRow, before: string): { message: string } {
      if (!level(actor, p, Level.maintainer)) throw forbidden()
      const at = Date.parse(before)
      const now = ctx.clock.now()
      const tenYearsAgo = new Date(now)
      tenYearsAgo.setUTCFullYear(tenYearsAgo.getUTCFullYear() - 10)
      if (at < tenYearsAgo.getTime() || at > now.getTime() - WEEK_MS) throw badRequest('Invalid Date')
      stops.stopStale(p.id, new Date(at).toISOString())
      return { message: 'Successfully scheduled stale environments to stop' }
    },

    /** `DELETE .../environments/review_apps`: `read_environment` (403), then `deleteReviewApps`. */
    deleteReviewApps(actor: Actor, p: ProjectRow, q: ReviewAppsDeleteQuery): ReviewAppsDeletion {
      require(actor, p, Level.reporter)
      return deleteReviewApps(ctx, p, mayWrite(actor, p, Level.developer), q)
    },

    /** The auto-stop at the clock's time (`Environments::AutoStopCronWorker`); the number stopped. */
    stopDue: (): number => stops.stopDue(),

    /** The auto-delete at the clock's time (`Environments::AutoDeleteCronWorker`); the number deleted. */
    deleteDue: (): number => deleteDueEnvironments(ctx),

    /** `GET .../deployments` (`DeploymentsFinder`): `environment` by name; `id` ascending unless told. */
    deployments(actor: Actor, p: ProjectRow, q: DeploymentListQuery) {
      require(actor, p, Level.reporter)
      checkDeploymentQuery(q)
      const page = pageOf(q)
      const env = q.environment === undefined ? undefined : table.named(p.id, q.environment)
      const f = {
        projectId: p.id,
        environmentId: q.environment === undefined ? undefined : (env?.id ?? 0),
        status: q.status,
        updatedAfter: q.updated_after,
        updatedBefore: q.updated_before,
        finishedAfter: q.finished_after,
        finishedBefore: q.finished_before,
        order: q.order_by ?? 'id',
        sort: q.sort ?? 'asc',
      }
      const rows = table.deployments(f, page.perPage, page.offset)
      return { items: rows.map((row) => presentDeployment(p, row)), page, total: table.countDeployments(f) }
    },

    deployment(actor: Actor, p: ProjectRow, id: number): Deployment {
      require(actor, p, Level.reporter)
      return presentDeployment(p, findDeployment(p, id))
    },

    /** `POST .../deployments`: an external deployment to an environment found or made by name. */
    createDeployment(actor: Actor, p: ProjectRow, params: DeploymentCreate): Deployment {
      require(actor, p, Level.developer)
      // `Deployment#valid_sha`, `#valid_ref`: both name a commit of the project (checked first here, so
      // that a refused deployment leaves no environment behind).
      const errors: Record<string, string[]> = {}
      if (!commitOf(store, p, params.sha)) errors.sha = ['The commit does not exist']
      if (!commitOf(store, p, params.ref)) errors.ref = ['The branch or tag does not exist']
      if (Object.keys(errors).length > 0) throw validationError(errors)
      const now = isoNow(ctx.clock)
      let env = table.named(p.id, params.environment)
      if (!env) {
        const row = {
          project_id: p.id,
          name: params.environment,
          slug: '',
          external_url: null,
          tier: guessTier(params.environment),
          state: 'available',
          created_at: now,
          updated_at: now,
          auto_stop_at: null,
          description: null,
          auto_stop_setting: 'always',
        }
        validate(p, row)
        env = find(p, table.insert({ ...row, slug: uniqueSlug(store, p.id, row.name) }))
      }
      const finished = params.status === 'running' ? null : now
      const id = table.insertDeployment({
        project_id: p.id,
        environment_id: env.id,
        ref: params.ref,
        tag: params.tag ? 1 : 0,
        sha: params.sha,
        user_id: actor.user!.id,
        deployable_id: null,
        status: params.status,
        created_at: now,
        updated_at: now,
        finished_at: finished,
        on_stop: null,
      })
      return presentDeployment(p, findDeployment(p, id))
    },

    /** `PUT .../deployments/:id`: only one made through the API (403 for a job's). */
    updateDeployment(actor: Actor, p: ProjectRow, id: number, status: string): Deployment {
      require(actor, p, Level.reporter)
      const row = findDeployment(p, id)
      if (!mayWrite(actor, p, Level.developer)) throw forbidden()
      if (row.deployable_id !== null)
        throw forbidden('Deployments created using GitLab CI can not be updated using the API')
      const now = isoNow(ctx.clock)
      if (status !== row.status)
        table.setDeployment({
          id: row.id,
          status,
          updated_at: now,
          finished_at: status === 'running' ? null : now,
        })
      return presentDeployment(p, findDeployment(p, id))
    },

    /** `DELETE .../deployments/:id` (`Ci::Deployments::DestroyService`): Maintainer; not running, not the last. */
    removeDeployment(actor: Actor, p: ProjectRow, id: number): void {
      if (!actor.user) throw unauthorized()
      const row = findDeployment(p, id)
      if (!mayWrite(actor, p, Level.maintainer)) throw forbidden()
      if (row.status === 'running') throw messageError(400, 'Cannot destroy running deployment')
      if (table.lastDeployment(row.environment_id)?.id === row.id)
        throw messageError(400, 'Deployment currently deployed to environment')
      table.removeDeployment(row.id)
    },
  }
}
export type EnvironmentService = ReturnType<typeof environmentService>
