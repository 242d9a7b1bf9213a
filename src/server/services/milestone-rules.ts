import type { MilestoneCreate, MilestoneListQuery, MilestoneUpdate } from '../../schema/index.js'
import { calendarDate } from '../domain/calendar-date.js'
import { writtenText } from '../domain/plain-text.js'
import { applies } from '../domain/releases.js'
import { messageError, recordNotFound } from '../grape/gitlab-errors.js'
import type { Store } from '../store/index.js'
import type { MilestoneRow } from '../store/milestones.js'
import { Level } from './access.js'

/** The newest date a milestone may have (`Timebox#dates_within_4_digits`). */
const LAST_DATE = '9999-12-31'

/**
 * `Milestone`'s validations in their order (`app/models/milestone.rb`, `Timebox`): title present, due
 * date after the start, dates of four digits, then a title `taken` does not find (checked when it
 * changes). Throws 400 `Failed to create milestone {:title=>[...]}` as the API renders it.
 */
export function validateMilestone(
  action: 'create' | 'update',
  m: Pick<MilestoneRow, 'title' | 'start_date' | 'due_date'>,
  self: MilestoneRow | undefined,
  taken: (title: string) => boolean,
): void {
  const errors: [string, string][] = []
  if (!m.title) errors.push(['title', "can't be blank"])
  if (m.start_date && m.due_date && m.due_date <= m.start_date)
    errors.push(['due_date', 'must be greater than start date'])
  if (m.start_date && m.start_date > LAST_DATE)
    errors.push(['start_date', 'date must not be after 9999-12-31'])
  if (m.due_date && m.due_date > LAST_DATE) errors.push(['due_date', 'date must not be after 9999-12-31'])
  if (m.title && m.title !== self?.title && taken(m.title))
    errors.push(['title', 'already being used for another group or project milestone.'])
  if (errors.length > 0) throw messageError(400, `Failed to ${action} milestone ${rubyHash(errors)}`)
}

/**
 * `MilestonesFinder`'s order (`Milestone.sort_by_attribute(:due_date_asc)`): due date first, none
 * last, then the newest first (`with_order_id_desc`).
 */
export function byDueDate(a: MilestoneRow, b: MilestoneRow): number {
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

/**
 * `MilestonesFinder` (`list_params` of `lib/api/milestone_responses.rb`): `title` exactly, `search` in
 * title or description, `state`, `iids`, `updated_before`/`updated_after`; by due date.
 */
export function listedMilestones(all: MilestoneRow[], q: MilestoneListQuery): MilestoneRow[] {
  const search = q.search?.toLowerCase()
  const iids = q.iids && q.iids.length > 0 ? new Set(q.iids) : undefined
  return all
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
}

/** A new milestone's fields from `POST .../milestones`: the title trimmed, dates as calendar days. */
export function newMilestoneFields(input: MilestoneCreate) {
  return {
    title: writtenText(input.title)?.trim() ?? '',
    description: input.description ?? null,
    start_date: calendarDate(input.start_date),
    due_date: calendarDate(input.due_date),
  }
}

/** `Milestones::UpdateService`: `state_event` first, then the fields given; a blank title is not written. */
export function editedMilestone(row: MilestoneRow, input: MilestoneUpdate, now: string) {
  return {
    id: row.id,
    title: writtenText(input.title)?.trim() ?? row.title,
    description: input.description === undefined ? row.description : input.description,
    state: input.state_event === 'close' ? 'closed' : input.state_event === 'activate' ? 'active' : row.state,
    start_date: input.start_date === undefined ? row.start_date : calendarDate(input.start_date),
    due_date: input.due_date === undefined ? row.due_date : calendarDate(input.due_date),
    updated_at: now,
  } as const
}

/** `admin_milestone`'s least role: Planner and up from GitLab 15.0, Developer before. */
export const milestoneWriters = (version: string): number =>
  applies(version, 'milestonesByReporter') ? Level.planner : Level.developer

/** `parent.milestones.find(id)`: ActiveRecord's 404 for a milestone the owner lacks (another owner's too). */
export function ownMilestone(store: Store, id: number, owned: (row: MilestoneRow) => boolean): MilestoneRow {
  const row = store.milestones.get(id)
  if (!row || !owned(row)) throw recordNotFound()
  return row
}

/** Inserts a new, active milestone of the owner's (with its next iid) and answers its row. */
export function insertMilestone(
  store: Store,
  fields: ReturnType<typeof newMilestoneFields>,
  owner: { project_id: number | null; group_id?: number },
  now: string,
): MilestoneRow {
  const id = store.milestones.insert({
    ...fields,
    ...owner,
    state: 'active',
    created_at: now,
    updated_at: now,
  })
  return store.milestones.get(id) as MilestoneRow
}
