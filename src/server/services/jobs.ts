import { Readable } from 'node:stream'
import type { Bridge, Job, JobPlayBody, JobScopeQuery, PipelineStatus } from '../../schema/index.js'
import { PipelineStatus as StatusSchema, literals } from '../../schema/index.js'
import { CANCELABLE, COMPLETED } from '../domain/composite-status.js'
import { isoNow } from '../domain/clock.js'
import {
  badRequest,
  forbidden,
  notFound,
  paramError,
  recordNotFound,
  unauthorized,
} from '../grape/gitlab-errors.js'
import { pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { ANSI, workspacePath } from '../ci/job-script.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import { pipelinePresenter } from '../present/pipelines.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, requireNotArchived, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import type { PipelineService } from './pipelines.js'
import { JobTokenActor } from './job-tokens.js'
import type { HistoryCommit } from '../git/history.js'
import { jobOutputsOf, pipelineCommit } from './job-outputs.js'
import { playJob, retryJob } from './job-play.js'
import { ciAbilities } from './ci-access.js'
import { artifactExpired } from '../domain/artifact-expiry.js'
import { destroyArtifacts, expireArtifacts } from './job-artifacts.js'

const STATUSES = new Set<string>(literals(StatusSchema))
/**
 * A record as Ruby's `Object#to_s` prints it inside a message (`#<Ci::Build:0x000055d5c4a0e8b8>`):
 * GitLab's shows the object's address, 16 hex digits; ours the record's id in their place.
 */
const rubyObject = (className: string, id: number) => `#<${className}:0x${id.toString(16).padStart(16, '0')}>`

/** `Ci::Build#playable?` for the emulator's jobs: waiting for a person, or for its delay. */
const PLAYABLE = new Set(['manual', 'scheduled'])

/** `scope` as a list, checked as Grape's `values:` checks it. */
export function scopeList(scope: JobScopeQuery['scope']): PipelineStatus[] | undefined {
  if (scope === undefined) return undefined
  const list = Array.isArray(scope) ? scope : [scope]
  if (list.some((s) => typeof s !== 'string' || !STATUSES.has(s)))
    throw paramError('scope does not have a valid value')
  return list
}

/** A stored archive as a stream, one chunk read from the store at a time. */
function chunkStream(read: (seq: number) => Uint8Array | undefined): Readable {
  let seq = 0
  return new Readable({
    read() {
      const chunk = read(seq++)
      this.push(chunk ? Buffer.from(chunk) : null)
    },
  })
}

/** Workhorse's content type of an artifact entry (`mime.TypeByExtension`), for the usual text files. */
const TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  json: 'application/json',
  xml: 'text/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
}

export interface ArtifactDownload {
  body: Readable
  filename: string
  contentType: string
  size: number
}

/**
 * The jobs API (`lib/api/ci/jobs.rb`, `lib/api/ci/job_artifacts.rb`, bridges of `lib/api/ci/pipelines.rb`).
 * Reading jobs, traces and artifacts: `read_build` (403 without it); play, retry and cancel: Developer, on
 * a ref the caller may write (protected branches and tags);
 * erase: Maintainer, or the Developer whose pipeline it is, on a ref the caller may write.
 */
export function jobService(ctx: ServiceContext, runner: PipelineRunner, pipelines: PipelineService) {
  const { store, access } = ctx
  const present = pipelinePresenter(ctx.instance)
  const outputs = store.jobOutputs

  const userOf = (row: PipelineRow) => (row.user_id === null ? undefined : store.users.get(row.user_id))
  /** A job as its entity shows it, with its pipeline's commit as the caller read it. */
  const showWith = (
    p: ProjectRow,
    pipeline: PipelineRow,
    job: JobRow,
    commit: HistoryCommit | undefined,
  ): Job =>
    present.job(p, pipeline, userOf(pipeline), job, isoNow(ctx.clock), jobOutputsOf(store, job, commit))
  const show = (p: ProjectRow, pipeline: PipelineRow, job: JobRow): Job =>
    showWith(p, pipeline, job, pipelineCommit(store, pipeline))

  /** A trigger job as `Entities::Ci::Bridge` shows it: the basic job and the pipeline it started (or null). */
  function showBridge(p: ProjectRow, pipeline: PipelineRow, job: JobRow): Bridge {
    const {
      artifacts_file: _file,
      artifacts: _artifacts,
      runner: _runner,
      runner_manager: _manager,
      artifacts_expire_at: _expire,
      archived: _archived,
      tag_list: _tags,
      ...basic
    } = show(p, pipeline, job)
    const downstream = outputs.downstreamOf(job.id)
    const downstreamProject = downstream ? store.projects.get(downstream.project_id) : undefined
    return {
      ...basic,
      downstream_pipeline:
        downstream && downstreamProject ? present.basic(downstreamProject, downstream) : null,
    }
  }

  /** The project as the caller may see it (404 `Project Not Found` otherwise). */
  const readable = (actor: Actor, ref: string): ProjectRow => pipelines.project(actor, ref)
  /**
   * The project, once the caller may read its jobs (`authorize_read_builds!`, 403): `read_build`
   * (services/ci-access.ts: whoever reads the project while `public_jobs` is on, Reporter+ otherwise).
   */
  const readableBuilds = (actor: Actor, ref: string): ProjectRow => {
    const p = readable(actor, ref)
    if (!ciAbilities(store, access, actor, p).readBuild) throw forbidden()
    return p
  }
  /**
   * `level` in the project, with the CI/CD feature open to the caller: `builds_disabled` prevents every
   * build ability (`create_read_update_admin_destroy(:build)`, `cancel_build`), administrators' too.
   */
  function require(actor: Actor, p: ProjectRow, level: number): void {
    if (!actor.user) throw unauthorized()
    if (!access.atLeast(actor, p, level) || !ciAbilities(store, access, actor, p).readBuild) throw forbidden()
  }
  /**
   * `update_build` (play, retry, erase): `require`d `level`, in a project not archived (`ArchivedAbilities`
   * prevents creating, updating and administering builds; `cancel_build` stays).
   */
  function requireUpdate(actor: Actor, p: ProjectRow, level: number): void {
    require(actor, p, level)
    requireNotArchived(p)
  }
  /** `destroy_artifacts`: Maintainer (`ProjectPolicy`), 401 without a user. */
  function requireMaintainer(actor: Actor, p: ProjectRow): void {
    if (!actor.user) throw unauthorized()
    if (!access.atLeast(actor, p, Level.maintainer)) throw forbidden()
  }
  /** `protected_ref` (`Ci::BuildPolicy`) prevents the job's writes on a ref the caller may not write: 403. */
  function requireRef(actor: Actor, p: ProjectRow, pipeline: PipelineRow): void {
    if (!pipelines.mayWriteRef(actor, p, pipeline.ref, pipeline.tag === 1)) throw forbidden()
  }
  /** `find_job!`: a job of the project (a build or a bridge) and its pipeline; 404 `Not found` otherwise. */
  function find(p: ProjectRow, jobId: number): { job: JobRow; pipeline: PipelineRow } {
    const job = store.pipelines.job(jobId)
    const pipeline = job ? store.pipelines.get(p.id, job.pipeline_id) : undefined
    if (!job || !pipeline) throw recordNotFound()
    return { job, pipeline }
  }
  /**
   * `find_build!` (`user_project.builds.find`): a build of the project; a bridge is ActiveRecord's 404
   * `Not found`, as a missing job. Every `/jobs/:job_id/...` route finds builds only, but retry and play
   * (`find_job!`).
   */
  function findBuild(p: ProjectRow, jobId: number): { job: JobRow; pipeline: PipelineRow } {
    const found = find(p, jobId)
    if (outputs.isBridge(found.job.id)) throw recordNotFound()
    return found
  }
  const current = (job: JobRow) => store.pipelines.job(job.id) as JobRow

  /** Jobs after `job` in its pipeline that wait, or were skipped, to run again (ResetSkippedJobsService). */
  const later = (job: JobRow) =>
    store.pipelines.jobs(job.pipeline_id).filter((j) => j.retried === 0 && j.position > job.position)

  function archive(job: JobRow): ArtifactDownload {
    const artifact = outputs.artifact(job.id)
    if (!artifact) throw notFound()
    return {
      body: chunkStream((seq) => outputs.chunk(job.id, seq)),
      filename: 'artifacts.zip',
      // `present_disk_file!`: an octet stream, whatever the file.
      contentType: 'application/octet-stream',
      size: artifact.size,
    }
  }
  /**
   * `available_artifacts?`: the archive is there, and not past its `expire_at` unless its pipeline's
   * artifacts are locked (a job's own file route asks it; the ref's routes and the whole archive do not).
   */
  const available = (job: JobRow): boolean => {
    const artifact = outputs.artifact(job.id)
    if (!artifact) return false
    return !artifactExpired(artifact.expire_at, isoNow(ctx.clock)) || outputs.pipelineLocked(job.pipeline_id)
  }
  function entry(job: JobRow, artifactPath: string, availableOnly = false): ArtifactDownload {
    if (availableOnly && !available(job)) throw notFound()
    if (artifactPath.includes('\u0000')) throw badRequest()
    const path = workspacePath(artifactPath)
    if (path === undefined || path !== artifactPath.replace(/^\.\//, '')) throw badRequest()
    if (!outputs.artifact(job.id)) throw notFound()
    const content = outputs.entry(job.id, path)
    if (!content) throw notFound()
    const name = path.split('/').pop() as string
    const ext = name.includes('.') ? (name.split('.').pop() as string).toLowerCase() : ''
    return {
      body: Readable.from([Buffer.from(content)]),
      filename: name,
      contentType: TYPES[ext] ?? 'application/octet-stream',
      size: content.length,
    }
  }

  return {
    /** `GET /projects/:id/jobs`: builds newest first, retried ones too; pages without a total (`without_count`). */
    list(actor: Actor, ref: string, q: JobScopeQuery): PageOut<Job> {
      const p = readableBuilds(actor, ref)
      const statuses = scopeList(q.scope)
      const page = pageOf(q)
      const rows = outputs.projectBuilds(p.id, statuses, page.perPage + 1, page.offset)
      // Each pipeline of the page, and its commit, read once.
      const pipelinesById = new Map<number, { pipeline: PipelineRow; commit?: HistoryCommit }>()
      const items = rows.slice(0, page.perPage).map((job) => {
        let read = pipelinesById.get(job.pipeline_id)
        if (!read) {
          const pipeline = store.pipelines.byId(job.pipeline_id) as PipelineRow
          read = { pipeline, commit: pipelineCommit(store, pipeline) }
          pipelinesById.set(pipeline.id, read)
        }
        return showWith(p, read.pipeline, job, read.commit)
      })
      return { items, page, total: undefined, hasMore: rows.length > page.perPage }
    },

    get(actor: Actor, ref: string, jobId: number): Job {
      const p = readableBuilds(actor, ref)
      const { job, pipeline } = findBuild(p, jobId)
      return show(p, pipeline, job)
    },

    /**
     * `GET /job`: the running job whose CI/CD token authenticated the call (`validate_current_authenticated_job`);
     * any other credential, a personal access token included, is `404 Job Not Found`.
     */
    current(actor: Actor): Job {
      if (!(actor instanceof JobTokenActor)) throw notFound('Job')
      const job = store.pipelines.job(actor.job.id) as JobRow
      const pipeline = store.pipelines.byId(job.pipeline_id) as PipelineRow
      return show(store.projects.get(actor.job.projectId) as ProjectRow, pipeline, job)
    },

    /** `GET .../trace`: the log so far (empty before the job starts and after it is erased). */
    trace(actor: Actor, ref: string, jobId: number): { id: number; text: string } {
      const p = readableBuilds(actor, ref)
      const { job } = findBuild(p, jobId)
      return { id: job.id, text: outputs.trace(job.id) ?? '' }
    },

    /**
     * `POST .../play`: a manual or delayed job starts now, with the caller as its user. A build answers
     * as `Entities::Ci::Job`, a trigger job as `Entities::Ci::Bridge` (`lib/api/ci/jobs.rb`).
     */
    play(actor: Actor, ref: string, jobId: number, body: JobPlayBody): Job | Bridge {
      const p = readableBuilds(actor, ref)
      const { job, pipeline } = find(p, jobId)
      requireUpdate(actor, p, Level.developer)
      requireRef(actor, p, pipeline)
      if (!PLAYABLE.has(job.status)) throw badRequest('Unplayable Job')
      playJob(store, runner, job, pipeline.id, isoNow(ctx.clock), {
        user_id: actor.user?.id ?? null,
        variables: body.job_variables_attributes?.length
          ? JSON.stringify(body.job_variables_attributes)
          : null,
      })
      const played = store.pipelines.byId(pipeline.id) as PipelineRow
      if (outputs.isBridge(job.id)) return showBridge(p, played, current(job))
      return show(p, played, current(job))
    },

    /** `POST .../retry`: a new job in the old one's place (the old one `retried`), the skipped ones after it reset. */
    retry(actor: Actor, ref: string, jobId: number): Job {
      const p = readable(actor, ref)
      const { job, pipeline } = find(p, jobId)
      requireUpdate(actor, p, Level.developer)
      requireRef(actor, p, pipeline)
      if (!COMPLETED.has(job.status) || job.retried !== 0) throw forbidden('Job is not retryable')
      const id = retryJob(store, runner, job, pipeline, isoNow(ctx.clock))
      const fresh = store.pipelines.job(id) as JobRow
      return show(p, store.pipelines.byId(pipeline.id) as PipelineRow, fresh)
    },

    /**
     * `POST .../cancel`: an unfinished job is canceled and the ones waiting after it skipped; a finished one
     * is left. `authorize_cancel_builds!` comes before the job is looked up: 403 before 404.
     */
    cancel(actor: Actor, ref: string, jobId: number, force: boolean | undefined): Job {
      const p = readable(actor, ref)
      require(actor, p, Level.developer)
      const { job, pipeline } = findBuild(p, jobId)
      requireRef(actor, p, pipeline)
      if (force) require(actor, p, Level.maintainer)
      if (CANCELABLE.has(job.status)) {
        const now = isoNow(ctx.clock)
        store.transaction(() => {
          store.pipelines.setJob({ ...job, status: 'canceled', finished_at: now, due_at: null })
          const trace = outputs.trace(job.id)
          if (trace !== undefined)
            outputs.putTrace(job.id, `${trace}${ANSI.boldRed}ERROR: Job failed: canceled${ANSI.reset}\n`)
          // A planned pipeline gives the jobs after it their turn (`when: always` ones run); others skip them.
          if (store.ciProcessables.isPlanned(pipeline.id)) runner.advance(pipeline.id, now)
          else
            for (const j of later(job))
              if (j.status === 'created') store.pipelines.setJob({ ...j, status: 'skipped', due_at: null })
          runner.refresh(pipeline, now)
        })
      }
      return show(p, store.pipelines.byId(pipeline.id) as PipelineRow, current(job))
    },

    /**
     * `POST .../erase`: a finished job's trace and artifacts go (`Ci::BuildEraseService`).
     * The job is looked up first (404 for a missing one, whatever the caller's role), then `erase_build`
     * (403): `update_build` (Developer), and Maintainer or the Developer whose pipeline it is, and never
     * on a ref the caller may not write (`protected_ref` prevents it, Maintainers included).
     * (`lib/api/ci/jobs.rb`: `find_build!`, then `authorize!(:erase_build, build)`.)
     */
    erase(actor: Actor, ref: string, jobId: number): Job {
      const p = readable(actor, ref)
      if (!actor.user) throw unauthorized()
      const { job, pipeline } = findBuild(p, jobId)
      requireUpdate(actor, p, Level.developer)
      const own = pipeline.user_id === actor.user.id
      if (!own && !access.atLeast(actor, p, Level.maintainer)) throw forbidden()
      requireRef(actor, p, pipeline)
      const erasable =
        COMPLETED.has(job.status) &&
        (outputs.artifact(job.id) !== undefined || outputs.trace(job.id) !== undefined)
      if (!erasable) throw forbidden('Job is not erasable!')
      const now = isoNow(ctx.clock)
      const by = actor.user.id
      store.transaction(() => {
        outputs.dropArtifact(job.id)
        outputs.dropTrace(job.id)
        // `Ci::BuildEraseService`: the build's `artifacts_expire_at` is cleared too.
        outputs.setState(job.id, { erased_at: now, erased_by_id: by, artifacts_expire_at: null })
      })
      return show(p, pipeline, current(job))
    },

    /** `GET .../jobs/:job_id/artifacts`: the archive, streamed from the store. */
    artifacts(actor: Actor, ref: string, jobId: number): ArtifactDownload {
      const p = readableBuilds(actor, ref)
      return archive(findBuild(p, jobId).job)
    },

    /** `GET .../jobs/:job_id/artifacts/*artifact_path`: one file of the archive. */
    artifactFile(actor: Actor, ref: string, jobId: number, artifactPath: string): ArtifactDownload {
      const p = readableBuilds(actor, ref)
      return entry(findBuild(p, jobId).job, artifactPath, true)
    },

    /**
     * `POST .../jobs/:job_id/artifacts/keep` (`keep_artifacts!`): the archive no longer expires.
     * `authorize_update_builds!` (Developer, 403) before the job is looked up, then `update_build` on the
     * job (a ref the caller may not write: 403); a job whose archive is gone or past its `expire_at`
     * (`artifacts?`, locked or not) is 404 `not_found!(build)`, whose message holds the build as Ruby
     * prints it (`404 #<Ci::Build:0x...> Not Found`): the object's address there, the job's id here.
     */
    keepArtifacts(actor: Actor, ref: string, jobId: number): Job {
      const p = readable(actor, ref)
      requireUpdate(actor, p, Level.developer)
      const { job, pipeline } = findBuild(p, jobId)
      requireRef(actor, p, pipeline)
      const artifact = outputs.artifact(job.id)
      if (!artifact || artifactExpired(artifact.expire_at, isoNow(ctx.clock)))
        throw notFound(rubyObject('Ci::Build', job.id))
      outputs.keepArtifact(job.id)
      return show(p, pipeline, job)
    },

    /**
     * `DELETE .../jobs/:job_id/artifacts` (`Ci::JobArtifacts::DeleteService`): the archive goes, locked
     * or not, the trace stays. `destroy_artifacts` is the project's Maintainers' (403 before the job is
     * looked up); a job without an archive answers 204 all the same.
     */
    deleteArtifacts(actor: Actor, ref: string, jobId: number): void {
      const p = readable(actor, ref)
      requireMaintainer(actor, p)
      const artifact = outputs.artifact(findBuild(p, jobId).job.id)
      if (artifact) destroyArtifacts(store, [artifact])
    },

    /**
     * `DELETE /projects/:id/artifacts` (`ExpireProjectBuildArtifactsService`): every archive of a pipeline
     * whose artifacts are not locked expires now, and is destroyed (GitLab's worker and cron do it after
     * the 202; here before it). The locked pipelines' archives stay. Maintainers (`destroy_artifacts`).
     */
    deleteProjectArtifacts(actor: Actor, ref: string): void {
      const p = readable(actor, ref)
      requireMaintainer(actor, p)
      destroyArtifacts(store, outputs.unlockedOfProject(p.id))
    },

    /** The archives past their `expire_at` and not locked are destroyed (a clock move's cron run); how many. */
    expireDue: (): number => expireArtifacts(ctx),

    /** The successful job named `name` of the ref's latest successful pipeline; 404 `Not found` otherwise. */
    latestByRef(actor: Actor, ref: string, refName: string, name: string) {
      const p = readableBuilds(actor, ref)
      const job = outputs.latestSuccessful(p.id, refName, name)
      if (!job) throw recordNotFound()
      return {
        archive: () => archive(job),
        entry: (artifactPath: string) => entry(job, artifactPath),
      }
    },

    /** `GET .../pipelines/:pipeline_id/bridges`: its trigger jobs and the pipelines they started. */
    bridges(actor: Actor, ref: string, pipelineId: number, q: JobScopeQuery): PageOut<Bridge> {
      const p = readableBuilds(actor, ref)
      const pipeline = store.pipelines.get(p.id, pipelineId)
      if (!pipeline) throw recordNotFound()
      const rows = outputs.bridges(pipeline.id, scopeList(q.scope))
      const page = slicePage(rows, pageOf(q))
      const items = page.items.map((job) => showBridge(p, pipeline, job))
      return { ...page, items }
    },
  }
}
export type JobService = ReturnType<typeof jobService>
