import type { ProjectRow } from '../store/projects.js'
import type { RunnerRow } from '../store/runners.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'

/**
 * `Ci::RunnerPolicy` (app/policies/ci/runner_policy.rb) over the store's runners: who administers, reads,
 * updates a runner and reads its jobs. A runner's owner is the instance, its group, or its project
 * (`ci_runners.project_id`, else the first project it is enabled in).
 */
export function runnerPolicy(ctx: ServiceContext) {
  const { access, store } = ctx
  const runners = store.runners
  const ownerProject = (r: RunnerRow) => {
    const id = r.project_id ?? runners.projectsOf(r.id)[0]
    return id === undefined ? undefined : store.projects.get(id)
  }
  const ownerGroup = (r: RunnerRow) =>
    r.namespace_id === null ? undefined : store.namespaces.get(r.namespace_id)
  const multipleProjects = (r: RunnerRow) =>
    r.runner_type === 'project_type' && runners.projectsOf(r.id).length > 1
  const maintainerOf = (actor: Actor, p: ProjectRow | undefined) =>
    p !== undefined && access.projectLevel(actor, p) >= Level.maintainer
  const maintainerInAnyProject = (actor: Actor, r: RunnerRow) =>
    runners.projectsOf(r.id).some((id) => maintainerOf(actor, store.projects.get(id)))

  /** `admin_runners` on the runner's owner: the instance (administrators), its group's Owners, its project's Maintainers. */
  const canAdmin = (actor: Actor, r: RunnerRow): boolean => {
    if (actor.admin) return true
    if (r.runner_type === 'group_type') {
      const group = ownerGroup(r)
      return group !== undefined && access.groupLevel(actor, group) >= Level.owner
    }
    return r.runner_type === 'project_type' && maintainerOf(actor, ownerProject(r))
  }
  /** `read_runner`: any signed-in user for instance runners; group and project Maintainers for theirs. */
  const canRead = (actor: Actor, r: RunnerRow): boolean => {
    if (!actor.user) return false
    if (r.runner_type === 'instance_type' || canAdmin(actor, r)) return true
    if (r.runner_type === 'project_type') return maintainerInAnyProject(actor, r)
    const group = ownerGroup(r)
    if (!group) return false
    return (
      access.groupLevel(actor, group) >= Level.maintainer ||
      access.readableProjects(actor, group).some(({ level }) => level >= Level.maintainer)
    )
  }
  /** A project runner enabled in several projects is the Maintainers' of each (`runner_available`). */
  const canUpdate = (actor: Actor, r: RunnerRow) =>
    canAdmin(actor, r) || (multipleProjects(r) && maintainerInAnyProject(actor, r))
  const canReadBuilds = (actor: Actor, r: RunnerRow) =>
    canAdmin(actor, r) ||
    (r.runner_type === 'group_type' && access.groupLevel(actor, ownerGroup(r)!) >= Level.maintainer) ||
    (multipleProjects(r) && maintainerInAnyProject(actor, r))

  return {
    ownerProject,
    ownerGroup,
    multipleProjects,
    maintainerInAnyProject,
    canAdmin,
    canRead,
    canUpdate,
    canReadBuilds,
  }
}
