import { countTasks } from '../domain/tasks.js'
import type { ImportWriter } from '../store/imports.js'
import { isConstraintError, type Store } from '../store/index.js'
import type { ImportLookups } from './import-lookups.js'
import type { UserMap } from './import-users.js'

/** An unsaved line becomes a failed relation (`lib/gitlab/import_export/import_failure_service.rb`). */
export class RelationError extends Error {
  constructor(
    readonly exceptionClass: string,
    message: string,
  ) {
    super(message)
  }
}
const invalid = (message: string) => new RelationError('ActiveRecord::RecordInvalid', message)

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : [])
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const int = (v: unknown, fallback: number | null = null): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : fallback
const time = (v: unknown, fallback: string): string =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : fallback
const day = (v: unknown): string | null => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null)
const bit = (v: unknown) => (v === true ? 1 : 0)
const title = (v: unknown, max = 255): string => {
  const t = text(v)?.trim()
  if (!t) throw invalid("Validation failed: Title can't be blank")
  if (t.length > max) throw invalid(`Validation failed: Title is too long (maximum is ${max} characters)`)
  return t
}

const TYPES: Record<string, string> = {
  issue: 'issue',
  incident: 'incident',
  test_case: 'test_case',
  task: 'task',
}
const TYPE_NAMES: Record<string, string> = {
  Issue: 'issue',
  Incident: 'incident',
  'Test Case': 'test_case',
  Task: 'task',
}

/** Everything a line restorer needs. */
export interface RestoreContext {
  store: Store
  writer: ImportWriter
  users: UserMap
  projectId: number
  /** Labels and milestones found by title in the current batch. */
  lookups: ImportLookups
  now: string
  /** GitLab 17.1+ dropped `(imported from GitLab)` from the note attribution suffix. */
  modernAttribution: boolean
}

/**
 * A label by title in the project or its groups (a `GroupLabel` of the export is reused when the
 * target's groups have its title), created as a project label from the exported value when missing
 * (`ObjectBuilder`); the batch remembers the answer (import-lookups.ts).
 */
export function restoreLabel(c: RestoreContext, raw: unknown): number {
  const l = obj(raw)
  const t = title(l.title)
  return c.lookups.label(t, () => findOrMakeLabel(c, l, t))
}

function findOrMakeLabel(c: RestoreContext, l: Obj, t: string): number {
  const found = c.store.labels.availableByTitle(c.lookups.target(), t)
  if (found) return found.id
  const color = text(l.color) && /^#[0-9a-f]{3,6}$/i.test(text(l.color)!) ? text(l.color)! : '#6699cc'
  const id = c.store.labels.insert(
    c.projectId,
    t,
    color,
    text(l.description) || null,
    time(l.created_at, c.now),
  )
  const priority = Array.isArray(l.priorities) ? obj(l.priorities[0]).priority : undefined
  if (Number.isSafeInteger(priority) && (priority as number) >= 0)
    c.store.labels.setPriority(id, priority as number)
  return id
}

/**
 * A milestone by title in the project or its groups, created as the project's (keeping its iid when
 * free) when missing (`ObjectBuilder`); the batch remembers the answer (import-lookups.ts).
 */
export function restoreMilestone(c: RestoreContext, raw: unknown): number {
  const m = obj(raw)
  const t = title(m.title)
  return c.lookups.milestone(t, () => findOrMakeMilestone(c, m, t))
}

function findOrMakeMilestone(c: RestoreContext, m: Obj, t: string): number {
  const found = c.store.milestones.availableByTitle(c.lookups.target(), t)
  if (found) return found.id
  return c.writer.insertMilestone({
    iid: int(m.iid),
    project_id: c.projectId,
    title: t,
    description: text(m.description),
    state: m.state === 'closed' ? 'closed' : 'active',
    start_date: day(m.start_date),
    due_date: day(m.due_date),
    created_at: time(m.created_at, c.now),
    updated_at: time(m.updated_at, c.now),
  })
}

/**
 * Note body with GitLab's attribution when the author was not mapped (`set_note_author` in
 * `lib/gitlab/import_export/base/relation_factory.rb`).
 */
function noteBody(c: RestoreContext, n: Obj): string {
  const body = text(n.note) ?? ''
  if (c.users.mapped(n.author_id)) return body
  const name = text(obj(n.author).name) ?? 'Ghost User'
  const when = time(n.updated_at, c.now).split('.')[0]
  const suffix = c.modernAttribution ? '' : ' (imported from GitLab)'
  return `${body || '*Blank note*'}\n\n *By ${name} on ${when}${suffix}*`
}

/**
 * One issue line with its label links, milestone, assignees, notes, timelogs and award emoji (`issues` in
 * `lib/gitlab/import_export/project/import_export.yml`). The iid is kept (taken twice -> RecordNotUnique);
 * the work item type comes from `work_item_type.base_type`, `.name` or legacy `issue_type`, and an unknown
 * type falls back to `issue` with an `imported:<type>` label; `relative_position` is reset (newest GitLab).
 */
export function restoreIssue(c: RestoreContext, raw: unknown): void {
  const i = obj(raw)
  const iid = int(i.iid)
  if (iid === null || iid < 1) throw invalid("Validation failed: Iid can't be blank")
  if (c.store.issues.byIid(c.projectId, iid))
    throw new RelationError('ActiveRecord::RecordNotUnique', 'iid taken')
  const wit = obj(i.work_item_type)
  const typeName =
    text(wit.base_type) ?? (text(wit.name) ? (TYPE_NAMES[text(wit.name)!] ?? text(wit.name)) : null)
  const given = typeName ?? text(i.issue_type) ?? 'issue'
  const issueType = TYPES[given] ?? 'issue'
  const created = time(i.created_at, c.now)
  const description = text(i.description)
  if (description && description.length > 1_048_576)
    throw invalid('Validation failed: Description is too long')
  const tasks = countTasks(description)
  const closed = i.state === 'closed'
  const timelogs = list(i.timelogs)
  const spent = timelogs.reduce((sum, t) => sum + (int(t.time_spent, 0) as number), 0)
  const id = c.store.issues.insert({
    iid,
    project_id: c.projectId,
    title: title(i.title),
    description,
    state: closed ? 'closed' : 'opened',
    author_id: c.users.user(i.author_id),
    created_at: created,
    updated_at: time(i.updated_at, created),
    milestone_id: i.milestone ? restoreMilestone(c, i.milestone) : null,
    epic_id: null,
    confidential: bit(i.confidential),
    discussion_locked: typeof i.discussion_locked === 'boolean' ? bit(i.discussion_locked) : null,
    issue_type: issueType,
    due_date: day(i.due_date),
    time_estimate: Math.max(0, int(i.time_estimate, 0) as number),
    total_time_spent: spent,
    weight: int(i.weight),
    tasks_total: tasks.total,
    tasks_done: tasks.done,
    relative_position: null,
    closed_at: closed ? time(i.closed_at, created) : null,
    closed_by_id: closed && i.closed_by_id != null ? c.users.user(i.closed_by_id) : null,
    user_agent: null,
    ip_address: null,
  })
  const labelIds = list(i.label_links).map((l) => restoreLabel(c, l.label))
  if (issueType !== given) labelIds.push(restoreLabel(c, { title: `imported:${given}` }))
  c.store.issues.setLabels(id, [...new Set(labelIds)])
  c.store.issues.setAssignees(id, [...new Set(list(i.issue_assignees).map((a) => c.users.user(a.user_id)))])
  for (const t of timelogs)
    c.store.timelogs.insert({
      issue_id: id,
      user_id: c.users.user(t.user_id),
      time_spent: int(t.time_spent, 0) as number,
      summary: text(t.summary),
      spent_at: time(t.spent_at, created),
      created_at: time(t.created_at, created),
    })
  for (const n of list(i.notes))
    c.store.notes.insert({
      issue_id: id,
      author_id: c.users.user(n.author_id),
      body: noteBody(c, n),
      system: bit(n.system),
      // GitLab writes `confidential` (`included_attributes.notes`); this server's earlier exports
      // wrote `internal`. Either one marks the note internal.
      internal: n.confidential === true || n.internal === true ? 1 : 0,
      created_at: time(n.created_at, created),
      updated_at: time(n.updated_at, created),
    })
  for (const a of list(i.award_emoji))
    if (text(a.name))
      c.writer.addAward(id, c.users.user(a.user_id), text(a.name)!, time(a.created_at, created))
}

/** One merge request line: the record itself (diffs, notes and pipelines are not kept by the emulator). */
export function restoreMergeRequest(c: RestoreContext, raw: unknown): void {
  const m = obj(raw)
  const iid = int(m.iid)
  if (iid === null || iid < 1) throw invalid("Validation failed: Iid can't be blank")
  const source = text(m.source_branch)
  const target = text(m.target_branch)
  if (!source || !target) throw invalid("Validation failed: Source branch can't be blank")
  const state = m.state === 'merged' || m.state === 'closed' ? m.state : 'opened'
  const created = time(m.created_at, c.now)
  const metrics = obj(m.metrics)
  try {
    c.writer.insertMergeRequest({
      iid,
      project_id: c.projectId,
      title: title(m.title),
      description: text(m.description),
      state,
      author_id: c.users.user(m.author_id),
      source_branch: source,
      target_branch: target,
      created_at: created,
      updated_at: time(m.updated_at, created),
      merged_at: state === 'merged' ? time(metrics.merged_at, created) : null,
      closed_at: state === 'closed' ? time(metrics.latest_closed_at, created) : null,
    })
  } catch (err) {
    if (isConstraintError(err)) throw new RelationError('ActiveRecord::RecordNotUnique', 'iid taken')
    throw err
  }
}

/** The create levels a protected tag takes (`ProtectedRefAccess.allowed_access_levels`). */
const TAG_LEVELS = new Set([0, 30, 40, 60])

/**
 * One `protected_tags` line: the name and its first create level (a user's or group's level, EE,
 * is not kept; Maintainers when none is usable). A name the project protects already fails as
 * GitLab's uniqueness validation does.
 */
export function restoreProtectedTag(c: RestoreContext, raw: unknown): void {
  const t = obj(raw)
  const name = text(t.name)
  if (!name?.trim()) throw invalid("Validation failed: Name can't be blank")
  const levels = list(t.create_access_levels).map((l) => int(l.access_level))
  const level = levels.find((l): l is number => l !== null && TAG_LEVELS.has(l)) ?? 40
  const created = time(t.created_at, c.now)
  try {
    c.store.repository.protectTag({
      project_id: c.projectId,
      name,
      create_access_level: level,
      created_at: created,
      updated_at: time(t.updated_at, created),
    })
  } catch (err) {
    if (isConstraintError(err)) throw invalid('Validation failed: Name has already been taken')
    throw err
  }
}
