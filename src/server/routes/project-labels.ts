import { Type } from '@sinclair/typebox'
import { LabelDetail, Milestone } from '../../schema/index.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const Paging = { page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) }
const LabelQuery = Type.Object(
  { search: Type.Optional(Type.String()), ...Paging },
  { title: 'LabelListQuery' },
)
const MilestoneQuery = Type.Object(
  {
    title: Type.Optional(Type.String()),
    search: Type.Optional(Type.String()),
    state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('closed')])),
    ...Paging,
  },
  { title: 'MilestoneListQuery' },
)

/**
 * `GET /projects/:id/labels` and `GET /projects/:id/milestones` (services/project-labels.ts),
 * paginated with GitLab's headers.
 */
export function projectLabelRoutes(api: ApiContext): void {
  const { route } = api
  const { projectLabels } = api.services

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/labels',
      summary: "List a project's labels",
      pathParams: IdPath,
      input: LabelQuery,
      response: { 200: Type.Array(LabelDetail) },
    },
    (h) => h.sendPage(projectLabels.labels(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/milestones',
      summary: "List a project's milestones",
      pathParams: IdPath,
      input: MilestoneQuery,
      response: { 200: Type.Array(Milestone) },
    },
    (h) => h.sendPage(projectLabels.milestones(h.actor, h.path.id, h.params)),
  )
}
