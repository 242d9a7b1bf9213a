import type { HistoryCommit } from '../git/history.js'
import type { DeploymentRow, EnvironmentRow } from '../store/environments.js'
import type { UserRow } from '../store/users.js'
import type { Instance } from './context.js'
import { projectHookAttrs, userHookAttrs, type HookProject } from './hook-payloads.js'
import { commitTitle } from './push-payloads.js'

/** What a Deployment Hook shows of a deployment beyond its row. */
export interface HookDeployment {
  row: DeploymentRow
  environment: EnvironmentRow
  /** `deployable_url` is a job's page: only for a deployment a job (not a bridge) makes. */
  jobUrl: boolean
  /** `deployed_by`: the deploying job's user, else the deployment's. */
  user: UserRow | undefined
  /** The deployed commit, when the repository has it. */
  commit: HistoryCommit | undefined
}

/**
 * Ruby's `Time#to_s` of a time with a fixed offset: the worker's `status_changed_at.to_time`, which
 * reaches the receiver as its string (`2026-01-02 03:04:05 +0000`).
 */
const offsetTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000`

/**
 * `Gitlab::DataBuilder::Deployment#build`: the status the deployment moved to (not the one it may have
 * now) and when, its environment, project, commit and who deployed it.
 */
export function deploymentPayload(
  instance: Instance,
  project: HookProject,
  d: HookDeployment,
  status: string,
  changedAt: string,
): Record<string, unknown> {
  const web = `${instance.baseUrl}/${project.row.full_path}`
  const { row, environment, user, commit } = d
  return {
    object_kind: 'deployment',
    status,
    status_changed_at: offsetTime(changedAt),
    deployment_id: row.id,
    deployable_id: row.deployable_id,
    deployable_url: d.jobUrl ? `${web}/-/jobs/${row.deployable_id}` : null,
    environment: environment.name,
    environment_tier: environment.tier,
    environment_slug: environment.slug,
    environment_external_url: environment.external_url,
    project: projectHookAttrs(instance, project),
    short_sha: row.sha.slice(0, 8),
    user: user ? userHookAttrs(user) : null,
    user_url: user ? `${instance.baseUrl}/${user.username}` : null,
    commit_url: commit ? `${web}/-/commit/${row.sha}` : null,
    commit_title: commit ? commitTitle(commit.message) : null,
    ref: row.ref,
  }
}
