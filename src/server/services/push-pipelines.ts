import { parseCommit } from '../git/trees.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { ServiceContext } from './context.js'
import { isoNow } from '../domain/clock.js'
import { fetchRemoteIncludes, planFor, RemoteIncludeNeeded, type CiPlanInput } from './ci-plans.js'
import type { NewPipelineInput } from './pipeline-writes.js'
import type { RemoteIncludeFetcher } from '../jobs/remote-includes.js'
import { createPipelineRows } from './pipeline-creation.js'
import type { RepositoryService } from './repository/repository.js'
import { BLANK_SHA, type PushEvent } from './repository/core.js'

/** `Gitlab::Ci::Pipeline::Chain::Skip`: a commit message that asks for no pipeline. */
const SKIP_CI = /\[(ci[ _-]skip|skip[ _-]ci)\]/i

/**
 * The `push` pipelines of the repository API (`Git::BranchPushService`, `Git::TagPushService` ->
 * `Ci::CreatePipelineService#execute(:push)`): every branch or tag the API moves to a commit whose
 * `.gitlab-ci.yml` asks for one (its `workflow:rules` and `rules` see `CI_PIPELINE_SOURCE=push`), for the
 * pusher; not for a deleted ref, nor a commit message with `[skip ci]`. A commit without the file makes no
 * pipeline (the seed's `ci_jobs` shortcut is for triggers and the API only, our choice); an invalid one a
 * failed pipeline, as GitLab keeps one. A configuration with `include: remote` makes its pipeline once
 * the files are fetched, after the push has answered.
 */
export function withPushPipelines(
  repository: RepositoryService,
  ctx: ServiceContext,
  runner: PipelineRunner | undefined,
  remoteIncludes: RemoteIncludeFetcher,
): RepositoryService {
  if (!runner) return repository
  const { store, access } = ctx
  const create = (input: CiPlanInput & NewPipelineInput) => {
    const outcome = planFor(store, access, input)
    if (outcome.kind === 'shortcut') return
    const now = isoNow(ctx.clock)
    store.transaction(() =>
      createPipelineRows(
        store,
        access,
        runner,
        outcome.kind === 'plan' ? { ...input, plan: outcome.plan } : input,
        now,
      ),
    )
    runner.poke()
  }
  repository.onPush((event: PushEvent) => {
    if (event.after === BLANK_SHA) return
    const commit = store.gitObjects.get(event.after)
    if (commit?.type === 'commit' && SKIP_CI.test(parseCommit(commit.body).message)) return
    const input = {
      project: event.project,
      ref: event.ref,
      sha: event.after,
      tag: event.kind === 'tag',
      userId: event.user.id,
      source: 'push' as const,
      variables: [],
      before: event.before,
    }
    try {
      create(input)
    } catch (err) {
      if (!(err instanceof RemoteIncludeNeeded)) throw err
      // Remote includes are fetched first: the pipeline follows the push once they are in, as
      // GitLab's own push pipelines follow it (a background job); the emulator's settle waits for it.
      runner.creating(fetchRemoteIncludes(store, access, input, remoteIncludes).then(create))
    }
  })
  return repository
}
