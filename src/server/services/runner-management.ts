import type {
  BasicProjectDetails,
  Project,
  Runner,
  RunnerCreate,
  RunnerDetails,
  RunnerListQuery,
  RunnerRegistration,
  RunnerTokenReset,
  RunnerUpdate,
} from '../../schema/index.js'
import { epochMs, isoNow } from '../domain/clock.js'
import { runnerState } from '../domain/runner-status.js'
import { errorFields, errorSentence, runnerErrors } from '../domain/runner-validation.js'
import {
  badRequest,
  forbidden,
  messageError,
  notFound,
  paramError,
  recordNotFound,
  unauthorized,
  validationError,
} from '../grape/gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { basicGroupDetails } from '../present/namespaces.js'
import { basicProjectDetails } from '../present/projects.js'
import { presentRunner, presentRunnerDetails, type RunnerFacts } from '../present/runners.js'
import { presentUser } from '../present/users.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import type { RunnerChanges, RunnerRow } from '../store/runners.js'
import { Level, type Actor } from './access.js'
import { ALL_SCOPES, cleanTags, filterRunners, STATUS_SCOPES } from './runner-lists.js'
import { runnerPolicy } from './runner-policy.js'
import { newCreatedRunnerToken, runnerTokens } from './runner-tokens.js'
import type { ServiceContext } from './context.js'

/**
 * The runner management API (GitLab's `lib/api/ci/runners.rb`, `lib/api/user_runners.rb` and the
 * runner-token calls of `lib/api/ci/runner.rb`), with `Ci::RunnerPolicy`'s rules. No runner polls
 * this server: a runner is `never_contacted` until `POST /runners/verify` with a registration-flow
 * token counts as its contact, and it never has jobs.
 */
export function runnerManagement(ctx: ServiceContext, projectRecord: (project: ProjectRow) => Project) {
  const { access, store } = ctx
  const runners = store.runners
  const tokens = runnerTokens(ctx)

  const {
    ownerGroup,
    ownerProject,
    multipleProjects,
    maintainerInAnyProject,
    canAdmin,
    canRead,
    canUpdate,
    canReadBuilds,
  } = runnerPolicy(ctx)

  const facts = (r: RunnerRow): RunnerFacts => {
    const { online, status } = runnerState({ ...r, active: r.active === 1 }, epochMs(ctx.clock))
    const creator = r.creator_id === null ? undefined : store.users.get(r.creator_id)
    return { online, status, creator: creator && presentUser(creator, ctx.instance) }
  }
  const present = (r: RunnerRow): Runner => presentRunner(r, facts(r))
  const details = (actor: Actor, r: RunnerRow): RunnerDetails => {
    const projects: BasicProjectDetails[] = []
    for (const id of runners.projectsOf(r.id)) {
      const p = store.projects.get(id)
      if (p && (actor.admin || access.projectLevel(actor, p) > 0))
        projects.push(basicProjectDetails(projectRecord(p)))
    }
    const group = ownerGroup(r)
    const groups =
      group && (actor.admin || access.groupLevel(actor, group) > 0)
        ? [basicGroupDetails(group, ctx.instance)]
        : []
    return presentRunnerDetails(r, facts(r), { maintenanceNote: canUpdate(actor, r), projects, groups })
  }

  /** `get_runner`: `Ci::Runner.find`, whose miss is the API's `404 Not found`. */
  const find = (actor: Actor, id: number): RunnerRow => {
    if (!actor.user) throw unauthorized()
    const r = runners.runner(id)
    if (!r) throw recordNotFound()
    return r
  }
  const requireUpdate = (actor: Actor, r: RunnerRow) => {
    if (!canUpdate(actor, r)) throw forbidden('No access granted')
  }

  /** `apply_filter` and the deprecated `scope` (`filter_runners`), then a page in id order. */
  const listed = (
    rows: RunnerRow[],
    q: RunnerListQuery,
    scopes: readonly string[] | null,
  ): PageOut<Runner> => {
    const page = pageOf(q)
    return mapPage(slicePage(filterRunners(rows, q, scopes, epochMs(ctx.clock)), page), present)
  }
  const links = () => {
    const byProject = new Map<number, Set<number>>()
    for (const { runner_id, project_id } of runners.projectLinks())
      (byProject.get(project_id) ?? byProject.set(project_id, new Set()).get(project_id)!).add(runner_id)
    return byProject
  }
  /** The group and its ancestors' ids. */
  const lineage = (group: NamespaceRow) => {
    const ids = new Set<number>()
    for (
      let ns: NamespaceRow | undefined = group;
      ns;
      ns = ns.parent_id === null ? undefined : store.namespaces.get(ns.parent_id)
    )
      ids.add(ns.id)
    return ids
  }

  return {
    verify: tokens.verify,
    resetOwnToken: tokens.resetOwnToken,
    unregister: tokens.unregister,

    /**
     * `POST /user/runners` (`Ci::Runners::CreateRunnerService`): a missing group or project is 400
     * `Missing/invalid group` (found by id, seen or not, as GitLab does), a caller without `create_runner`
     * 403 `Insufficient permissions` (administrators for instance runners, group Owners, project
     * Maintainers), model validation 400 with the errors as a sentence.
     */
    create(actor: Actor, params: RunnerCreate): RunnerRegistration {
      if (!actor.user) throw unauthorized()
      let project: ProjectRow | undefined
      let group: NamespaceRow | undefined
      if (params.runner_type === 'group_type') {
        if (params.group_id === undefined) throw paramError('group_id is missing')
        group = store.namespaces.get(params.group_id)
        if (!group || group.kind !== 'group') throw badRequest('Missing/invalid group')
        if (!actor.admin && access.groupLevel(actor, group) < Level.owner)
          throw forbidden('Insufficient permissions')
      } else if (params.runner_type === 'project_type') {
        if (params.project_id === undefined) throw paramError('project_id is missing')
        project = store.projects.get(params.project_id)
        if (!project) throw badRequest('Missing/invalid project')
        if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden('Insufficient permissions')
      } else if (!actor.admin) throw forbidden('Insufficient permissions')
      const tags = cleanTags(params.tag_list) ?? []
      const runUntagged = params.run_untagged ?? true
      const errors = runnerErrors({
        run_untagged: runUntagged,
        tags,
        note: params.maintenance_note,
        timeout: params.maximum_timeout,
      })
      if (errors.length > 0) throw badRequest(errorSentence(errors))
      const token = newCreatedRunnerToken()
      const id = runners.insertRunner({
        runner_type: params.runner_type,
        project_id: project?.id ?? null,
        namespace_id: group?.id ?? null,
        token,
        description: params.description ?? null,
        name: null,
        maintenance_note: params.maintenance_note ?? null,
        active: !(params.paused ?? false),
        locked: params.locked ?? false,
        run_untagged: runUntagged,
        access_level: params.access_level ?? 'not_protected',
        maximum_timeout: params.maximum_timeout ?? null,
        tag_list: tags,
        created_at: isoNow(ctx.clock),
        creator_id: actor.user.id,
        registration_type: 'authenticated_user',
      })
      return { id, token, token_expires_at: null }
    },

    /** `GET /runners`: `User#ci_owned_runners`, the runners of projects it maintains and groups it owns. */
    owned(actor: Actor, q: RunnerListQuery): PageOut<Runner> {
      if (!actor.user) throw unauthorized()
      const owned = runners.allRunners().filter((r) => {
        if (r.runner_type === 'project_type') return maintainerInAnyProject(actor, r)
        const group = r.runner_type === 'group_type' ? ownerGroup(r) : undefined
        return group !== undefined && access.groupLevel(actor, group) >= Level.owner
      })
      return listed(owned, q, STATUS_SCOPES)
    },

    /** `GET /runners/all`: administrators only (`authenticated_as_admin!`, 403 otherwise). */
    all(actor: Actor, q: RunnerListQuery): PageOut<Runner> {
      if (!actor.user) throw unauthorized()
      if (!actor.admin) throw forbidden()
      return listed(runners.allRunners(), q, ALL_SCOPES)
    },

    /** `GET /projects/:id/runners` (Maintainer): the project's own, its groups' and the instance's runners. */
    ofProject(actor: Actor, ref: string, q: RunnerListQuery): PageOut<Runner> {
      if (!actor.user) throw unauthorized()
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
      const own = links().get(project.id) ?? new Set()
      const ns = store.namespaces.get(project.namespace_id)
      const groups = ns ? lineage(ns) : new Set<number>()
      const rows = runners
        .allRunners()
        .filter(
          (r) =>
            r.runner_type === 'instance_type' ||
            (r.runner_type === 'project_type' && own.has(r.id)) ||
            (r.runner_type === 'group_type' && groups.has(r.namespace_id!)),
        )
      return listed(rows, q, ALL_SCOPES)
    },

    /** `GET /groups/:id/runners` (Owner, `read_group_runners`): the group's and its ancestors' runners and the instance's. */
    ofGroup(actor: Actor, ref: string, q: Omit<RunnerListQuery, 'scope'>): PageOut<Runner> {
      if (!actor.user) throw unauthorized()
      const group = access.group(actor, ref)
      if (!actor.admin && access.groupLevel(actor, group) < Level.owner) throw forbidden()
      const groups = lineage(group)
      const rows = runners
        .allRunners()
        .filter(
          (r) =>
            r.runner_type === 'instance_type' ||
            (r.runner_type === 'group_type' && groups.has(r.namespace_id!)),
        )
      return listed(rows, q, null)
    },

    /** `GET /runners/:id`: instance runners to every signed-in user, others by `read_runner` (403 `No access granted`). */
    get(actor: Actor, id: number): RunnerDetails {
      const r = find(actor, id)
      if (!canRead(actor, r)) throw forbidden('No access granted')
      return details(actor, r)
    },

    /** `PUT /runners/:id` (`update_runner`); model errors 400 `{"message": {field: [...]}}`. */
    update(actor: Actor, id: number, params: RunnerUpdate): RunnerDetails {
      const r = find(actor, id)
      requireUpdate(actor, r)
      const changes: RunnerChanges = {
        description: params.description,
        active: params.paused !== undefined ? !params.paused : params.active,
        locked: params.locked,
        run_untagged: params.run_untagged,
        access_level: params.access_level,
        maximum_timeout: params.maximum_timeout,
        maintenance_note: params.maintenance_note,
        tag_list: cleanTags(params.tag_list),
      }
      const errors = runnerErrors({
        run_untagged: changes.run_untagged ?? r.run_untagged === 1,
        tags: changes.tag_list ?? (JSON.parse(r.tag_list) as string[]),
        note: changes.maintenance_note,
        timeout: changes.maximum_timeout,
      })
      if (errors.length > 0) throw validationError(errorFields(errors))
      runners.updateRunner(r, changes)
      return details(actor, runners.runner(id)!)
    },

    /**
     * `DELETE /runners/:id`: administrators always; others need `delete_runner` and a runner in one
     * project at most (403 `Runner associated with more than one project`).
     */
    remove(actor: Actor, id: number): void {
      const r = find(actor, id)
      if (!actor.admin) {
        if (multipleProjects(r)) throw forbidden('Runner associated with more than one project')
        if (!canAdmin(actor, r)) throw forbidden('No access granted')
      }
      runners.deleteRunner(r.id)
    },

    /** `POST /runners/:id/reset_authentication_token` (`update_runner`): a new token, the old one stops working. */
    resetToken(actor: Actor, id: number): RunnerTokenReset {
      const r = find(actor, id)
      requireUpdate(actor, r)
      return tokens.replace(r)
    },

    /** `GET /runners/:id/jobs` (`read_builds`): the emulated jobs never run on a runner, so none. */
    jobs(actor: Actor, id: number, q: { page?: number; per_page?: number }): PageOut<never> {
      const r = find(actor, id)
      if (!actor.admin && !canReadBuilds(actor, r)) throw forbidden('No access granted')
      return slicePage([], pageOf(q))
    },

    /**
     * `POST /projects/:id/runners`: enables a project runner in another project (`create_runner` there,
     * then `authenticate_enable_runner!` and `AssignRunnerService`). An instance runner cannot be
     * enabled in a project; GitLab raises there (500), we answer 400 with its message.
     */
    enable(actor: Actor, ref: string, runnerId: number): Runner {
      if (!actor.user) throw unauthorized()
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
      const r = find(actor, runnerId)
      if (r.runner_type === 'group_type') throw forbidden('Runner is a group runner')
      if (!actor.admin) {
        if (r.locked === 1) throw forbidden('Runner is locked')
        if (!canUpdate(actor, r)) throw forbidden('No access granted')
      }
      if (r.runner_type === 'instance_type')
        throw messageError(
          400,
          'Transitioning an instance runner to a project runner is not supported - runner_error',
        )
      if (runners.projectsOf(r.id).includes(project.id))
        throw messageError(400, 'Assign to Validation failed: Runner has already been taken - runner_error')
      runners.enableIn(r.id, project.id, isoNow(ctx.clock))
      return present(r)
    },

    /**
     * `DELETE /projects/:id/runners/:runner_id` (`admin_project_runners`, Maintainer): 404 `Runner Not
     * Found` unless enabled there; the owner project cannot let go of its runner (403).
     */
    disable(actor: Actor, ref: string, runnerId: number): void {
      if (!actor.user) throw unauthorized()
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.maintainer)) throw forbidden()
      const r = runners.runner(runnerId)
      if (!r || !runners.projectsOf(r.id).includes(project.id)) throw notFound('Runner')
      if (ownerProject(r)?.id === project.id)
        throw forbidden('You cannot unassign a runner from the owner project. Delete the runner instead')
      runners.disableIn(r.id, project.id)
    },
  }
}
