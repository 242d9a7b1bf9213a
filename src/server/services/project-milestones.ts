import type { Milestone, MilestoneCreate, MilestoneListQuery, MilestoneUpdate } from '../../schema/index.js'
import { calendarDate } from '../domain/calendar-date.js'
import { writtenText } from '../domain/plain-text.js'
import { forbidden, messageError, recordNotFound } from '../grape/gitlab-errors.js'
import { mapPage, pageOf, slicePage, type PageOut } from '../grape/pagination.js'
import { presentMilestone } from '../present/issues.js'
import { applies } from '../domain/releases.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'
import { isoNow, today } from '../domain/clock.js'

/** The newest date a milestone may have (`Timebox#dates_within_4_digits`). */
const LAST_DATE = '9999-12-31'

/**
 * A project's milestones (`lib/api/project_milestones.rb`, `lib/api/milestone_responses.rb`): list (by due
 * date), read,
 * create, edit, delete. Writes need `admin_milestone`: Developer before GitLab 15.0, Planner and up
 * from it. A refused model answers `Failed to create milestone` and the errors as Ruby prints a hash.
 */
export function projectMilestoneService(ctx: ServiceContext) {
  const { store, access, instance } = ctx

  const requireAdmin = (actor: Actor, project: ProjectRow) => {
    const least = applies(instance.version, 'milestonesByReporter') ? Level.planner : Level.developer
    if (!access.atLeast(actor, project, least)) throw forbidden()
  }
  const present = (row: MilestoneRow) =>
    presentMilestone(row, instance, today(ctx.clock))
  /** `parent.milestones.find(id)`: ActiveRecord's 404 for another project's milestone too. */
  const find = (project: ProjectRow, id: number): MilestoneRow => {
    const row = store.milestones.get(id)
    if (!row || row.project_id !== project.id) throw recordNotFound()
    return row
  }

  /**
   * `Milestone`'s validations in their order: title present, due date after the start, dates of four
   * digits, then a title no other milestone of the project has (checked when it changes).
   */
  const validate = (
    action: 'create' | 'update',
    project: ProjectRow,
    m: Pick<MilestoneRow, 'title' | 'start_date' | 'due_date'>,
    self?: MilestoneRow,
  ) => {
    const errors: [string, string][] = []
    if (!m.title) errors.push(['title', "can't be blank"])
    if (m.start_date && m.due_date && m.due_date <= m.start_date)
      errors.push(['due_date', 'must be greater than start date'])
    if (m.start_date && m.start_date > LAST_DATE)
      errors.push(['start_date', 'date must not be after 9999-12-31'])
    if (m.due_date && m.due_date > LAST_DATE) errors.push(['due_date', 'date must not be after 9999-12-31'])
    if (m.title && m.title !== self?.title && store.milestones.byTitle(project.id, m.title))
      errors.push(['title', 'already being used for another group or project milestone.'])
    if (errors.length > 0) throw messageError(400, `Failed to ${action} milestone ${rubyHash(errors)}`)
  }

  return {
    find,

    list(actor: Actor, projectId: string, q: MilestoneListQuery): PageOut<Milestone> {
      const project = access.project(actor, projectId)
      const search = q.search?.toLowerCase()
      const iids = q.iids && q.iids.length > 0 ? new Set(q.iids) : undefined
      const rows = store.milestones
        .ofProject(project.id)
        .filter((m) => q.title === undefined || m.title === q.title)
        .filter(
          (m) =>
            !search ||
            m.title.toLowerCase().includes(search) ||
            (m.description ?? '').toLowerCase().includes(search),
        )
        .filter((m) => !q.state || q.state === 'all' || m.state === q.state)
        .filter((m) => !iids || iids.has(m.iid))
        .filter((m) => !q.updated_before || m.updated_at < q.updated_before)
        .filter((m) => !q.updated_after || m.updated_at > q.updated_after)
        .sort(byDueDate)
      return mapPage(slicePage(rows, pageOf(q)), (m) => present(m))
    },

    get(actor: Actor, projectId: string, id: number): Milestone {
      const project = access.project(actor, projectId)
      return present(find(project, id))
    },

    create(actor: Actor, projectId: string, input: MilestoneCreate): Milestone {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      const now = isoNow(ctx.clock)
      const fields = {
        title: writtenText(input.title)?.trim() ?? '',
        description: input.description ?? null,
        start_date: calendarDate(input.start_date),
        due_date: calendarDate(input.due_date),
      }
      validate('create', project, fields)
      const id = store.milestones.insert({
        ...fields,
        project_id: project.id,
        state: 'active',
        created_at: now,
        updated_at: now,
      })
      return present(store.milestones.get(id) as MilestoneRow)
    },

    /** `Milestones::UpdateService`: `state_event` first, then the fields; a blank title is not written. */
    update(actor: Actor, projectId: string, id: number, input: MilestoneUpdate): Milestone {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      const row = find(project, id)
      const next = {
        id: row.id,
        title: writtenText(input.title)?.trim() ?? row.title,
        description: input.description === undefined ? row.description : input.description,
        state:
          input.state_event === 'close' ? 'closed' : input.state_event === 'activate' ? 'active' : row.state,
        start_date: input.start_date === undefined ? row.start_date : calendarDate(input.start_date),
        due_date: input.due_date === undefined ? row.due_date : calendarDate(input.due_date),
        updated_at: isoNow(ctx.clock),
      } as const
      validate('update', project, next, row)
      store.milestones.update(next)
      return present(find(project, id))
    },

    /** `Milestones::DestroyService`: its issues keep no milestone. */
    remove(actor: Actor, projectId: string, id: number): void {
      const project = access.project(actor, projectId)
      requireAdmin(actor, project)
      store.milestones.remove(find(project, id).id)
    },
  }
}
export type ProjectMilestoneService = ReturnType<typeof projectMilestoneService>

/**
 * `MilestonesFinder`'s order (`Milestone.sort_by_attribute(:due_date_asc)`): due date first, none
 * last, then the newest first (`with_order_id_desc`).
 */
function byDueDate(a: MilestoneRow, b: MilestoneRow): number {
  if (a.due_date !== b.due_date) {
    if (a.due_date === null) return 1
    if (b.due_date === null) return -1
    return a.due_date < b.due_date ? -1 : 1
  }
  return b.id - a.id
}

/** `errors.messages.to_s` as Ruby before 3.4 prints it: `{:title=>["can't be blank"]}`. */
function rubyHash(errors: [string, string][]): string {
  const byField = new Map<string, string[]>()
  for (const [field, message] of errors) byField.set(field, [...(byField.get(field) ?? []), message])
  const entries = [...byField].map(
    ([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`,
  )
  return `{${entries.join(', ')}}`
}
