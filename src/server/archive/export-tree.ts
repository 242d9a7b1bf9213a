import { createHash } from 'node:crypto'
import type { ExportAwardEmoji, ExportReader, ExportResourceEvent, IssueLine } from '../store/exports.js'
import type { LabelRow } from '../store/labels.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { NoteRow } from '../store/notes.js'
import type { TimelogRow } from '../store/timelogs.js'
import type { ProjectRow } from '../store/projects.js'
import { mergeRequestLine } from './export-merge-requests.js'
import { personalOwnerOf, withPersonalOwner } from './export-members.js'
import { writeRepositoryBundle } from './export-repository.js'
import { ciCdSettings, projectFeature, protectedBranches } from './export-settings.js'
import { EMULATOR_REVISION, EXPORT_VERSION } from './layout.js'
import { NdjsonWriter } from './ndjson-writer.js'
import type { TarGzWriter } from './tar-gz-writer.js'

/** Rows read from the store per query (GitLab's `StreamingSerializer` uses batches of 100 too). */
const BATCH = 100
const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 }
/**
 * Resource-event relations of an issue, written when a migration has created their table, with
 * the attributes `import_export.yml` permits for each (anything else is dropped on import).
 */
const EVENT_ATTRIBUTES: Record<string, string[]> = {
  resource_label_events: ['action', 'user_id', 'created_at'],
  resource_milestone_events: ['user_id', 'action', 'created_at', 'state'],
  resource_state_events: [
    'user_id',
    'state',
    'created_at',
    'source_commit',
    'close_after_error_tracking_resolve',
    'close_auto_resolve_prometheus_alert',
  ],
}
const EVENT_TABLES = Object.keys(EVENT_ATTRIBUTES)
/** Boolean columns of the event tables: SQLite stores 0/1, GitLab writes true/false. */
const EVENT_BOOLEANS = new Set(['close_after_error_tracking_resolve', 'close_auto_resolve_prometheus_alert'])
const eventLine = (table: string) => (e: ExportResourceEvent) =>
  Object.fromEntries(
    EVENT_ATTRIBUTES[table]!.filter((k) => k in e).map((k) => [k, EVENT_BOOLEANS.has(k) ? bool(e[k]) : e[k]]),
  )

export interface TreeSource {
  reader: ExportReader
  project: ProjectRow
  /** The project's namespace and its ancestors (their members are exported as project members). */
  namespaceIds: number[]
  /** `description` of the export request, overriding the project's. */
  description?: string | null
  /** `Gitlab::VERSION`: `18.6.0`, or `18.6.0-ee` on Enterprise Edition. */
  gitlabVersion: string
  /** A personal project's owner, exported as its member (see `withPersonalOwner`). */
  personalOwner?: ReturnType<typeof personalOwnerOf>
  /** Checked between batches: a closing server stops the export. */
  aborted: () => boolean
}

const bool = (v: unknown) => v === 1 || v === true
const labelLine = (l: LabelRow) => ({
  title: l.title,
  color: l.color,
  description: l.description ?? '',
  type: 'ProjectLabel',
  project_id: l.project_id,
  group_id: null,
  template: false,
  created_at: l.created_at,
  updated_at: l.created_at,
  // `LabelPriority`: the project's priority of the label, when it has one.
  priorities:
    l.priority === null
      ? []
      : [
          {
            project_id: l.project_id,
            priority: l.priority,
            created_at: l.created_at,
            updated_at: l.created_at,
          },
        ],
})
const milestoneLine = (m: MilestoneRow) => ({
  iid: m.iid,
  title: m.title,
  description: m.description,
  state: m.state,
  start_date: m.start_date,
  due_date: m.due_date,
  project_id: m.project_id,
  group_id: null,
  created_at: m.created_at,
  updated_at: m.updated_at,
  events: [],
})
const group = <T extends { issue_id: number }>(rows: T[]) => {
  const out = new Map<number, T[]>()
  for (const r of rows) out.set(r.issue_id, [...(out.get(r.issue_id) ?? []), r])
  return out
}

/**
 * Writes an export into `archive` as GitLab's `Projects::ImportExport::ExportService` does: the
 * top-level files, `project.bundle` (`writeRepositoryBundle`), then `tree/`
 * (`lib/gitlab/import_export/project/tree_saver.rb`), reading the store in batches: labels,
 * milestones, issues (label links, milestone, assignees, notes, timelogs, award emoji, resource
 * events where their tables exist), merge requests, project members (inherited group members
 * included, as GitLab's presenter exports them), protected branches and the settings relations.
 * Members come in the order `tar -czf` of the sorted tree would give them.
 * Choices where the reference is silent: `public_email` is written null (our users have no public
 * email); notes' `discussion_id` is a SHA-1 of the note id.
 */
export async function writeExportTree(archive: TarGzWriter, src: TreeSource): Promise<void> {
  const { reader, project } = src
  const check = () => {
    if (src.aborted()) throw new Error('export aborted: the server is closing')
  }
  archive.directory('./')
  archive.file('./GITLAB_REVISION', EMULATOR_REVISION)
  archive.file('./GITLAB_VERSION', src.gitlabVersion)
  archive.file('./VERSION', EXPORT_VERSION)
  archive.file('./lfs-objects.json', '{}')
  await writeRepositoryBundle(archive, reader, project, check)
  archive.directory('./tree/')
  archive.directory('./tree/project/')
  const relation = async (name: string) =>
    new NdjsonWriter(await archive.stream(`./tree/project/${name}.ndjson`))

  /** A relation of the project's own rows, read by id in batches (`read` takes the last id). */
  const plain = async <T extends { id: number }>(
    name: string,
    read: (afterId: number) => T[],
    line: (r: T) => unknown,
  ) => {
    const out = await relation(name)
    for (let rows = read(0); rows.length > 0;) {
      for (const r of rows) await out.write(line(r))
      check()
      rows = read(rows[rows.length - 1]!.id)
    }
    await out.close()
  }
  archive.file('./tree/project/ci_cd_settings.ndjson', ciCdSettings())
  await writeIssues(await relation('issues'), src, check)
  await plain('labels', (after) => reader.labels(project.id, after, BATCH), labelLine)
  await plain(
    'merge_requests',
    (after) => reader.mergeRequests(project.id, after, BATCH),
    mergeRequestLine(reader, project),
  )
  await plain('milestones', (after) => reader.milestones(project.id, after, BATCH), milestoneLine)
  archive.file('./tree/project/project_feature.ndjson', projectFeature(project))

  const members = await relation('project_members')
  for (const m of withPersonalOwner(reader.members(project.id, src.namespaceIds), src.personalOwner)) {
    const user = reader.user(m.user_id)
    if (!user) continue
    await members.write({
      access_level: m.access_level,
      source_type: 'Project',
      user_id: m.user_id,
      notification_level: 3,
      created_at: m.created_at,
      updated_at: m.created_at,
      created_by_id: null,
      invite_email: null,
      invite_accepted_at: null,
      requested_at: null,
      expires_at: null,
      user: { id: user.id, username: user.username, public_email: null },
    })
  }
  await members.close()
  // Like an empty array relation in GitLab 16.11+, no protected branch means no file.
  const protections = protectedBranches(
    project,
    reader.refs(project.id).map((r) => r.name),
  )
  if (protections.length > 0) {
    const out = await relation('protected_branches')
    for (const line of protections) await out.write(line)
    await out.close()
  }

  archive.file(
    './tree/project.json',
    JSON.stringify({
      description: src.description ?? project.description,
      visibility_level: VISIBILITY_LEVEL[project.visibility] ?? 0,
      archived: bool(project.archived),
      issues_enabled: true,
      merge_requests_enabled: true,
      wiki_enabled: true,
      snippets_enabled: true,
      default_branch: project.default_branch,
      squash_option: 'default_off',
      merge_commit_template: null,
      squash_commit_template: null,
    }),
  )
}

/** A timelog as exported: a stored one, or the remainder `withRemainder` adds. */
type TimelogEntry = Pick<TimelogRow, 'time_spent' | 'user_id' | 'spent_at' | 'summary' | 'created_at'>

/**
 * The issue's timelogs; when they do not add up to `total_time_spent` (seeded time carries no
 * timelog), one more entry by the author at creation holds the rest, so the total survives an
 * import (GitLab's total is always the sum of its timelogs). Our choice.
 */
function withRemainder(issue: IssueLine, logs: TimelogEntry[]): TimelogEntry[] {
  const rest = issue.totalTimeSpent - logs.reduce((n, t) => n + t.time_spent, 0)
  if (rest === 0) return logs
  const at = issue.createdAt
  return [...logs, { time_spent: rest, user_id: issue.authorId, spent_at: at, summary: null, created_at: at }]
}

/** `make`, remembered per id: users, labels and milestones repeat across a project's issues. */
function once<T>(make: (id: number) => T): (id: number) => T {
  const made = new Map<number, T>()
  return (id) => {
    if (!made.has(id)) made.set(id, make(id))
    return made.get(id) as T
  }
}

/** The JSON of a relation list, `[]` without a stringify call for the usual empty one. */
const list = <T>(rows: T[] | undefined, shape: (row: T) => unknown) =>
  rows && rows.length > 0 ? JSON.stringify(rows.map(shape)) : '[]'

/**
 * `issues.ndjson`: each line is the issue's own fields as SQLite shaped them (`reader.issues`),
 * with its relations appended. Labels and milestones repeat across issues, so each is shaped once;
 * notes, timelogs, award emoji and assignees are read only for the issues that have some.
 */
async function writeIssues(out: NdjsonWriter, src: TreeSource, check: () => void): Promise<void> {
  const { reader, project } = src
  const authorName = once((id) => reader.user(id)?.name ?? 'Ghost User')
  const milestoneOf = once((id) => {
    const row = reader.milestone(id)
    return row ? JSON.stringify(milestoneLine(row)) : undefined
  })
  const labelLinkOf = once((id) => {
    const l = reader.label(id)
    return l
      ? JSON.stringify({
          target_type: 'Issue',
          created_at: l.created_at,
          updated_at: l.created_at,
          label: labelLine(l),
        })
      : undefined
  })
  const timelogLine = (t: TimelogEntry) => ({
    time_spent: t.time_spent,
    user_id: t.user_id,
    spent_at: t.spent_at,
    summary: t.summary,
    project_id: project.id,
    created_at: t.created_at,
    updated_at: t.created_at,
  })
  const noteLine = (n: NoteRow) => ({
    note: n.body,
    noteable_type: 'Issue',
    author_id: n.author_id,
    system: bool(n.system),
    // GitLab exports the flag as `confidential` (`included_attributes.notes`); `Note#set_internal_flag`
    // copies it to `internal` on import (`app/models/note.rb`). An `internal` key would be dropped.
    confidential: bool(n.internal),
    discussion_id: createHash('sha1')
      .update(`note-${String(n.id)}`)
      .digest('hex'),
    type: null,
    created_at: n.created_at,
    updated_at: n.updated_at,
    author: { name: authorName(n.author_id) },
    award_emoji: [],
    events: [],
  })
  const awardLine = (a: ExportAwardEmoji) => ({
    name: a.name,
    user_id: a.user_id,
    awardable_type: 'Issue',
    created_at: a.created_at,
    updated_at: a.created_at,
  })
  const events = EVENT_TABLES.filter((t) => reader.has(t))
  let key: [number, number, number] = [0, Number.MIN_SAFE_INTEGER, 0]
  for (let rows = reader.issues(project.id, key, BATCH); rows.length > 0;) {
    const ids = rows.map((r) => r.id)
    const withChildren = rows.filter((r) => r.hasChildren).map((r) => r.id)
    const assignees = group(reader.assignees(withChildren))
    const notes = group(reader.notes(withChildren))
    const timelogs = group(reader.timelogs(withChildren))
    const awards = group(reader.awardEmoji(withChildren))
    const eventsOf = new Map(events.map((t) => [t, group(reader.events(t, ids))]))
    for (const issue of rows) {
      const { id, milestoneId, labelIds } = issue
      const logs = withRemainder(issue, timelogs.get(id) ?? [])
      const links = labelIds ? labelIds.split(',').map((l) => labelLinkOf(Number(l))) : []
      const milestone = milestoneId ? milestoneOf(milestoneId) : undefined
      // The relations after the issue's own fields, in GitLab's key order; JSON text each.
      const relations: [string, string | undefined][] = [
        ['timelogs', list(logs, timelogLine)],
        ['notes', list(notes.get(id), noteLine)],
        ['label_links', `[${links.filter(Boolean).join(',')}]`],
        ['milestone', milestone],
        ...EVENT_TABLES.map((t): [string, string] => [t, list(eventsOf.get(t)?.get(id), eventLine(t))]),
        ['designs', '[]'],
        ['design_versions', '[]'],
        ['issue_assignees', list(assignees.get(id), (a) => ({ user_id: a.user_id }))],
        ['zoom_meetings', '[]'],
        ['award_emoji', list(awards.get(id), awardLine)],
      ]
      const tail = relations.map(([name, json]) => (json === undefined ? '' : `,"${name}":${json}`)).join('')
      await out.writeJson(`${issue.json.slice(0, -1)}${tail}}`)
      key = [issue.relativePosition === null ? 1 : 0, issue.relativePosition ?? 0, id]
    }
    check()
    rows = reader.issues(project.id, key, BATCH)
  }
  await out.close()
}
