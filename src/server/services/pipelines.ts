import type {
  EmulatorPipelineView,
  Job,
  JobListQuery,
  Pipeline,
  PipelineListItem,
  PipelineListQuery,
  PipelineStatus,
  PipelineVariable,
  PipelineWithMetadata,
  PipelineCreate,
} from '../../schema/index.js'
import { PipelineStatus as StatusSchema, literals } from '../../schema/index.js'
import { forbidden, messageError, paramError, recordNotFound, unauthorized } from '../grape/gitlab-errors.js'
import { CANCELABLE, COMPLETED } from '../domain/composite-status.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import { pageOf, type Page } from '../grape/pagination.js'
import { checkUnmodifiedSince } from '../grape/unmodified-since.js'
import { pipelinePresenter } from '../present/pipelines.js'
import type { PipelineFilter, PipelineRow } from '../store/pipelines.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, writable, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { isoNow } from '../domain/clock.js'
import { inJobTokenScope } from './job-tokens.js'
import { jobOutputsOf, pipelineCommit } from './job-outputs.js'
import { forceStatus, retryJobs, type NewPipelineInput } from './pipeline-writes.js'
import { createPipelineRows, downstreamStarter } from './pipeline-creation.js'
import { fetchRemoteIncludes } from './ci-plans.js'
import type { RemoteIncludeFetcher } from '../jobs/remote-includes.js'
import { apiPipelineInput } from './pipeline-api.js'
import { refToWrite } from './refs.js'
import { ciAbilities, readsPipelineRecords } from './ci-access.js'
import { repositoryCore } from './repository/core.js'

const STATUSES = new Set<string>(literals(StatusSchema))
const SCOPES: Record<string, string[]> = {
  running: ['running'],
  pending: ['pending'],
  finished: [...COMPLETED],
}

/**
 * Pipelines (`lib/api/ci/pipelines.rb`): reading them and their jobs takes `read_pipeline` and
 * `read_build` (services/ci-access.ts: whoever reads the project, unless `public_jobs` is off or the
 * CI/CD feature is restricted); cancel and retry need Developer and a ref the caller may write (protected
 * branches and tags), variables Maintainer or the pipeline's own Developer.
 * Every call first lets the runner catch up with the clock.
 */
export function pipelineService(
  ctx: ServiceContext,
  runner: PipelineRunner,
  remoteIncludes: RemoteIncludeFetcher,
) {
  const { store, access } = ctx
  const present = pipelinePresenter(ctx.instance, store.commitStatuses.coverage)
  const refs = repositoryCore(ctx)
  /** The pipeline's user, whom its records show. */
  const userOf = (row: PipelineRow) => (row.user_id === null ? undefined : store.users.get(row.user_id))
  runner.onBridge(downstreamStarter(store, runner, access, remoteIncludes))

  /** The project as the caller may see it; a job token sees only its own project. */
  function project(actor: Actor, ref: string): ProjectRow {
    const found = inJobTokenScope(actor, access.project(actor, ref))
    runner.catchUp()
    return found
  }
  const find = (p: ProjectRow, id: number): PipelineRow => {
    const row = store.pipelines.get(p.id, id)
    if (!row) throw recordNotFound()
    return row
  }
  /**
   * `authorize! :read_pipeline` and `:read_build` (403): the list asks both of the project, and
   * `Ci::PipelinePolicy` refuses `read_pipeline` on a pipeline to whoever lacks `read_build`.
   */
  const requireRead = (actor: Actor, p: ProjectRow) => {
    if (!readsPipelineRecords(store, access, actor, p)) throw forbidden()
  }
  /**
   * Whether the caller may write a branch or tag: update the branch (push or merge there,
   * `can_update_branch?`) or create the tag (`can_create_tag?`), under the branch and tag protections; a
   * pipeline's (or job's) ref so is not `protected_ref` (`Ci::PipelinePolicy`, `Ci::BuildPolicy`), and
   * `Chain::Validate::Abilities` asks it of whoever creates a pipeline.
   */
  const mayWriteRef = refs.canWriteRef
  /** `allowed_to_write_ref?` of a pipeline's ref as asked (services/refs.ts `refToWrite`), ambiguous ones too. */
  const mayWriteOriginRef = (actor: Actor, p: ProjectRow, originRef: string) => {
    const ref = refToWrite(store, p.id, originRef)
    return ref === undefined || mayWriteRef(actor, p, ref.name, ref.kind === 'tag')
  }
  /**
   * `cancel_pipeline`: Developer, while the repository and CI/CD features leave the pipeline abilities to
   * the caller (services/ci-access.ts `pipelines`), on a ref the caller may write.
   */
  const mayCancel = (actor: Actor, p: ProjectRow, pipeline: PipelineRow) =>
    access.atLeast(actor, p, Level.developer) &&
    ciAbilities(store, access, actor, p).pipelines &&
    mayWriteRef(actor, p, pipeline.ref, pipeline.tag === 1)
  /** `update_pipeline`: as `cancel_pipeline`, in a project not archived (`ArchivedAbilities`). */
  const mayUpdate = (actor: Actor, p: ProjectRow, pipeline: PipelineRow) =>
    writable(p) && mayCancel(actor, p, pipeline)
  /**
   * `read_pipeline_variable` (`Ci::PipelinePolicy`, 403): `admin_pipeline` (Maintainer, with the pipeline
   * abilities, in a project not archived), or `update_pipeline` for the pipeline's own user
   * (`triggerer_of_pipeline`).
   */
  const requireReadVariables = (actor: Actor, p: ProjectRow, pipeline: PipelineRow) => {
    const admin =
      writable(p) &&
      access.atLeast(actor, p, Level.maintainer) &&
      ciAbilities(store, access, actor, p).pipelines
    const triggerer = actor.id !== null && pipeline.user_id === actor.id
    if (!admin && !(triggerer && mayUpdate(actor, p, pipeline))) throw forbidden()
  }

  /** Every cancelable job of the pipeline canceled (`POST .../cancel`, and before a delete). */
  const cancelJobs = (pipeline: PipelineRow, now: string) => {
    for (const job of store.pipelines.jobs(pipeline.id))
      if (job.retried === 0 && CANCELABLE.has(job.status))
        store.pipelines.setJob({ ...job, status: 'canceled', finished_at: now, due_at: null })
  }

  /**
   * Creates a pipeline in `created` with its jobs (services/pipeline-creation.ts); the first move after
   * CREATED_MS. GitLab's refusals are `{"message":{"base":[...]}}`: 400, or `persistedStatus` when GitLab
   * kept the pipeline as failed (a configuration error: 422 for a trigger, 400 for `POST /pipeline`).
   */
  async function create(
    input: NewPipelineInput,
    persistedStatus = 422,
    saveOnErrors = true,
  ): Promise<Pipeline> {
    // A configuration's remote includes are fetched first: creating the rows then reads no network.
    const fetched = input.plan ? input : await fetchRemoteIncludes(store, access, input, remoteIncludes)
    const now = isoNow(ctx.clock)
    const { project: p } = input
    const made = store.transaction(() =>
      createPipelineRows(store, access, runner, fetched, now, saveOnErrors),
    )
    runner.poke()
    if ('error' in made) throw messageError(made.row ? persistedStatus : 400, { base: [made.error] })
    return present.full(p, made.row, userOf(made.row))
  }

  return {
    project,
    create,
    mayWriteRef,
    mayWriteOriginRef,

    /**
     * `POST /projects/:id/pipeline`: anonymous callers 401 before the project is looked up
     * (`authenticate_non_get!`); a branch or tag the caller may not write is refused (400, as the chain's
     * `allowed_to_write_ref?`); `save_on_errors: false`, so a configuration error leaves nothing (400).
     */
    createFromApi(actor: Actor, projectRef: string, params: PipelineCreate): Promise<Pipeline> {
      if (!actor.user) throw unauthorized()
      const p = project(actor, projectRef)
      const input = apiPipelineInput(ctx, actor, p, params, (ref) => mayWriteOriginRef(actor, p, ref))
      return create(input, 400, false)
    },

    /** `GET /projects/:id/pipelines`: one page and the (capped) total; 403 without `read_pipeline` and `read_build`. */
    list(
      actor: Actor,
      p: ProjectRow,
      q: PipelineListQuery,
      /** Only the pipelines this pipeline schedule made (`GET .../pipeline_schedules/:id/pipelines`). */
      scheduleId?: number,
    ): { items: PipelineListItem[]; page: Page; total: number } {
      requireRead(actor, p)
      const user = q.username !== undefined ? store.users.byUsername(q.username) : undefined
      const filter: PipelineFilter = {
        projectId: p.id,
        ref: q.ref,
        sha: q.sha,
        source: q.source,
        userId: user?.id,
        updatedBefore: q.updated_before,
        updatedAfter: q.updated_after,
        createdBefore: q.created_before,
        createdAfter: q.created_after,
        // A configuration error is kept with its pipeline (ci_pipeline_errors); the emulator's pipelines have no names.
        ...(q.yaml_errors !== undefined ? { yamlErrors: q.yaml_errors } : {}),
        none: q.name !== undefined || (q.username !== undefined && !user),
        // PipelinesFinder#by_scope: the latest pipeline of each branch name, or of each tag name.
        ...(q.scope === 'branches' || q.scope === 'tags'
          ? { latestPerRef: q.scope === 'branches' ? ('branch' as const) : ('tag' as const) }
          : {}),
        ...(scheduleId !== undefined ? { scheduleId } : {}),
        order: q.order_by ?? 'id',
        sort: q.sort ?? 'desc',
      }
      const scoped = q.scope ? SCOPES[q.scope] : undefined
      if (scoped || q.status)
        filter.statuses = (scoped ?? [...STATUSES]).filter((s) => !q.status || s === q.status)
      const page = pageOf(q)
      const total = store.pipelines.count(filter)
      const rows = store.pipelines.page(filter, page.perPage, page.offset)
      return { items: rows.map((r) => present.listItem(p, r)), page, total }
    },

    /** `GET .../pipelines/:pipeline_id`: 404 `Not found` for no such pipeline, then 403 as `list`. */
    get: (actor: Actor, p: ProjectRow, id: number): PipelineWithMetadata => {
      const pipeline = find(p, id)
      requireRead(actor, p)
      return present.withMetadata(
        p,
        pipeline,
        userOf(pipeline),
        store.ciProcessables.error(pipeline.id) ?? null,
      )
    },

    /**
     * `GET .../jobs`: current jobs (and retried ones on request), filtered by `scope`. 403 without
     * `read_pipeline`; with it but without `read_build` an empty list (`Ci::JobsFinder` answers `none`).
     */
    jobs(
      actor: Actor,
      p: ProjectRow,
      id: number,
      q: JobListQuery,
    ): { items: Job[]; page: Page; total: number } {
      const can = ciAbilities(store, access, actor, p)
      if (!can.readPipeline) throw forbidden()
      const pipeline = find(p, id)
      const scope = q.scope === undefined ? undefined : Array.isArray(q.scope) ? q.scope : [q.scope]
      if (scope?.some((s) => typeof s !== 'string' || !STATUSES.has(s)))
        throw paramError('scope does not have a valid value')
      const now = isoNow(ctx.clock)
      // Trigger jobs are bridges, which `GET .../bridges` lists instead.
      const bridges = new Set(store.ciProcessables.bridges(pipeline.id).map((b) => b.build_id))
      const all = store.pipelines
        .jobs(pipeline.id)
        .filter(
          (j) =>
            !bridges.has(j.id) &&
            (q.include_retried === true || j.retried === 0) &&
            (!scope || scope.includes(j.status as PipelineStatus)),
        )
        .sort((a, b) => b.id - a.id)
      const page = pageOf(q)
      if (!can.readBuild) return { items: [], page, total: 0 }
      const user = userOf(pipeline)
      const commit = pipelineCommit(store, pipeline)
      const items = all
        .slice(page.offset, page.offset + page.perPage)
        .map((j) => present.job(p, pipeline, user, j, now, jobOutputsOf(store, j, commit)))
      return { items, page, total: all.length }
    },

    /** One job of the project's pipelines by id, with its pipeline's id (the job page); 404 `Not found` otherwise. */
    job(p: ProjectRow, jobId: number): Job & { pipeline_id: number } {
      const job = store.pipelines.job(jobId)
      const pipeline = job ? store.pipelines.get(p.id, job.pipeline_id) : undefined
      if (!job || !pipeline) throw recordNotFound()
      return {
        ...present.job(
          p,
          pipeline,
          userOf(pipeline),
          job,
          isoNow(ctx.clock),
          jobOutputsOf(store, job, pipelineCommit(store, pipeline)),
        ),
        pipeline_id: pipeline.id,
      }
    },

    /**
     * `GET .../variables`: the pipeline's own variables. A schedule's pipeline has none: its jobs see the
     * schedule's variables (kept with the pipeline here), which GitLab keeps with the schedule.
     */
    variables(actor: Actor, p: ProjectRow, id: number): PipelineVariable[] {
      const pipeline = find(p, id)
      requireReadVariables(actor, p, pipeline)
      return pipeline.source === 'schedule' ? [] : store.pipelines.variables(pipeline.id)
    },

    /** `POST .../cancel`: cancels every cancelable job; 200 with the pipeline even when nothing was. */
    cancel(actor: Actor, p: ProjectRow, id: number): Pipeline {
      if (!actor.user) throw unauthorized()
      const pipeline = find(p, id)
      if (!mayCancel(actor, p, pipeline)) throw forbidden()
      const now = isoNow(ctx.clock)
      const row = store.transaction(() => {
        cancelJobs(pipeline, now)
        return runner.refresh(pipeline, now)
      })
      return present.full(p, row, userOf(row))
    },

    /**
     * `DELETE .../pipelines/:pipeline_id` (`Ci::DestroyPipelineService`): 404 for no such pipeline, then
     * `destroy_pipeline`, the project Owner's or an administrator's, with the pipeline abilities, in a
     * project not archived (403). Like GitLab, first cancels what still runs, in its child pipelines too
     * (`cascade_to_children`), which stay; then the pipeline goes with its jobs and what they left. 412
     * when it changed after `unmodifiedSince` (`destroy_conditionally!`), checked after the 403.
     */
    remove(actor: Actor, p: ProjectRow, id: number, unmodifiedSince?: string | string[]): void {
      if (!actor.user) throw unauthorized()
      const pipeline = find(p, id)
      const owner =
        writable(p) && access.atLeast(actor, p, Level.owner) && ciAbilities(store, access, actor, p).pipelines
      if (!owner) throw forbidden()
      checkUnmodifiedSince(unmodifiedSince, pipeline.updated_at)
      const now = isoNow(ctx.clock)
      store.transaction(() => {
        const cancelChildren = (parent: PipelineRow) => {
          for (const child of store.pipelines.children(parent.id)) {
            cancelJobs(child, now)
            runner.refresh(child, now)
            cancelChildren(child)
          }
        }
        cancelChildren(pipeline)
        store.pipelines.remove(pipeline.id)
      })
    },

    /**
     * `POST .../retry`: failed and canceled jobs are replaced by new ones (the old ones become
     * `retried`), skipped ones run again; with the CI/CD feature disabled only the skipped ones
     * (`Ci::RetryPipelineService` passes over jobs the caller may not `retry_job`). Our choice: a retried job succeeds.
     */
    retry(actor: Actor, p: ProjectRow, id: number): Pipeline {
      if (!actor.user) throw unauthorized()
      const pipeline = find(p, id)
      if (!mayUpdate(actor, p, pipeline)) throw forbidden()
      const now = isoNow(ctx.clock)
      const retryJob = ciAbilities(store, access, actor, p).builds
      const row = store.transaction(() => retryJobs(store, runner, pipeline, now, retryJob))
      runner.catchUp()
      runner.poke()
      const current = store.pipelines.byId(row.id) ?? row
      return present.full(p, current, userOf(current))
    },

    /**
     * Emulator control: the pipeline and its unfinished jobs take `status` and stay
     * there (our choice: they leave the automatic schedule until retried).
     */
    force(p: ProjectRow, id: number, status: PipelineStatus): Pipeline {
      const pipeline = find(p, id)
      const now = isoNow(ctx.clock)
      store.transaction(() => {
        forceStatus(store, pipeline, status, now)
        // A `strategy: depend` bridge upstream follows the forced status, and its pipeline moves on.
        runner.followDownstream(find(p, id), now)
      })
      const forced = find(p, id)
      return present.full(p, forced, userOf(forced))
    },

    /** Emulator view: the pipeline and its jobs, with the token of each job that is running. */
    inspect(p: ProjectRow, id: number): EmulatorPipelineView {
      const pipeline = find(p, id)
      const jobs = store.pipelines.jobs(pipeline.id).map((j) => ({
        id: j.id,
        name: j.name,
        status: j.status as PipelineStatus,
        retried: j.retried === 1,
        token: ['running', 'canceling'].includes(j.status) ? runner.openJobToken(j) : null,
      }))
      return { pipeline: present.full(p, pipeline, userOf(pipeline)), jobs }
    },
  }
}
export type PipelineService = ReturnType<typeof pipelineService>
