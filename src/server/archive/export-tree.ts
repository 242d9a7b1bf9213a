import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type {
  ChildBudget,
  ExportAwardEmoji,
  ExportReader,
  ExportResourceEvent,
  IssueChild,
  IssueChildTable,
  IssueLine,
} from '../store/exports.js'
import type { LabelRow } from '../store/labels.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { NoteRow } from '../store/notes.js'
import type { TimelogRow } from '../store/timelogs.js'
import type { ProjectRow } from '../store/projects.js'
import { mergeRequestLine } from './export-merge-requests.js'
import { personalOwnerOf, withPersonalOwner } from './export-members.js'
import { writeRepositoryBundle } from './export-repository.js'
import { ciCdSettings, projectFeature, protectedBranches, protectedTags } from './export-settings.js'
import { EMULATOR_REVISION, EXPORT_VERSION } from './layout.js'
import { NdjsonWriter } from './ndjson-writer.js'
import type { TarGzWriter } from './tar-gz-writer.js'

/** Rows read from the store per query (GitLab's `StreamingSerializer` uses batches of 100 too). */
const BATCH = 100
/**
 * The notes (and timelogs, award emoji) read with a batch of issues. An issue whose rows do not
 * fit (an import can give one a million notes) has its list written a CHILD_PAGE at a time: pages
 * of 1,000 rows took the server 60 MB higher over a million notes (their text outgrew the archive
 * writer's reused buffers, and more of it lived long enough to be promoted).
 */
const BATCH_CHILDREN: ChildBudget = { rows: 10_000, chars: 16 * 1024 * 1024 }
const CHILD_PAGE: ChildBudget = { rows: 100, chars: 64 * 1024 }
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
  /** `Project#public_builds` (`public_jobs`), a `project.json` attribute. */
  publicBuilds: boolean
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
  // A group's label in an issue's links is written as GitLab writes one (`GroupLabel`, its group's id);
  // the importer finds it by title in the target's groups or makes a project label of it.
  type: l.group_id === null ? 'ProjectLabel' : 'GroupLabel',
  project_id: l.project_id,
  group_id: l.group_id,
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
  group_id: m.group_id,
  created_at: m.created_at,
  updated_at: m.updated_at,
  events: [],
})
const group = <T extends { issue_id: number }>(rows: T[]) => {
  const out = new Map<number, T[]>()
  for (const r of rows) {
    const list = out.get(r.issue_id)
    if (list) list.push(r)
    else out.set(r.issue_id, [r])
  }
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
  const tagProtections = protectedTags(reader.protectedTags(project.id))
  if (tagProtections.length > 0) {
    const out = await relation('protected_tags')
    for (const line of tagProtections) await out.write(line)
    await out.close()
  }

  archive.file(
    './tree/project.json',
    JSON.stringify({
      description: src.description ?? project.description,
      visibility_level: VISIBILITY_LEVEL[project.visibility] ?? 0,
      archived: bool(project.archived),
      public_builds: src.publicBuilds,
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
 * What follows the issue's timelogs (`spent` in all): when they do not add up to `total_time_spent`
 * (seeded time carries no timelog), one more entry by the author at creation holds the rest, so the
 * total survives an import (GitLab's total is always the sum of its timelogs). Our choice.
 */
function remainder(issue: IssueLine, spent: number): TimelogEntry[] {
  const rest = issue.totalTimeSpent - spent
  const at = issue.createdAt
  return rest === 0
    ? []
    : [{ time_spent: rest, user_id: issue.authorId, spent_at: at, summary: null, created_at: at }]
}
const spentBy = (logs: TimelogEntry[]) => logs.reduce((n, t) => n + t.time_spent, 0)

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
 * A relation of an issue line: its JSON, a list too long to hold (the JSON of its entries, a page
 * at a time, each page's entries joined by `,`), or undefined to leave the key out.
 */
type RelationJson = string | AsyncIterable<string> | undefined

/**
 * Writes an issue line: its own fields (`json`, an object) with the relations appended. A line with
 * a streamed list goes out in parts, so no more than a page of it is ever held.
 */
async function writeIssueLine(out: NdjsonWriter, json: string, relations: [string, RelationJson][]) {
  const head = json.slice(0, -1)
  if (relations.every(([, value]) => typeof value !== 'object')) {
    const tail = relations.map(([name, value]) => (value === undefined ? '' : `,"${name}":${value}`))
    return out.writeJson(`${head}${tail.join('')}}`)
  }
  await out.writePart(head)
  for (const [name, value] of relations) {
    if (value === undefined) continue
    if (typeof value === 'string') {
      await out.writePart(`,"${name}":${value}`)
      continue
    }
    await out.writePart(`,"${name}":[`)
    let first = true
    for await (const page of value) {
      await out.writePart(first ? page : `,${page}`)
      first = false
    }
    await out.writePart(']')
  }
  await out.writeJson('}')
}

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
  /**
   * An issue's rows of `table`, read a CHILD_PAGE at a time, as JSON (see RelationJson), then the
   * entries `end` gives once all are read. The loop gets a turn between pages.
   */
  async function* pages<T extends IssueChild>(
    table: IssueChildTable,
    issueId: number,
    shape: (row: T) => unknown,
    end: () => unknown[] = () => [],
  ): AsyncGenerator<string> {
    for (let rows = reader.childPage<T>(table, issueId, 0, CHILD_PAGE); rows.length > 0;) {
      yield rows.map((r) => JSON.stringify(shape(r))).join(',')
      check()
      await nextTurn()
      rows = reader.childPage<T>(table, issueId, rows[rows.length - 1]!.id, CHILD_PAGE)
    }
    const last = end()
    if (last.length > 0) yield last.map((e) => JSON.stringify(e)).join(',')
  }
  let key: [number, number, number] = [0, Number.MIN_SAFE_INTEGER, 0]
  for (let rows = reader.issues(project.id, key, BATCH); rows.length > 0;) {
    const ids = rows.map((r) => r.id)
    const withChildren = rows.filter((r) => r.hasChildren).map((r) => r.id)
    const assignees = group(reader.assignees(withChildren))
    const notes = reader.children<NoteRow>('notes', withChildren, BATCH_CHILDREN)
    const timelogs = reader.children<TimelogRow>('timelogs', withChildren, BATCH_CHILDREN)
    const awards = reader.children<ExportAwardEmoji>('award_emoji', withChildren, BATCH_CHILDREN)
    const eventsOf = new Map(events.map((t) => [t, group(reader.events(t, ids))]))
    for (const issue of rows) {
      const { id, milestoneId, labelIds } = issue
      let logs: RelationJson
      if (timelogs.partial.has(id)) {
        let spent = 0
        const shape = (t: TimelogRow) => {
          spent += t.time_spent
          return timelogLine(t)
        }
        logs = pages('timelogs', id, shape, () => remainder(issue, spent).map(timelogLine))
      } else {
        const own = timelogs.byIssue.get(id) ?? []
        logs = list([...own, ...remainder(issue, spentBy(own))], timelogLine)
      }
      const links = labelIds ? labelIds.split(',').map((l) => labelLinkOf(Number(l))) : []
      const milestone = milestoneId ? milestoneOf(milestoneId) : undefined
      // The relations after the issue's own fields, in GitLab's key order.
      await writeIssueLine(out, issue.json, [
        ['timelogs', logs],
        [
          'notes',
          notes.partial.has(id) ? pages('notes', id, noteLine) : list(notes.byIssue.get(id), noteLine),
        ],
        ['label_links', `[${links.filter(Boolean).join(',')}]`],
        ['milestone', milestone],
        ...EVENT_TABLES.map((t): [string, string] => [t, list(eventsOf.get(t)?.get(id), eventLine(t))]),
        ['designs', '[]'],
        ['design_versions', '[]'],
        ['issue_assignees', list(assignees.get(id), (a) => ({ user_id: a.user_id }))],
        ['zoom_meetings', '[]'],
        [
          'award_emoji',
          awards.partial.has(id)
            ? pages('award_emoji', id, awardLine)
            : list(awards.byIssue.get(id), awardLine),
        ],
      ])
      key = [issue.relativePosition === null ? 1 : 0, issue.relativePosition ?? 0, id]
    }
    check()
    rows = reader.issues(project.id, key, BATCH)
  }
  await out.close()
}
