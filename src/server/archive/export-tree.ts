import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ExportReader, Row } from '../store/exports.js'
import type { ProjectRow } from '../store/projects.js'
import { EMULATOR_REVISION, EXPORT_VERSION } from './layout.js'
import { NdjsonWriter } from './ndjson-writer.js'

/** Rows read from the store per query (GitLab's `StreamingSerializer` uses batches of 100 too). */
const BATCH = 100
const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 }
/** Resource-event relations of an issue, written when a migration has created their table. */
const EVENT_TABLES = ['resource_label_events', 'resource_milestone_events', 'resource_state_events']

export interface TreeSource {
  reader: ExportReader
  project: ProjectRow
  /** The project's namespace and its ancestors (their members are exported as project members). */
  namespaceIds: number[]
  /** `description` of the export request, overriding the project's. */
  description?: string | null
  gitlabVersion: string
  /** Checked between batches: a closing server stops the export. */
  aborted: () => boolean
}

const bool = (v: unknown) => v === 1 || v === true
const labelLine = (l: Row) => ({
  title: l.title,
  color: l.color,
  description: l.description ?? '',
  type: 'ProjectLabel',
  project_id: l.project_id,
  group_id: null,
  template: false,
  created_at: l.created_at,
  updated_at: l.created_at,
  priorities: [],
})
const milestoneLine = (m: Row) => ({
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
const group = (rows: Row[], key = 'issue_id') => {
  const out = new Map<number, Row[]>()
  for (const r of rows) out.set(r[key] as number, [...(out.get(r[key] as number) ?? []), r])
  return out
}

/**
 * Writes the `tree/` of an export and the top-level files (reference export-format §2, §5-§8) under
 * `dir`, reading the store in batches: labels, milestones, issues (label links, milestone, assignees,
 * notes, timelogs, award emoji, resource events where their tables exist), merge requests and
 * project members (inherited group members included, as GitLab's presenter exports them).
 * Choices where the reference is silent: `public_email` is written null (our users have no public
 * email); notes' `discussion_id` is a SHA-1 of the note id.
 */
export async function writeExportTree(dir: string, src: TreeSource): Promise<void> {
  const { reader, project } = src
  const rel = join(dir, 'tree', 'project')
  await mkdir(rel, { recursive: true })
  await writeFile(join(dir, 'VERSION'), EXPORT_VERSION)
  await writeFile(join(dir, 'GITLAB_VERSION'), src.gitlabVersion)
  await writeFile(join(dir, 'GITLAB_REVISION'), EMULATOR_REVISION)
  await writeFile(join(dir, 'lfs-objects.json'), '{}')
  await writeFile(
    join(dir, 'tree', 'project.json'),
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
  const check = () => {
    if (src.aborted()) throw new Error('export aborted: the server is closing')
  }

  const plain = async (name: string, table: string, line: (r: Row) => unknown) => {
    const out = new NdjsonWriter(join(rel, `${name}.ndjson`))
    for (let after = 0, rows = reader.batch(table, project.id, 0, BATCH); rows.length > 0;) {
      for (const r of rows) await out.write(line(r))
      after = rows[rows.length - 1]!.id as number
      check()
      rows = reader.batch(table, project.id, after, BATCH)
    }
    await out.close()
  }
  await plain('labels', 'labels', labelLine)
  await plain('milestones', 'milestones', milestoneLine)
  await writeIssues(rel, src, check)
  await plain('merge_requests', 'merge_requests', (m) => ({
    iid: m.iid,
    title: m.title,
    description: m.description,
    state: m.state,
    author_id: m.author_id,
    source_branch: m.source_branch,
    target_branch: m.target_branch,
    source_project_id: m.project_id,
    target_project_id: m.project_id,
    created_at: m.created_at,
    updated_at: m.updated_at,
    merge_when_pipeline_succeeds: false,
    metrics: { merged_at: m.merged_at, latest_closed_at: m.closed_at },
    notes: [],
    label_links: [],
  }))

  const members = new NdjsonWriter(join(rel, 'project_members.ndjson'))
  for (const m of reader.members(project.id, src.namespaceIds)) {
    const user = reader.user(m.user_id as number)
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
}

/**
 * The issue's timelogs; when they do not add up to `total_time_spent` (seeded time carries no
 * timelog), one more entry by the author at creation holds the rest, so the total survives an
 * import (GitLab's total is always the sum of its timelogs). Our choice.
 */
function withRemainder(issue: Row, logs: Row[]): Row[] {
  const rest = (issue.total_time_spent as number) - logs.reduce((n, t) => n + (t.time_spent as number), 0)
  if (rest === 0) return logs
  const at = issue.created_at
  return [
    ...logs,
    { time_spent: rest, user_id: issue.author_id, spent_at: at, summary: null, created_at: at },
  ]
}

async function writeIssues(rel: string, src: TreeSource, check: () => void): Promise<void> {
  const { reader, project } = src
  const out = new NdjsonWriter(join(rel, 'issues.ndjson'))
  const names = new Map<number, string>()
  const authorName = (id: number) => {
    if (!names.has(id)) names.set(id, String(reader.user(id)?.name ?? 'Ghost User'))
    return names.get(id)
  }
  // A project has few milestones and many issues: read and shape each milestone once.
  const milestones = new Map<number, ReturnType<typeof milestoneLine> | undefined>()
  const milestoneOf = (id: number) => {
    if (!milestones.has(id)) {
      const row = reader.milestone(id)
      milestones.set(id, row ? milestoneLine(row) : undefined)
    }
    return milestones.get(id)
  }
  let key: [number, number, number] = [0, Number.MIN_SAFE_INTEGER, 0]
  for (let rows = reader.issues(project.id, key, BATCH); rows.length > 0;) {
    const ids = rows.map((r) => r.id as number)
    const labels = group(reader.labelLinks(ids))
    const assignees = group(reader.assignees(ids))
    const notes = group(reader.notes(ids))
    const timelogs = group(reader.timelogs(ids))
    const awards = group(reader.awardEmoji(ids))
    const events = EVENT_TABLES.map((t) => [t, group(reader.events(t, ids))] as const)
    for (const i of rows) {
      const id = i.id as number
      const milestone = i.milestone_id ? milestoneOf(i.milestone_id as number) : undefined
      await out.write({
        title: i.title,
        author_id: i.author_id,
        project_id: i.project_id,
        created_at: i.created_at,
        updated_at: i.updated_at,
        description: i.description,
        iid: i.iid,
        updated_by_id: null,
        confidential: bool(i.confidential),
        closed_at: i.closed_at,
        closed_by_id: i.closed_by_id,
        due_date: i.due_date,
        lock_version: 0,
        weight: i.weight,
        time_estimate: i.time_estimate,
        relative_position: i.relative_position,
        external_author: null,
        last_edited_at: null,
        last_edited_by_id: null,
        discussion_locked: i.discussion_locked === null ? null : bool(i.discussion_locked),
        health_status: i.health_status,
        state: i.state,
        work_item_type: { base_type: i.issue_type },
        events: [],
        timelogs: withRemainder(i, timelogs.get(id) ?? []).map((t) => ({
          time_spent: t.time_spent,
          user_id: t.user_id,
          spent_at: t.spent_at,
          summary: t.summary,
          project_id: i.project_id,
          created_at: t.created_at,
          updated_at: t.created_at,
        })),
        notes: (notes.get(id) ?? []).map((n) => ({
          note: n.body,
          noteable_type: 'Issue',
          author_id: n.author_id,
          system: bool(n.system),
          internal: bool(n.internal),
          discussion_id: createHash('sha1')
            .update(`note-${String(n.id)}`)
            .digest('hex'),
          type: null,
          created_at: n.created_at,
          updated_at: n.updated_at,
          author: { name: authorName(n.author_id as number) },
          award_emoji: [],
          events: [],
        })),
        label_links: (labels.get(id) ?? []).map((l) => ({
          target_type: 'Issue',
          created_at: l.created_at,
          updated_at: l.created_at,
          label: labelLine(l),
        })),
        ...(milestone ? { milestone } : {}),
        ...Object.fromEntries(events.map(([t, m]) => [t, m.get(id) ?? []])),
        designs: [],
        design_versions: [],
        issue_assignees: (assignees.get(id) ?? []).map((a) => ({ user_id: a.user_id })),
        zoom_meetings: [],
        award_emoji: (awards.get(id) ?? []).map((a) => ({
          name: a.name,
          user_id: a.user_id,
          awardable_type: 'Issue',
          created_at: a.created_at,
          updated_at: a.created_at,
        })),
      })
    }
    const last = rows[rows.length - 1]!
    key = [
      last.relative_position === null ? 1 : 0,
      (last.relative_position as number | null) ?? 0,
      last.id as number,
    ]
    check()
    rows = reader.issues(project.id, key, BATCH)
  }
  await out.close()
}
