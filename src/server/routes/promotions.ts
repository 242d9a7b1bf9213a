import { Type } from '@sinclair/typebox'
import { GroupLabel } from '../../schema/index.js'
import type { ApiContext } from './context.js'

/**
 * Promoting a project's label or milestone to its group (services/promotions.ts;
 * `lib/api/labels.rb`, `lib/api/project_milestones.rb`).
 */
export function promotionRoutes(api: ApiContext): void {
  const { route } = api
  const { promotions } = api.services

  route(
    {
      method: 'PUT',
      url: '/api/v4/projects/:id/labels/:name/promote',
      summary: "Promote a project label to its group's, merging the group's projects' labels of that title",
      auth: 'required',
      pathParams: Type.Object({ id: Type.String(), name: Type.String() }),
      response: { 200: GroupLabel },
    },
    (h) => promotions.label(h.actor, h.path.id, h.path.name),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/milestones/:milestone_id/promote',
      summary: "Promote a project milestone to its group's (Planner and up in both)",
      auth: 'required',
      pathParams: Type.Object({ id: Type.String(), milestone_id: Type.Integer() }),
      response: { 200: Type.Integer() },
    },
    (h) => h.reply.code(200).send(promotions.milestone(h.actor, h.path.id, h.path.milestone_id)),
  )
}
