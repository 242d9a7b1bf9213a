/*
 * Whether 'access-token' may cancel the pipeline it waits for, checked before anything is
 * triggered (as its reading is): a token that can read pipelines but not cancel them would leave
 * a cancelled job's pipeline running, which 'cancel-on-abort' promises it does not.
 */
import type { GitLabClient } from '../../api/client.js'
import type { ResourceRef } from '../../schema/common.js'

/** GitLab's Developer level: the least that may cancel a pipeline (`Ci::PipelinePolicy`'s `update_pipeline`). */
const DEVELOPER = 30
const ROLES: Record<number, string> = {
  5: 'Minimal Access',
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
}

/**
 * The role that keeps the token's user from cancelling the project's pipelines (e.g. `Reporter`),
 * or undefined when it may cancel them or GitLab does not say. The role is the higher of the
 * project and group memberships GitLab shows (`permissions` of `GET /projects/:id`); an administrator
 * may cancel anything. A token with no membership shown (a public project, a membership through a
 * group the project is shared with, which `permissions` leaves out) is given the benefit of the doubt.
 */
export async function roleTooLowToCancel(
  reader: GitLabClient,
  project: ResourceRef,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const { permissions } = await reader.projects.get(project, { signal })
  const level = Math.max(
    permissions?.project_access?.access_level ?? 0,
    permissions?.group_access?.access_level ?? 0,
  )
  if (level === 0 || level >= DEVELOPER) return undefined
  if ((await reader.users.current({ signal })).is_admin) return undefined
  return ROLES[level] ?? `access level ${level}`
}
