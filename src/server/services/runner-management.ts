import { randomBytes } from 'node:crypto'
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
import { RUNNER_STATUSES, RUNNER_TYPES } from '../../schema/runner.js'
import { epochMs, isoNow } from '../domain/clock.js'
import { runnerState } from '../domain/runner-status.js'
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
import { basicProjectDetails } from '../present/projects.js'
import { presentRunner, presentRunnerDetails, type RunnerFacts } from '../present/runners.js'
import { presentUser } from '../present/users.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import type { RunnerChanges, RunnerRow } from '../store/runners.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'

/** `Ci::Runner::CREATED_RUNNER_TOKEN_PREFIX`: the tokens of runners made with `POST /user/runners`. */
export const CREATED_RUNNER_TOKEN_PREFIX = 'glrt-'
const newCreatedRunnerToken = () => `${CREATED_RUNNER_TOKEN_PREFIX}${randomBytes(15).toString('base64url')}`
/** The deprecated `scope` of `GET /runners/all` and the project list (`Ci::Runner::AVAILABLE_SCOPES`). */
const ALL_SCOPES: readonly string[] = ['specific', 'shared', ...RUNNER_TYPES, ...RUNNER_STATUSES]
/** `GET /runners` takes statuses only as its `scope`. */
const STATUS_SCOPES: readonly string[] = RUNNER_STATUSES
/** `version_prefix`'s Grape `regexp`. */
const VERSION_PREFIX = /^[\d+.]+/
const NOTE_MAX = 1024
/** `Ci::Runner` validates `maximum_timeout` at 10 minutes or more. */
const MIN_TIMEOUT = 600

/** ActiveSupport's `Array#to_sentence`. */
const toSentence = (items: string[]) =>
  items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`

/** The runner's model validations as `errors.full_messages` pairs (attribute, message). */
function runnerErrors(row: {
  run_untagged: boolean
  tags: string[]
  note?: string | null
  timeout?: number | null
}) {
  const errors: [string, string][] = []
  if (!row.run_untagged && row.tags.length === 0)
    errors.push(['tags_list', 'can not be empty when runner is not allowed to pick untagged jobs'])
  if (row.note && row.note.length > NOTE_MAX)
    errors.push(['maintenance_note', `is too long (maximum is ${NOTE_MAX} characters)`])
  if (row.timeout != null && row.timeout < MIN_TIMEOUT)
    errors.push(['maximum_timeout', 'needs to be at least 10 minutes'])
  return errors
}
const HUMAN: Record<string, string> = {
  tags_list: 'Tags list',
  maintenance_note: 'Maintenance note',
  maximum_timeout: 'Maximum timeout',
}
/** acts-as-taggable-on's TagList drops blank tags (`tag_list=,docker`). */
const cleanTags = (tags: string[] | undefined) =>
  tags?.filter((tag) => tag.trim() !== '').map((t) => t.trim())

/**
 * The runner management API (GitLab's `lib/api/ci/runners.rb`, `lib/api/user_runners.rb` and the
 * runner-token calls of `lib/api/ci/runner.rb`), with `Ci::RunnerPolicy`'s rules. No runner polls
 * this server: a runner is `never_contacted` until `POST /runners/verify` with a registration-flow
 * token counts as its contact, and it never has jobs.
 */
export function runnerManagement(ctx: ServiceContext, projectRecord: (project: ProjectRow) => Project) {
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
        ? [{ id: group.id, web_url: `${ctx.instance.baseUrl}/groups/${group.full_path}`, name: group.name }]
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

  /**
   * `authenticate_runner!`: the runner a token is, 403 for none. Grape keeps a JSON `null` as nil
   * (GitLab's verify then answers 500; no runner has it, so 403 here).
   */
  const runnerOf = (token: string | null): RunnerRow => {
    const r = typeof token === 'string' ? runners.byToken(token) : undefined
    if (!r) throw forbidden()
    return r
  }

  /** A new authentication token of the runner's kind (`glrt-` for created runners); the old one stops working. */
  const replaceToken = (r: RunnerRow): RunnerTokenReset => {
    const token =
      r.registration_type === 'authenticated_user'
        ? newCreatedRunnerToken()
        : randomBytes(15).toString('base64url')
    runners.setToken(r.id, token)
    return { token, token_expires_at: null }
  }

  /** `apply_filter` and the deprecated `scope` (`filter_runners`), then a page in id order. */
  const listed = (
    rows: RunnerRow[],
    q: RunnerListQuery,
    scopes: readonly string[] | null,
  ): PageOut<Runner> => {
    const page = pageOf(q)
    return mapPage(slicePage(filtered(rows, q, scopes), page), present)
  }
  const filtered = (rows: RunnerRow[], q: RunnerListQuery, scopes: readonly string[] | null) => {
    if (q.scope !== undefined && scopes && !scopes.includes(q.scope))
      throw messageError(400, 'Scope contains invalid value')
    if (q.version_prefix !== undefined && !VERSION_PREFIX.test(q.version_prefix))
      throw paramError('version_prefix is invalid')
    const tags = cleanTags(q.tag_list)
    const now = epochMs(ctx.clock)
    return rows.filter((r) => {
      const state = runnerState({ ...r, active: r.active === 1 }, now).scopes
      const inScope = (scope: string) =>
        scope === 'shared'
          ? r.runner_type === 'instance_type'
          : scope === 'specific'
            ? r.runner_type !== 'instance_type'
            : (RUNNER_TYPES as readonly string[]).includes(scope)
              ? r.runner_type === scope
              : state.has(scope)
      if (q.scope !== undefined && scopes && !inScope(q.scope)) return false
      if (q.type !== undefined && r.runner_type !== q.type) return false
      if (q.status !== undefined && !state.has(q.status)) return false
      if (q.paused !== undefined && (r.active === 1) === q.paused) return false
      // Versions come from runner managers, which never report here: a version filter matches none.
      if (q.version_prefix !== undefined) return false
      if (tags?.length) {
        const own = JSON.parse(r.tag_list) as string[]
        if (!tags.every((t) => own.includes(t))) return false
      }
      return true
    })
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
      if (errors.length > 0) throw badRequest(toSentence(errors.map(([k, m]) => `${HUMAN[k]} ${m}`)))
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
      if (errors.length > 0) {
        const fields: Record<string, string[]> = {}
        for (const [k, m] of errors) (fields[k] ??= []).push(m)
        throw validationError(fields)
      }
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
      return replaceToken(r)
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

    /**
     * `POST /runners/verify` with a runner's token: 403 for an unknown one. A registration-flow token
     * counts as contact (`heartbeat`); a `glrt-` one does not, until the runner polls for jobs.
     */
    verify(token: string): RunnerRegistration {
      const r = runnerOf(token)
      if (!token.startsWith(CREATED_RUNNER_TOKEN_PREFIX)) runners.setContactedAt(r.id, isoNow(ctx.clock))
      return { id: r.id, token, token_expires_at: null }
    },

    /**
     * `POST /runners/reset_authentication_token` with a runner's token (403 for an unknown one): the call
     * is its contact (`authenticate_runner!`'s heartbeat), then the token is replaced.
     */
    resetOwnToken(token: string): RunnerTokenReset {
      const r = runnerOf(token)
      runners.setContactedAt(r.id, isoNow(ctx.clock))
      return replaceToken(r)
    },

    /** `DELETE /runners` with a runner's token (`UnregisterRunnerService`): 403 for an unknown one. */
    unregister(token: string): void {
      const r = runnerOf(token)
      runners.deleteRunner(r.id)
    },
  }
}
