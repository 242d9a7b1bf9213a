import { Type } from '@sinclair/typebox'
import { GroupProjectsQuery } from '../../schema/group-projects.js'
import { Project } from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

/** `GET /groups/:id/projects` (for export-project's group backups; services/projects.ts `ofGroup`). */
export function groupProjectRoutes(api: ApiContext): void {
  const { route } = api
  const { projects } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/groups/:id/projects',
      summary: "List a group's projects (with include_subgroups, its whole subtree) that the caller can read",
      pathParams: IdPath,
      input: GroupProjectsQuery,
      response: { 200: Type.Array(Project) },
    },
    (h) => h.sendPage(projects.ofGroup(h.actor, h.path.id, h.params)),
  )
}
