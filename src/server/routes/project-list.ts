import { ProjectList, ProjectListQuery } from '../../schema/index.js'
import type { ApiContext } from './context.js'

/** `GET /projects` (services/projects.ts `list`: filters, order, offset and keyset pages). */
export function projectListRoutes(api: ApiContext): void {
  const { route } = api
  const { projects } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/projects',
      summary: 'List the projects the caller can see',
      input: ProjectListQuery,
      errors: [405],
      response: { 200: ProjectList },
    },
    (h) => h.sendPage(projects.list(h.actor, h.params)),
  )
}
