import { parseCommit } from '../git/trees.js'
import type { PipelineRunner } from '../jobs/pipeline-runner.js'
import type { ServiceContext } from './context.js'
import { isoNow } from '../domain/clock.js'
import { planFor } from './ci-plans.js'
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
 * failed pipeline, as GitLab keeps one.
 */
export function withPushPipelines(
  repository: RepositoryService,
  ctx: ServiceContext,
  runner: PipelineRunner | undefined,
): RepositoryService {
  if (!runner) return repository
  const { store } = ctx
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
    const outcome = planFor(store, ctx.access, input)
    if (outcome.kind === 'shortcut') return
    const now = isoNow(ctx.clock)
    store.transaction(() =>
      createPipelineRows(
        store,
        ctx.access,
        runner,
        outcome.kind === 'plan' ? { ...input, plan: outcome.plan } : input,
        now,
      ),
    )
    runner.poke()
  })
  return repository
}
