import { Type } from '@sinclair/typebox'
import { GroupProjectsQuery } from '../../schema/group-projects.js'
import { Project } from '../../schema/index.js'
import { pageOf, slicePage } from '../pagination.js'
import { namespaceNames, presentProject } from '../present/namespaces.js'
import { sortProjects } from '../present/projects.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/**
 * `GET /groups/:id/projects` (for export-project's group backups), as GitLab's
 * `lib/api/groups.rb` answers it: 404 `Group Not Found` for a group the caller cannot see; only
 * projects the caller can read (public, internal when signed in, private when a member or admin);
 * the group's own projects, or its whole subtree with `include_subgroups=true`; archived ones
 * included unless `archived` says otherwise; `created_at desc` by default, ties broken by id.
 */
export function groupProjectRoutes(api: ApiContext): void {
  const { route, access, instance } = api
  const { store } = api.ctx

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/projects',
      summary: "List a group's projects (with include_subgroups, its whole subtree) that the caller can read",
      pathParams: IdPath,
      input: GroupProjectsQuery,
      linksOmit: ['defaults'],
      response: { 200: Type.Array(Project) },
    },
    (h) => {
      const group = access.group(h.actor, h.path.id)
      const q = h.params
      const search = q.search?.toLowerCase()
      const rows = access
        .readableProjects(h.actor, group)
        .map((r) => r.project)
        .filter((p) => q.include_subgroups || p.namespace_id === group.id)
        .filter((p) => q.archived === undefined || (p.archived === 1) === q.archived)
        .filter((p) => !q.visibility || p.visibility === q.visibility)
        .filter(
          (p) => !search || p.name.toLowerCase().includes(search) || p.path.toLowerCase().includes(search),
        )
      sortProjects(rows, q.order_by, q.sort)
      return h.sendPage(slicePage(rows, pageOf(q))).map((p) => {
        const ns = store.namespaces.get(p.namespace_id)
        if (!ns) throw new Error(`project ${p.id} has no namespace`)
        const full = [...namespaceNames(store, ns.id), p.name].join(' / ')
        return presentProject(p, ns, full, store.projects.openIssuesCount(p.id), instance)
      })
    },
  )
}
