import type { CommitStatus, CommitStatusCreate, CommitStatusListQuery } from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { forbidden, messageError, notFound, unauthorized, validationError } from '../grape/gitlab-errors.js'
import { pageOf, type Page } from '../grape/pagination.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import { BlockedUrlError, checkUrl } from '../outbound/outbound-url.js'
import { presentCommitStatuses } from '../present/commit-statuses.js'
import type { CommitStatusRow } from '../store/commit-statuses.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, writable, type Actor } from './access.js'
import { ciAbilities } from './ci-access.js'
import type { ServiceContext } from './context.js'
import type { PipelineService } from './pipelines.js'
import { refNamesContaining } from './repository/commits.js'
import { repositoryCore } from './repository/core.js'

/**
 * The state machine's events a posted state fires (`Ci::CreateCommitStatusService#apply_job_state!`) and
 * the statuses each leaves from (`CommitStatus`'s `state_machine`); only a new (`created`), `pending` or
 * `running` status is ever moved, as a finished one is never updated but followed by a new one.
 */
const EVENTS: Record<string, { event: string; from: string[]; to: string }[]> = {
  pending: [{ event: 'enqueue', from: ['created'], to: 'pending' }],
  // `enqueue` (without a bang: a refusal is ignored), then `run!`.
  running: [
    { event: 'enqueue', from: ['created'], to: 'pending' },
    { event: 'run', from: ['pending'], to: 'running' },
  ],
  success: [{ event: 'success', from: ['created', 'pending', 'running'], to: 'success' }],
  failed: [{ event: 'drop', from: ['created', 'pending', 'running'], to: 'failed' }],
  canceled: [{ event: 'cancel', from: ['created', 'pending', 'running'], to: 'canceled' }],
  skipped: [{ event: 'skip', from: ['created', 'pending'], to: 'skipped' }],
}
const FINISHING = new Set(['success', 'failed', 'canceled'])
const MAX_LENGTH = 255

/** `StateMachines::InvalidTransition#message`, as GitLab answers it (400). */
const invalidTransition = (event: string, from: string) =>
  messageError(
    400,
    `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`,
  )

/**
 * `GenericCommitStatus`' validations: `target_url` an http(s) URL (`addressable_url`, local addresses
 * allowed) of at most 255 characters; `description` at most 255. GitLab's 400 `{"message":{field:[...]}}`.
 */
function validate(params: CommitStatusCreate): void {
  const errors: Record<string, string[]> = {}
  const tooLong = `is too long (maximum is ${MAX_LENGTH} characters)`
  if (params.target_url !== undefined) {
    const problems: string[] = []
    try {
      checkUrl(params.target_url, ['http', 'https'], true)
    } catch (err) {
      if (!(err instanceof BlockedUrlError)) throw err
      problems.push(`is blocked: ${err.message}`)
    }
    if (params.target_url.length > MAX_LENGTH) problems.push(tooLong)
    if (problems.length) errors.target_url = problems
  }
  if (params.description !== undefined && params.description.length > MAX_LENGTH)
    errors.description = [tooLong]
  if (Object.keys(errors).length) throw validationError(errors)
}

/**
 * Commit statuses (`lib/api/commit_statuses.rb`, `Ci::CreateCommitStatusService`): what external CI systems
 * post on a commit, kept as `GenericCommitStatus` rows in a pipeline's `external` stage, and the list of a
 * commit's statuses (its pipelines' jobs too). Both routes `authenticate!` first (401 for anonymous callers);
 * reading takes `read_commit_status` (Reporter), posting `create_commit_status` (Developer, a project not
 * archived) and then `update_pipeline` on the pipeline (a ref the caller may write; 403).
 */
export function commitStatusService(ctx: ServiceContext, runner: PipelineRunner, pipelines: PipelineService) {
  const { store, access } = ctx
  const core = repositoryCore(ctx)

  /** The project (404 when hidden), after `authenticate!`; the runner caught up with the clock. */
  function project(actor: Actor, projectRef: string): ProjectRow {
    if (!actor.user) throw unauthorized()
    return pipelines.project(actor, projectRef)
  }
  /** `project.commit(sha)`: a sha, or any ref naming a commit; 404 `Commit Not Found` otherwise. */
  function commitOf(p: ProjectRow, sha: string): string {
    const found = core.resolveCommit(p, sha)
    if (found === undefined) throw notFound('Commit')
    return found
  }
  const userRecords = (ids: (number | null)[]) =>
    new Map(
      [...new Set(ids)]
        .filter((id): id is number => id !== null)
        .flatMap((id) => {
          const row = store.users.get(id)
          return row ? [[id, row] as const] : []
        }),
    )

  /** The status moved as `state` asks, with its times; 400 for a transition its state machine refuses. */
  function transition(row: CommitStatusRow, state: string, now: string): CommitStatusRow {
    let status = row.status
    for (const [n, step] of (EVENTS[state] ?? []).entries()) {
      const bang = n === EVENTS[state]!.length - 1
      if (!step.from.includes(status)) {
        if (bang) throw invalidTransition(step.event, status)
        continue
      }
      status = step.to
    }
    return {
      ...row,
      status,
      started_at: status === 'running' ? (row.started_at ?? now) : row.started_at,
      finished_at: FINISHING.has(status) ? now : row.finished_at,
    }
  }

  return {
    /**
     * `POST /projects/:id/statuses/:sha`: the ref is `ref`, else the ref of the sha's newest pipeline,
     * else the first branch holding the commit (404 `References for commit`); the status goes to the
     * newest pipeline of the sha and ref (or `pipeline_id`: 404 `Pipeline for pipeline_id, sha and ref`
     * when it matches none), else to a new `external` pipeline. The pending or running status of that
     * name, ref and user moves; otherwise a new one is made, and the pipeline's other statuses of the
     * name become retried. As in GitLab, the new pipeline is saved before `update_pipeline` is asked and
     * the status validated: a 403 or a 400 from then on leaves it (`created`, without jobs) behind.
     */
    create(actor: Actor, projectRef: string, sha: string, params: CommitStatusCreate): CommitStatus {
      const p = project(actor, projectRef)
      if (!writable(p) || !access.atLeast(actor, p, Level.developer)) throw forbidden()
      const commit = commitOf(p, sha)
      const matching = store.pipelines.newestFor(p.id, commit, params.ref ?? null, params.pipeline_id ?? null)
      const ref = params.ref ?? matching?.ref ?? refNamesContaining(store, p.id, 'branch', commit)[0]
      if (ref === undefined) throw notFound('References for commit')
      if (params.pipeline_id !== undefined && !matching)
        throw notFound('Pipeline for pipeline_id, sha and ref')
      const now = isoNow(ctx.clock)
      const userId = actor.user?.id ?? null
      // Saved before `update_pipeline` is asked and the status validated: a refused post leaves it behind.
      const pipeline =
        matching ??
        store.pipelines.byId(
          store.pipelines.insert({
            project_id: p.id,
            ref,
            sha: commit,
            tag: 0,
            status: 'created',
            source: 'external',
            user_id: userId,
            trigger_id: null,
            upstream_pipeline_id: null,
            upstream_job_id: null,
            created_at: now,
            updated_at: now,
          }),
        )!
      // `update_pipeline` (`Ci::PipelinePolicy`): the pipeline abilities, on a ref the caller may write.
      if (
        !ciAbilities(store, access, actor, p).pipelines ||
        !pipelines.mayWriteRef(actor, p, pipeline.ref, pipeline.tag === 1)
      )
        throw forbidden()
      validate(params)
      const name = params.name ?? params.context ?? 'default'
      const row = store.transaction(() => {
        const open = store.commitStatuses.open(pipeline.id, name, ref, userId)
        const base: CommitStatusRow = open ?? {
          id: 0,
          pipeline_id: pipeline.id,
          name,
          // `AddJobService` gives the status its pipeline's ref.
          ref: pipeline.ref,
          status: 'created',
          target_url: null,
          description: null,
          coverage: null,
          user_id: userId,
          retried: 0,
          created_at: now,
          started_at: null,
          finished_at: null,
        }
        const next = transition(
          {
            ...base,
            ...(params.target_url !== undefined ? { target_url: params.target_url } : {}),
            ...(params.description !== undefined ? { description: params.description } : {}),
            ...(params.coverage !== undefined ? { coverage: params.coverage } : {}),
          },
          params.state,
          now,
        )
        let id = next.id
        if (open) store.commitStatuses.update(next)
        else {
          const { id: _, retried: __, ...fresh } = next
          id = store.commitStatuses.insert(fresh)
        }
        store.commitStatuses.retryOthers(pipeline.id, name, id)
        runner.refresh(pipeline, now)
        return { ...next, id }
      })
      return presentCommitStatuses(
        [{ ...row, sha: pipeline.sha, stage: 'external', allow_failure: 0 }],
        userRecords([row.user_id]),
        ctx.instance,
      )[0]!
    },

    /**
     * `GET /projects/:id/repository/commits/:sha/statuses`: every status of the sha's pipelines in the
     * project, posted ones and jobs alike (`CommitStatus`), the latest of each name unless `all`; filtered
     * by `ref`, stage name, `name` and `pipeline_id`; ordered by `order_by` (then id) in `sort`'s direction.
     */
    list(
      actor: Actor,
      projectRef: string,
      sha: string,
      q: CommitStatusListQuery,
    ): { items: CommitStatus[]; page: Page; total: number } {
      const p = project(actor, projectRef)
      if (!access.atLeast(actor, p, Level.reporter)) throw forbidden()
      const commit = commitOf(p, sha)
      const page = pageOf(q)
      const filter = {
        projectId: p.id,
        sha: commit,
        ref: q.ref || undefined,
        stage: q.stage || undefined,
        name: q.name || undefined,
        pipelineId: q.pipeline_id ?? undefined,
        all: q.all === true,
        order: q.order_by ?? 'id',
        sort: q.sort ?? 'asc',
      }
      const total = store.commitStatuses.count(filter)
      const rows = store.commitStatuses.page(filter, page.perPage, page.offset)
      const items = presentCommitStatuses(rows, userRecords(rows.map((r) => r.user_id)), ctx.instance)
      return { items, page, total }
    },
  }
}
export type CommitStatusService = ReturnType<typeof commitStatusService>
