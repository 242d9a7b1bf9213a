import type { BasicProjectDetails, Project, ProjectFork, ProjectListQuery } from '../../schema/index.js'
import type { PageOut } from '../grape/pagination.js'
import { forbidden, GitLabError, messageError, notFound, notModified } from '../grape/gitlab-errors.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { Store } from '../store/index.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { featureLevel, settingsOf } from './project-settings.js'
import { mayCreateProjectIn, type ProjectWriteService } from './project-writes.js'
import type { ProjectService } from './projects.js'
import { defaultBranchProtection } from './repository/core.js'

const VISIBILITY_RANK = ['private', 'internal', 'public'] as const
const rank = (visibility: string) => Math.max(0, VISIBILITY_RANK.indexOf(visibility as 'public'))

/**
 * ActiveModel's `full_messages`: each attribute humanized before its message
 * (`project_namespace.name` is `Project namespace name`).
 */
function fullMessages(fields: Record<string, string[]>): string[] {
  return Object.entries(fields).flatMap(([field, messages]) => {
    const words = field.replace(/[._]/g, ' ')
    return messages.map((m) => `${words.charAt(0).toUpperCase()}${words.slice(1)} ${m}`)
  })
}

/**
 * Forks (`lib/api/projects.rb` fork endpoints, `Projects::ForkService`, `Projects::UnlinkForkService`,
 * `ForkProjectsFinder`). A fork is a new project with the source's refs, commits and annotated tags
 * (the git objects are shared by SHA) and the source's feature levels, in the source's fork network.
 */
export function projectForkService(ctx: ServiceContext, reads: ProjectService, writes: ProjectWriteService) {
  const { store, access } = ctx

  /**
   * `fork_project` (app/policies/project_policy.rb): Reporter+, or a public or internal project one can
   * read; never with the repository disabled (`repository_disabled` prevents it, administrators too),
   * and members only when the repository is for members (`private`).
   */
  const mayFork = (actor: Actor, project: ProjectRow) => {
    if (actor.user === null) return false
    const repository = featureLevel(store, project.id, 'repository')
    if (repository === 'disabled') return false
    if (repository === 'private' && !access.atLeast(actor, project, Level.guest)) return false
    return project.visibility !== 'private' || access.atLeast(actor, project, Level.reporter)
  }

  /** `Project#forked?`: in a fork network it is not the root of. */
  const isFork = (projectId: number) => {
    const member = store.forks.member(projectId)
    return member !== undefined && member.root_project_id !== projectId
  }

  /**
   * `find_namespace!` and `find_namespace_by_path!` (lib/api/helpers.rb): by id when all digits, else
   * by full path; 404 `Namespace Not Found` when missing or not readable by the caller.
   */
  const findNamespace = (actor: Actor, ref: string): NamespaceRow => {
    const ns = /^\d+$/.test(ref) ? store.namespaces.get(Number(ref)) : store.namespaces.byPath(ref)
    const readable =
      ns !== undefined &&
      (actor.admin || (ns.kind === 'group' ? access.canReadGroup(actor, ns) : ns.owner_id === actor.id))
    if (!readable) throw notFound('Namespace')
    return ns
  }

  /** `Projects::ForkService#target_visibility_level`: the least of the source's, the namespace's and the asked. */
  const targetVisibility = (source: ProjectRow, ns: NamespaceRow, asked?: string) => {
    const levels = [source.visibility, ns.kind === 'group' ? ns.visibility : 'public', asked ?? 'public']
    return VISIBILITY_RANK[Math.min(...levels.map(rank))]!
  }

  /**
   * The model's errors as `ForkService` hands them to `conflict!`: 409 with their full messages
   * (a personal project limit too, as the model's `limit_reached`).
   */
  const asConflict = (e: unknown) => {
    if (!(e instanceof GitLabError) || typeof e.body !== 'object' || e.body === null) return e
    if (e.status === 400 && 'message' in e.body && typeof e.body.message === 'object' && e.body.message)
      return messageError(409, fullMessages(e.body.message as Record<string, string[]>))
    if (e.status === 403 && 'error' in e.body && Array.isArray(e.body.error))
      return messageError(409, fullMessages({ limit_reached: e.body.error }))
    return e
  }

  return {
    /**
     * `POST /projects/:id/fork`: 404 `Project Not Found` for a source the caller cannot see, 404
     * `Not Found` without `fork_project` on it, 404 `Namespace Not Found` for a namespace named
     * but not found, 404 `Source Branch Not Found` for `branches` naming no branch, 404 `Target
     * Namespace Not Found` where the caller may not create projects, 409 with the model's full
     * messages (`Project namespace name has already been taken`, ...). The fork is made at once;
     * the answer shows `import_status` `scheduled`, as GitLab's does while its worker copies the
     * repository, and later reads `finished`, kept after the fork is unlinked. `mr_default_target_self`
     * is kept in the fork's settings, and `requestId` (the request's `X-Request-Id`) as its import's
     * `correlation_id`, as GitLab's import state records the request's correlation id.
     */
    fork(actor: Actor, ref: string, input: ProjectFork, requestId: string): Project {
      const source = access.project(actor, ref)
      const user = actor.user
      if (!user || !mayFork(actor, source)) throw notFound()
      const named = input.namespace_id ?? input.namespace_path ?? input.namespace
      const ns =
        named === undefined || named === ''
          ? store.namespaces.ofUser(user.id)
          : findNamespace(actor, String(named))
      const branch = input.branches || undefined
      if (branch !== undefined && !store.repository.ref(source.id, 'branch', branch))
        throw notFound('Source Branch')
      if (!ns || !mayCreateProjectIn(access, user, ns)) throw notFound('Target Namespace')
      const defaultBranch = branch ?? source.default_branch ?? undefined
      const forkId = store.transaction(() => {
        let created: Project
        try {
          created = writes.create(actor, {
            name: input.name || source.name,
            path: input.path || source.path,
            description: input.description || source.description || undefined,
            visibility: targetVisibility(source, ns, input.visibility),
            namespace_id: ns.id,
            default_branch: defaultBranch,
          })
        } catch (e) {
          throw asConflict(e)
        }
        makeFork(store, source.id, created.id, {
          branch,
          defaultBranch,
          targetSelf: input.mr_default_target_self === true,
          correlationId: requestId,
        })
        return created.id
      })
      return { ...reads.record(store.projects.get(forkId)!, actor), import_status: 'scheduled' }
    },

    /**
     * `GET /projects/:id/forks` (`ForkProjectsFinder`): the projects forked from this one that the
     * caller can read, filtered, ordered and paged as `GET /projects`.
     */
    list(actor: Actor, ref: string, q: ProjectListQuery): PageOut<Project | BasicProjectDetails> {
      const project = access.project(actor, ref)
      return reads.list(actor, q, new Set(store.forks.forksOf(project.id)))
    },

    /**
     * `DELETE /projects/:id/fork` (`Projects::UnlinkForkService`): Owner (`remove_fork_project`, 403
     * otherwise); 304 when the project is not a fork. The project leaves its network; its own
     * forks stay in it with no source.
     */
    unlink(actor: Actor, ref: string): void {
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.owner)) throw forbidden()
      if (!isFork(project.id)) throw notModified()
      store.forks.leave(project.id)
    },

    /**
     * `POST /projects/:id/fork/:forked_from_id`: Owner (`link_forked_project`, 403), the source by id
     * (404 `Project Not Found`) with `fork_project` on it (403); 409 `Project already forked` for a
     * fork, 409 for the project itself. Answers the project, 201.
     */
    link(actor: Actor, ref: string, forkedFromId: number): Project {
      const project = access.project(actor, ref)
      if (!access.atLeast(actor, project, Level.owner)) throw forbidden()
      const source = access.project(actor, String(forkedFromId))
      if (!mayFork(actor, source)) throw forbidden()
      if (isFork(project.id)) throw messageError(409, 'Project already forked')
      if (source.id === project.id)
        throw messageError(409, 'Target project cannot be equal to source project')
      store.transaction(() => {
        const network = store.forks.member(source.id)?.fork_network_id ?? store.forks.createNetwork(source.id)
        store.forks.join(project.id, network, source.id)
      })
      return reads.record(project, actor)
    },
  }
}
export type ProjectForkService = ReturnType<typeof projectForkService>

/**
 * Makes the new project `forkId` a fork of `sourceId`, for the API and the seed alike
 * (`Projects::ForkService`): it joins the source's fork network (made if the source has none), gets
 * the source's refs (or its one `branch`), commits and annotated tags, its feature levels and
 * `import_status` `finished` (the copy is done) with the fork request's `correlationId` (none for
 * the seed's forks: no request made them), and its default branch, once in, is protected
 * (`Projects::ProtectDefaultBranchService`).
 */
export function makeFork(
  store: Store,
  sourceId: number,
  forkId: number,
  opts: { branch?: string; defaultBranch?: string; targetSelf?: boolean; correlationId?: string } = {},
): void {
  const network = store.forks.member(sourceId)?.fork_network_id ?? store.forks.createNetwork(sourceId)
  store.forks.join(forkId, network, sourceId)
  store.forks.copyRepository(sourceId, forkId, opts.branch)
  store.projectSettings.put({
    ...settingsOf(store, forkId),
    features: settingsOf(store, sourceId).features,
    import_status: 'finished',
    mr_default_target_self: opts.targetSelf ? 1 : 0,
    import_correlation_id: opts.correlationId ?? null,
  })
  const { defaultBranch } = opts
  if (defaultBranch && store.repository.ref(forkId, 'branch', defaultBranch))
    store.repository.protect(defaultBranchProtection(forkId, defaultBranch))
}

/**
 * `MergeRequestTargetProjectFinder` as `GET /repository/compare` reads `from_project_id`: the
 * project itself, or a project of its fork network the caller can read and that is not archived;
 * undefined otherwise.
 */
export function networkProject(
  { store, access }: ServiceContext,
  actor: Actor,
  project: ProjectRow,
  otherId: number,
): ProjectRow | undefined {
  if (otherId === project.id) return project
  const network = store.forks.member(project.id)?.fork_network_id
  const other = store.projects.get(otherId)
  if (network === undefined || !other || store.forks.member(other.id)?.fork_network_id !== network)
    return undefined
  return access.canReadProject(actor, other) && other.archived === 0 ? other : undefined
}
