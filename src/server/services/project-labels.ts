import type { LabelDetail, Milestone } from '../../schema/index.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentLabel, presentMilestone } from '../present/issues.js'
import type { Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { today } from '../domain/clock.js'

interface Paging {
  page?: number
  per_page?: number
}

/**
 * A project's labels and milestones (sync-issues maps them by name). Labels are ordered by title,
 * milestones as GitLab orders them; `title` matches exactly, `search` case-insensitively inside
 * title. Labels here are the project's own (group labels are not modelled).
 */
export function projectLabelService(ctx: ServiceContext) {
  const { store, access, instance } = ctx
  return {
    labels(actor: Actor, projectId: string, q: Paging & { search?: string }): PageOut<LabelDetail> {
      const project = access.project(actor, projectId)
      const search = q.search?.toLowerCase()
      const rows = store.labels
        .ofProject(project.id)
        .filter((l) => !search || l.title.toLowerCase().includes(search))
        .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id))
      return mapPage(slicePage(rows, pageOf(q)), presentLabel)
    },

    milestones(
      actor: Actor,
      projectId: string,
      q: Paging & { title?: string; search?: string; state?: 'active' | 'closed' },
    ): PageOut<Milestone> {
      const project = access.project(actor, projectId)
      const search = q.search?.toLowerCase()
      const rows = store.milestones
        .ofProject(project.id)
        .filter((m) => q.title === undefined || m.title === q.title)
        .filter((m) => !search || m.title.toLowerCase().includes(search))
        .filter((m) => !q.state || m.state === q.state)
      const day = today(ctx.clock)
      return mapPage(slicePage(rows, pageOf(q)), (m) => presentMilestone(m, project, instance, day))
    },
  }
}
export type ProjectLabelService = ReturnType<typeof projectLabelService>
