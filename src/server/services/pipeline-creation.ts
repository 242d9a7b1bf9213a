import type { DownstreamStarter, PipelineRunner } from '../jobs/pipeline-runner.js'
import type { Store } from '../store/index.js'
import type { JobRow, PipelineRow, VariableRow } from '../store/pipelines.js'
import type { JobDefinition } from '../ci/job-definition.js'
import { Actor, Level, writable, type Access } from './access.js'
import type { RemoteInclude, RemoteIncludeFetcher } from '../jobs/remote-includes.js'
import { fetchRemoteIncludes, planFor, RemoteIncludeNeeded, type CiPlanOutcome } from './ci-plans.js'
import { insertPipeline, type NewPipelineInput } from './pipeline-writes.js'
import { resolveRef } from './refs.js'

/** A pipeline made, or GitLab's reason for refusing it (with the failed pipeline GitLab keeps for a YAML error). */
export type Creation = { row: PipelineRow } | { error: string; row?: PipelineRow }

/**
 * Creates a pipeline's rows inside the caller's transaction (`Ci::CreatePipelineService`): its jobs from
 * the `.gitlab-ci.yml` at its commit, or the seed's shortcut. A configuration error leaves a `failed`
 * pipeline with no jobs and the error kept (GitLab persists it with `yaml_errors`); a missing file, a
 * pipeline `workflow:rules` filter out or one no job is left in leaves nothing, as does any error without
 * `saveOnErrors` (`POST /pipeline` passes `save_on_errors: false`).
 */
export function createPipelineRows(
  store: Store,
  access: Access,
  runner: PipelineRunner,
  input: NewPipelineInput,
  now: string,
  saveOnErrors = true,
): Creation {
  if (input.plan) return { row: insertPipeline(store, runner, input, now) }
  const outcome = planFor(store, access, input)
  if (outcome.kind === 'shortcut') return { row: insertPipeline(store, runner, input, now) }
  if (outcome.kind === 'plan')
    return { row: insertPipeline(store, runner, { ...input, plan: outcome.plan }, now) }
  if (!outcome.yaml || !saveOnErrors) return { error: outcome.message }
  return { error: outcome.message, row: failedPipeline(store, runner, input, outcome.message, now) }
}

/** The `failed` pipeline, with no jobs, that GitLab keeps for a configuration error (its `yaml_errors`). */
function failedPipeline(
  store: Store,
  runner: PipelineRunner,
  input: NewPipelineInput,
  message: string,
  now: string,
): PipelineRow {
  const row = insertPipeline(store, runner, { ...input, plan: { stages: [], jobs: [], variables: {} } }, now)
  store.ciProcessables.putError(row.id, message)
  const failed = { ...row, status: 'failed', finished_at: now, updated_at: now }
  store.pipelines.setState(failed)
  return failed
}

/**
 * What starts a bridge's downstream pipeline (`Ci::CreateDownstreamPipelineService`): a child pipeline
 * of the same commit from `trigger:include` (`source: parent_pipeline`), or a pipeline of another
 * project's branch (`trigger:project`, `source: pipeline`) for the upstream pipeline's user, who must be
 * allowed to create pipelines there. Variables: the bridge's own (`forward:yaml_variables`, on by
 * default) and the upstream pipeline's (`forward:pipeline_variables`). A refusal fails the bridge with
 * GitLab's failure reason; a configuration error also keeps the failed downstream pipeline, linked to the
 * bridge (`Ci::CreateDownstreamPipelineService#update_bridge_status!` drops the bridge with
 * `downstream_pipeline_creation_failed` after `Ci::CreatePipelineService` persisted it with `yaml_errors`).
 * A child whose configuration includes remote files waits for them (`waitFor`), fetched once per bridge
 * and handed to the starter it resolves to.
 */
export function downstreamStarter(
  store: Store,
  runner: PipelineRunner,
  access: Access,
  fetchRemote: RemoteIncludeFetcher,
): DownstreamStarter {
  /** Starts `bridge`'s downstream pipeline, with the remote includes fetched for its child while it waited. */
  function start(
    bridge: JobRow,
    definition: JobDefinition,
    at: string,
    remotes?: ReadonlyMap<string, RemoteInclude>,
  ): ReturnType<DownstreamStarter> {
    const upstream = store.pipelines.byId(bridge.pipeline_id)
    const trigger = definition.trigger
    if (!upstream || !trigger) return { error: 'invalid_bridge_trigger' }
    const forward = trigger.forward ?? { yaml_variables: true, pipeline_variables: false }
    const variables: VariableRow[] = []
    if (forward.yaml_variables)
      for (const [key, value] of Object.entries(definition.variables))
        variables.push({ key, value, variable_type: 'env_var' })
    if (forward.pipeline_variables) variables.push(...store.pipelines.variables(upstream.id))
    const common = {
      userId: upstream.user_id,
      upstream: { pipelineId: upstream.id, jobId: bridge.id },
      variables,
    }
    let input: NewPipelineInput
    if (trigger.include) {
      const project = store.projects.get(upstream.project_id)
      if (!project) return { error: 'downstream_bridge_project_not_found' }
      input = {
        ...common,
        project,
        ref: upstream.ref,
        sha: upstream.sha,
        tag: upstream.tag === 1,
        source: 'parent_pipeline',
      }
      const child = { ...input, childInclude: trigger.include, parent: upstream.id, remotes }
      let outcome: CiPlanOutcome
      try {
        outcome = planFor(store, access, child)
      } catch (err) {
        if (!(err instanceof RemoteIncludeNeeded)) throw err
        // Asked again with the files: nothing is kept here for a bridge canceled meanwhile.
        const waitFor = fetchRemoteIncludes(store, access, child, fetchRemote).then(
          (done): DownstreamStarter =>
            (again, againDefinition, againAt) =>
              start(again, againDefinition, againAt, done.remotes),
        )
        return { waitFor }
      }
      if (outcome.kind === 'error' && outcome.yaml) {
        const message = outcome.message
        const made = input
        const failed = store.transaction(() => failedPipeline(store, runner, made, message, at))
        return { error: 'downstream_pipeline_creation_failed', pipelineId: failed.id }
      }
      if (outcome.kind !== 'plan') return { error: 'downstream_pipeline_creation_failed' }
      input.plan = outcome.plan
    } else {
      const project = trigger.project ? store.projects.byPath(trigger.project) : undefined
      const user = upstream.user_id === null ? undefined : store.users.get(upstream.user_id)
      if (!project || !user || !access.canReadProject(new Actor(user), project))
        return { error: 'downstream_bridge_project_not_found' }
      if (project.id === upstream.project_id && !trigger.branch) return { error: 'invalid_bridge_trigger' }
      if (
        user.state !== 'active' ||
        !writable(project) ||
        !access.atLeast(new Actor(user), project, Level.developer)
      )
        return { error: 'insufficient_bridge_permissions' }
      const ref = resolveRef(store, project.id, trigger.branch ?? project.default_branch ?? 'main')
      if (ref === undefined || ref === 'ambiguous') return { error: 'downstream_pipeline_creation_failed' }
      input = { ...common, project, ref: ref.name, sha: ref.sha, tag: ref.kind === 'tag', source: 'pipeline' }
    }
    const made = store.transaction(() => createPipelineRows(store, access, runner, input, at))
    if ('error' in made) return { error: 'downstream_pipeline_creation_failed', pipelineId: made.row?.id }
    return { pipelineId: made.row.id }
  }
  return (bridge, definition, at) => start(bridge, definition, at)
}
