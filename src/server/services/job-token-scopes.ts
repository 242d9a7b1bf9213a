import type {
  BasicGroupDetails,
  BasicProjectDetails,
  JobTokenGroupLink,
  JobTokenProjectLink,
  JobTokenScope,
  Project,
} from '../../schema/index.js'
import { isoNow } from '../domain/clock.js'
import { badRequest, forbidden, notFound } from '../grape/gitlab-errors.js'
import { mapPage, slicePage, type Page, type PageOut } from '../grape/pagination.js'
import { basicGroupDetails } from '../present/namespaces.js'
import { basicProjectDetails } from '../present/projects.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'

const ADMIN_ONLY = 'Insufficient permissions to modify the job token scope'
const unreadable = (what: 'project' | 'group') =>
  `The target_${what} that you are attempting to access does not exist or you don't have permission to perform this action`

/**
 * The job token scope API (lib/api/project_job_token_scope.rb, app/services/ci/job_token_scope/*): a
 * Maintainer reads and sets whether other projects' CI/CD job tokens are limited to the allowlists, and
 * edits the allowlists of projects and groups. The rules a job token meets are in job-tokens.ts.
 */
export function jobTokenScopeService(ctx: ServiceContext, projectRecord: (p: ProjectRow) => Project) {
  const { store, access } = ctx
  const scopes = store.jobTokenScopes
  /** `authorize_admin_project`: 403 below Maintainer. */
  const requireAdmin = (actor: Actor, p: ProjectRow) => {
    if (!access.atLeast(actor, p, Level.maintainer)) throw forbidden()
  }
  const added = (actor: Actor, p: ProjectRow, targetId: number) => ({
    source_project_id: p.id,
    target_id: targetId,
    added_by_id: actor.id,
    created_at: isoNow(ctx.clock),
  })

  return {
    get(actor: Actor, p: ProjectRow): JobTokenScope {
      requireAdmin(actor, p)
      // The outbound scope is deprecated (removed in GitLab 18.0) and off unless set: never kept here.
      return { inbound_enabled: scopes.inboundEnabled(p.id), outbound_enabled: false }
    },

    setInbound(actor: Actor, p: ProjectRow, enabled: boolean): void {
      requireAdmin(actor, p)
      scopes.setInboundEnabled(p.id, enabled)
    },

    /** `Scope#inbound_projects`: the project itself first, then those its allowlist lets in. */
    projects(actor: Actor, p: ProjectRow, page: Page): PageOut<BasicProjectDetails> {
      requireAdmin(actor, p)
      const linked = scopes.projects.ofSource(p.id).map((l) => store.projects.get(l.target_id))
      const all = [p, ...linked.filter((t): t is ProjectRow => t !== undefined)]
      return mapPage(slicePage(all, page), (t) => basicProjectDetails(projectRecord(t)))
    },

    groups(actor: Actor, p: ProjectRow, page: Page): PageOut<BasicGroupDetails> {
      requireAdmin(actor, p)
      const groups = scopes.groups.ofSource(p.id).flatMap((l) => store.namespaces.get(l.target_id) ?? [])
      return mapPage(slicePage(groups, page), (g) => basicGroupDetails(g, ctx.instance))
    },

    /** `AddProjectService`: the target must be one the caller can read. */
    addProject(actor: Actor, p: ProjectRow, targetId: number): JobTokenProjectLink {
      requireAdmin(actor, p)
      const target = store.projects.get(targetId)
      if (!target) throw notFound('target_project_id not found')
      if (!access.canReadProject(actor, target)) throw badRequest(unreadable('project'))
      // `ProjectScopeLink#not_self_referential_link`, raised as `RecordInvalid`.
      if (target.id === p.id)
        throw badRequest("Validation failed: Target project can't be the same as the source project")
      if (!scopes.projects.insert(added(actor, p, target.id)))
        throw badRequest('Target project is already in the job token scope')
      return { source_project_id: p.id, target_project_id: target.id }
    },

    /** `AddGroupService`: the target must be a group the caller can read. */
    addGroup(actor: Actor, p: ProjectRow, targetId: number): JobTokenGroupLink {
      requireAdmin(actor, p)
      const group = store.namespaces.get(targetId)
      if (!group || group.kind !== 'group') throw notFound('target_group_id not found')
      if (!access.canReadGroup(actor, group)) throw badRequest(unreadable('group'))
      if (!scopes.groups.insert(added(actor, p, group.id)))
        throw badRequest('Target group is already in the job token scope')
      return { source_project_id: p.id, target_group_id: group.id }
    },

    /**
     * `RemoveProjectService`: the route finds the target as the caller sees it (`find_project!`, 404
     * `Project Not Found`) before it asks for Maintainer, whose lack is a 403 with GitLab's sentence.
     */
    removeProject(actor: Actor, p: ProjectRow, targetRef: string): void {
      const target = access.project(actor, targetRef)
      if (!access.atLeast(actor, p, Level.maintainer)) throw forbidden(ADMIN_ONLY)
      if (target.id === p.id) throw badRequest('Source project cannot be removed from the job token scope')
      if (!scopes.projects.remove(p.id, target.id))
        throw badRequest('Target project is not in the job token scope')
    },

    /** `RemoveGroupService`: a group that does not exist is a 404 before the caller's role counts. */
    removeGroup(actor: Actor, p: ProjectRow, targetId: number): void {
      const group = store.namespaces.get(targetId)
      if (!group || group.kind !== 'group') throw notFound('target_group_id not found')
      if (!access.atLeast(actor, p, Level.maintainer)) throw forbidden(ADMIN_ONLY)
      if (!scopes.groups.remove(p.id, group.id))
        throw badRequest('Target group is not in the job token scope')
    },
  }
}
export type JobTokenScopeService = ReturnType<typeof jobTokenScopeService>
