import { Type } from '@sinclair/typebox'
import { LabelDetail, Milestone } from '../../schema/index.js'
import { pageOf, slicePage } from '../pagination.js'
import { presentLabel, presentMilestone } from '../present/issues.js'
import { today } from '../services/context.js'
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
 * `GET /projects/:id/labels` and `GET /projects/:id/milestones` (sync-issues maps labels
 * and milestones by name). Labels are ordered by title, milestones by due date then id as GitLab
 * orders them; `title` matches exactly, `search` case-insensitively inside title. Paginated with
 * GitLab's headers. Labels here are the project's own (group labels are not modelled).
 */
export function projectLabelRoutes(api: ApiContext): void {
  const { route, access, instance } = api
  const { store, clock } = api.ctx

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/labels',
      summary: "List a project's labels",
      pathParams: IdPath,
      input: LabelQuery,
      response: { 200: Type.Array(LabelDetail) },
    },
    (h) => {
      const project = access.project(h.actor, h.path.id)
      const search = h.params.search?.toLowerCase()
      const rows = store.labels
        .ofProject(project.id)
        .filter((l) => !search || l.title.toLowerCase().includes(search))
        .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id))
      return h.sendPage(slicePage(rows, pageOf(h.params))).map(presentLabel)
    },
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
    (h) => {
      const project = access.project(h.actor, h.path.id)
      const q = h.params
      const search = q.search?.toLowerCase()
      const rows = store.milestones
        .ofProject(project.id)
        .filter((m) => q.title === undefined || m.title === q.title)
        .filter((m) => !search || m.title.toLowerCase().includes(search))
        .filter((m) => !q.state || m.state === q.state)
      const day = today(clock)
      return h.sendPage(slicePage(rows, pageOf(q))).map((m) => presentMilestone(m, project, instance, day))
    },
  )
}
