import type {
  BasicProjectDetails,
  Project,
  ProjectDetails,
  ProjectListQuery,
  UserProjectsQuery,
} from '../../schema/index.js'
import type { GroupProjectsQuery } from '../../schema/group-projects.js'
import { keysetUnavailable, mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentProject } from '../present/namespaces.js'
import { basicProjectDetails, projectDetails } from '../present/projects.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { namespaceNames } from './groups.js'
import { projectExtras } from './project-settings.js'

const projectSortKey: Record<string, (p: ProjectRow) => string | number> = {
  id: (p) => p.id,
  name: (p) => p.name.toLowerCase(),
  path: (p) => p.path.toLowerCase(),
  created_at: (p) => p.created_at,
  updated_at: (p) => p.last_activity_at,
  last_activity_at: (p) => p.last_activity_at,
}

/** GitLab's `reorder_projects`: by `order_by` in `sort` direction, ties broken by id the same way. */
function sortProjects(rows: ProjectRow[], orderBy = 'created_at', sort = 'desc'): ProjectRow[] {
  const key = projectSortKey[orderBy] ?? projectSortKey.created_at!
  const dir = sort === 'asc' ? 1 : -1
  return rows.sort((a, b) => {
    const x = key(a)
    const y = key(b)
    return (x < y ? -1 : x > y ? 1 : 0) * dir || (a.id - b.id) * dir
  })
}

/** `search` as GitLab's project finders read it: a part of the name or path, any case. */
const matches = (p: ProjectRow, search: string | undefined) =>
  !search || p.name.toLowerCase().includes(search) || p.path.toLowerCase().includes(search)

/**
 * The first `perPage` of `rows` (already past the caller's id bound), linking on with the last id
 * shown as the next bound, in place of the one given (`lib/gitlab/pagination/keyset/pager.rb`).
 */
function keysetPage<T extends { id: number }>(
  rows: T[],
  perPage: number,
  sort: string | undefined,
): PageOut<T> {
  const items = rows.slice(0, perPage)
  const last = items.at(-1)
  if (rows.length <= perPage || !last) return { items, next: null }
  const bound =
    sort === 'asc' ? { id_after: last.id, id_before: undefined } : { id_before: last.id, id_after: undefined }
  return { items, next: { ...bound, per_page: perPage, pagination: 'keyset' } }
}

/** Project reads: `GET /projects/:id`, `GET /projects` and `GET /groups/:id/projects`. */
export function projectService(ctx: ServiceContext) {
  const { store, access, instance } = ctx

  const namespaceOf = (project: ProjectRow): NamespaceRow => {
    const ns = store.namespaces.get(project.namespace_id)
    if (!ns) throw new Error(`project ${project.id} has no namespace`)
    return ns
  }

  /**
   * The project record with its full name and open issues (`permissions` when given), and the
   * project it was forked from when `viewer` can read that one (`Entities::Project`'s
   * `forked_from_project`, `BasicProjectDetails`).
   */
  const present = (
    project: ProjectRow,
    ns: NamespaceRow,
    viewer?: Actor,
    permissions?: Project['permissions'],
  ): Project => {
    const fullName = [...namespaceNames(store, ns.id), project.name].join(' / ')
    const openIssues = store.projects.openIssuesCount(project.id)
    return presentProject(
      project,
      ns,
      fullName,
      openIssues,
      instance,
      // `with_options if: user_can_admin_project?` (`Entities::Project`): Maintainers and administrators.
      projectExtras(
        store,
        project.id,
        viewer !== undefined && access.atLeast(viewer, project, Level.maintainer),
      ),
      permissions,
      viewer && forkSource(project, viewer),
    )
  }

  const forkSource = (project: ProjectRow, viewer: Actor): BasicProjectDetails | undefined => {
    const sourceId = store.forks.member(project.id)?.forked_from_project_id
    const source = sourceId == null ? undefined : store.projects.get(sourceId)
    if (!source || !access.canReadProject(viewer, source)) return undefined
    return basicProjectDetails(present(source, namespaceOf(source)))
  }

  /**
   * A project as GitLab presents it to `actor`: `ProjectWithAccess` (with `permissions`) to a
   * signed-in caller, `BasicProjectDetails`' fields and the rest to anonymous ones (lib/api/projects.rb
   * `present_projects` and `get ":id"`).
   */
  const projectFor = (actor: Actor, project: ProjectRow): Project => {
    const ns = namespaceOf(project)
    if (!actor.user) return present(project, ns, actor)
    const direct = actor.direct(store, `project:${project.id}`)
    const group =
      ns.kind === 'group' ? access.groupLevel(actor, ns) : ns.owner_id === actor.id ? Level.owner : 0
    return present(project, ns, actor, {
      project_access: direct ? { access_level: direct, notification_level: 3 } : null,
      group_access: group ? { access_level: group, notification_level: 3 } : null,
    })
  }

  return {
    /**
     * The project as `Entities::Project` presents it (no `permissions`): what the writes answer, with
     * its fork source when `viewer` can read it.
     */
    record(project: ProjectRow, viewer?: Actor): Project {
      return present(project, namespaceOf(project), viewer)
    },

    /**
     * One project the caller can read. Anonymous callers get `ProjectDetails`: BasicProjectDetails'
     * fields and a public fork source (lib/api/projects.rb `get ":id"`, lib/api/entities/project_details.rb).
     */
    get(actor: Actor, id: string): Project | ProjectDetails {
      const full = projectFor(actor, access.project(actor, id))
      return actor.user ? full : projectDetails(full)
    },

    /**
     * `GET /projects` as lib/api/projects.rb and `ProjectsFinder` answer it: anonymous callers see
     * public projects, signed-in ones also internal projects and those they are members of,
     * administrators everything; `membership` keeps projects the caller is a member of (inherited from
     * groups too), `owned` those in namespaces the caller owns (both ignored for anonymous callers, as
     * the finder's `collection_without_user` does). `archived`, `visibility` and `search` (name or
     * path) filter; `order_by`/`sort` default to `created_at desc`, ties broken by id. Signed-in callers
     * get `ProjectWithAccess` (with `permissions`); anonymous ones and `simple=true` `BasicProjectDetails`. Keyset pages
     * (`pagination=keyset`) exist for `order_by=id` only (lib/gitlab/pagination/keyset.rb); others are
     * 405 (lib/api/helpers/pagination_strategies.rb). Their next link carries `id_after` (asc) or
     * `id_before` (desc), the bounds lib/gitlab/pagination/keyset/request_context.rb reads, and no totals.
     * `among` keeps only those projects (`GET /projects/:id/forks`, `ForkProjectsFinder`).
     */
    list(
      actor: Actor,
      q: ProjectListQuery,
      among?: ReadonlySet<number>,
    ): PageOut<Project | BasicProjectDetails> {
      const keyset = q.pagination === 'keyset'
      if (keyset && q.order_by !== 'id') throw keysetUnavailable()
      const signedIn = actor.user !== null
      const search = q.search?.toLowerCase()
      const rows = access
        .readableProjects(actor)
        .filter(({ project }) => !among || among.has(project.id))
        .filter(({ level }) => !signedIn || !q.membership || level > 0)
        .filter(({ project }) => {
          if (!signedIn || !q.owned) return true
          const ns = store.namespaces.get(project.namespace_id)
          return ns !== undefined && access.groupLevel(actor, ns) >= Level.owner
        })
        .map(({ project }) => project)
        .filter((p) => q.archived === undefined || (p.archived === 1) === q.archived)
        .filter((p) => !q.visibility || p.visibility === q.visibility)
        .filter((p) => matches(p, search))
        .filter((p) => q.id_after === undefined || p.id > q.id_after)
        .filter((p) => q.id_before === undefined || p.id < q.id_before)
      sortProjects(rows, q.order_by, q.sort)
      const page = pageOf(q)
      return mapPage(keyset ? keysetPage(rows, page.perPage, q.sort) : slicePage(rows, page), (p) => {
        const full = projectFor(actor, p)
        return q.simple || !signedIn ? basicProjectDetails(full) : full
      })
    },

    /**
     * `GET /users/:user_id/projects` (lib/api/projects.rb, `ProjectsFinder` with `user`): the
     * projects of the user's personal namespace the caller can read, filtered and ordered as
     * `GET /projects`, presented as it presents them.
     */
    ofUser(actor: Actor, namespaceId: number, q: UserProjectsQuery): PageOut<Project | BasicProjectDetails> {
      const search = q.search?.toLowerCase()
      const rows = store.projects
        .inNamespace(namespaceId)
        .filter((p) => access.canReadProject(actor, p))
        .filter((p) => q.archived === undefined || (p.archived === 1) === q.archived)
        .filter((p) => !q.visibility || p.visibility === q.visibility)
        .filter((p) => matches(p, search))
      sortProjects(rows, q.order_by, q.sort)
      return mapPage(slicePage(rows, pageOf(q)), (p) => {
        const full = projectFor(actor, p)
        return q.simple || !actor.user ? basicProjectDetails(full) : full
      })
    },

    /**
     * `GET /groups/:id/projects` (for export-project's group backups), as GitLab's
     * `lib/api/groups.rb` answers it: 404 `Group Not Found` for a group the caller cannot see; only
     * projects the caller can read (public, internal when signed in, private when a member or admin);
     * the group's own projects, or its whole subtree with `include_subgroups=true`; archived ones
     * included unless `archived` says otherwise; `created_at desc` by default, ties broken by id.
     */
    ofGroup(actor: Actor, groupId: string, q: GroupProjectsQuery): PageOut<Project> {
      const group = access.group(actor, groupId)
      const search = q.search?.toLowerCase()
      const rows = access
        .readableProjects(actor, group)
        .map((r) => r.project)
        .filter((p) => q.include_subgroups || p.namespace_id === group.id)
        .filter((p) => q.archived === undefined || (p.archived === 1) === q.archived)
        .filter((p) => !q.visibility || p.visibility === q.visibility)
        .filter((p) => matches(p, search))
      sortProjects(rows, q.order_by, q.sort)
      return mapPage(slicePage(rows, pageOf(q)), (p) => present(p, namespaceOf(p), actor))
    },
  }
}
export type ProjectService = ReturnType<typeof projectService>
