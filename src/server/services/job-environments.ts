import { environmentSlug, guessTier, isEnvironmentName, type JobEnvironment } from '../ci/environment.js'
import { parseCiDuration } from '../domain/chronic-duration.js'
import type { Store } from '../store/index.js'
import type { PipelineRow } from '../store/pipelines.js'

/**
 * The environment a job's `environment:` names, found or made (`Environments::CreateForJobService`), and
 * for a `start` job its deployment, `created` (`Deployments::CreateForJobService`); `stop`, `prepare`,
 * `verify` and `access` make none. What follows the job from then on is the store's (migration 42).
 */
export function ensureJobEnvironment(
  store: Store,
  pipeline: PipelineRow,
  jobId: number,
  environment: JobEnvironment | undefined,
  now: string,
): void {
  if (!environment || !isEnvironmentName(environment.name)) return
  const table = store.environments
  const { name, action } = environment
  const autoStop = environment.auto_stop_in === undefined ? null : autoStopSeconds(environment.auto_stop_in)
  let env = table.named(pipeline.project_id, name)
  if (!env) {
    const id = table.insert({
      project_id: pipeline.project_id,
      name,
      slug: uniqueSlug(store, pipeline.project_id, name),
      external_url: null,
      tier: environment.deployment_tier ?? guessTier(name),
      state: 'available',
      created_at: now,
      updated_at: now,
      // Made by the job: its `auto_stop_in` counts from now (`CreateForJobService`), renewed when it deploys.
      auto_stop_at: autoStop ? new Date(Date.parse(now) + autoStop * 1000).toISOString() : null,
      description: null,
      auto_stop_setting: 'always',
    })
    env = table.get(pipeline.project_id, id)!
  }
  table.linkJob(jobId, env.id, action, environment.url ?? null, autoStop)
  if (action !== 'start') return
  table.insertDeployment({
    project_id: pipeline.project_id,
    environment_id: env.id,
    ref: pipeline.ref,
    tag: pipeline.tag,
    sha: pipeline.sha,
    user_id: pipeline.user_id,
    deployable_id: jobId,
    status: 'created',
    created_at: now,
    updated_at: now,
    finished_at: null,
    on_stop: environment.on_stop ?? null,
  })
}

/**
 * The seconds of an expanded `auto_stop_in` (`Environment#auto_stop_in=`): 0 for `never` and for text
 * that is no duration, which leave the environment without an auto-stop time.
 */
function autoStopSeconds(value: string): number {
  if (value.toLowerCase() === 'never') return 0
  return parseCiDuration(value) ?? 0
}

/** `Environment#generate_slug`: the name's slug, made unique in the project with a random suffix. */
export function uniqueSlug(store: Store, projectId: number, name: string): string {
  const slug = environmentSlug(name)
  if (!store.environments.withSlug(projectId, slug)) return slug
  return `${slug.slice(0, 17).replace(/-?$/, '-')}${Math.random().toString(36).slice(2, 8)}`
}
