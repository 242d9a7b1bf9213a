import { gitObjectOf } from './git-objects.js'
import type { Db, Statement } from './db.js'
import type { LabelRow } from './labels.js'
import type { MergeRequestRow } from './merge-requests.js'
import type { MilestoneRow } from './milestones.js'
import type { ProtectedTagRow } from './repository.js'

export interface ExportRow {
  id: number
  project_id: number
  user_id: number
  status: 'queued' | 'started' | 'finished' | 'failed'
  file: string | null
  file_name: string | null
  description: string | null
  upload_url: string | null
  upload_method: string | null
  error: string | null
  created_at: string
  updated_at: string
}

/** Project exports, one per project and user (GitLab's `ProjectExportJob` + `ImportExportUpload`). */
export function exportTable(db: Db) {
  const byUser = db.prepare('SELECT * FROM project_exports WHERE project_id = ? AND user_id = ?')
  const byId = db.prepare('SELECT * FROM project_exports WHERE id = ?')
  const upsert = db.prepare(
    `INSERT INTO project_exports (project_id, user_id, status, description, upload_url, upload_method, created_at, updated_at)
     VALUES (@project_id, @user_id, 'queued', @description, @upload_url, @upload_method, @now, @now)
     ON CONFLICT (project_id, user_id) DO UPDATE SET status = 'queued', description = excluded.description,
       upload_url = excluded.upload_url, upload_method = excluded.upload_method, error = NULL,
       updated_at = excluded.updated_at`,
  )
  // The pre-signed upload URL (signature included) is kept only while the export may still use it.
  const setStatus = db.prepare(
    `UPDATE project_exports SET status = ?, error = ?, updated_at = ?,
       upload_url = CASE WHEN ? IN ('finished', 'failed') THEN NULL ELSE upload_url END WHERE id = ?`,
  )
  const setFile = db.prepare(
    'UPDATE project_exports SET file = ?, file_name = ?, updated_at = ? WHERE id = ?',
  )
  const unfinished = db.prepare("SELECT * FROM project_exports WHERE status IN ('queued', 'started')")
  const files = db.prepare('SELECT file FROM project_exports WHERE file IS NOT NULL')
  return {
    byUser: (projectId: number, userId: number) => byUser.get(projectId, userId) as ExportRow | undefined,
    get: (id: number) => byId.get(id) as ExportRow | undefined,
    /** Queues the user's export (the row is reused: one per project and user); returns its id. */
    queue: (row: {
      project_id: number
      user_id: number
      description: string | null
      upload_url: string | null
      upload_method: string | null
      now: string
    }) => {
      upsert.run(row)
      return (byUser.get(row.project_id, row.user_id) as ExportRow).id
    },
    /** Sets the status; `finished` and `failed` also forget the upload URL. */
    setStatus: (id: number, status: ExportRow['status'], error: string | null, now: string) =>
      setStatus.run(status, error, now, status, id),
    setFile: (id: number, file: string | null, fileName: string | null, now: string) =>
      setFile.run(file, fileName, now, id),
    /** Exports a stopped server left queued or started. */
    unfinished: () => unfinished.all() as ExportRow[],
    /** Every archive file the table points at. */
    files: () => (files.pluck().all() as string[]).slice(),
  }
}

/** An issue as the exporter reads it: what its relations need, and the line's own fields as JSON. */
export interface IssueLine {
  id: number
  relativePosition: number | null
  milestoneId: number | null
  authorId: number
  createdAt: string
  totalTimeSpent: number
  /** The ids of its labels, by title (`"3,1"`), or null. */
  labelIds: string | null
  /** It has notes, timelogs, award emoji or assignees. */
  hasChildren: boolean
  /** The export line's own fields, a JSON object in GitLab's key order. */
  json: string
}

/** The columns of `ISSUE_LINE`, in SELECT order (read as arrays: see `issues`). */
type IssueLineColumns = [
  number,
  number | null,
  number | null,
  number,
  string,
  number,
  string | null,
  number,
  string,
]
const issueLine = ([
  id,
  position,
  milestone,
  author,
  created,
  spent,
  labels,
  children,
  json,
]: IssueLineColumns) => ({
  id,
  relativePosition: position,
  milestoneId: milestone,
  authorId: author,
  createdAt: created,
  totalTimeSpent: spent,
  labelIds: labels,
  hasChildren: children === 1,
  json,
})

/** The issue relations an import can fill without bound, read a page at a time (`children`, `childPage`). */
export type IssueChildTable = 'notes' | 'timelogs' | 'award_emoji'

/** A row of an `IssueChildTable`. */
export interface IssueChild {
  id: number
  issue_id: number
}

/** How much of a child table one read takes: rows, and characters of their text columns. */
export interface ChildBudget {
  rows: number
  chars: number
}

/** Characters in a row's text columns: what its size in memory grows with. */
function textLength(row: Record<string, unknown>): number {
  let n = 0
  for (const key in row) {
    const value = row[key]
    if (typeof value === 'string') n += value.length
  }
  return n
}

export interface ExportAssignee {
  issue_id: number
  user_id: number
  position: number
}
export interface ExportAwardEmoji {
  id: number
  issue_id: number
  user_id: number
  name: string
  created_at: string
}
/** A row of a resource-event table (`resource_state_events`, ...): its columns vary by table. */
export interface ExportResourceEvent {
  issue_id: number
  [column: string]: unknown
}
export interface ExportUser {
  id: number
  username: string
  name: string
  email: string
}
/** A direct member of the project or of one of its ancestor groups, highest level per user. */
export interface ExportMember {
  user_id: number
  access_level: number
  created_at: string
}

const bool = (column: string) => `json(CASE WHEN ${column} = 1 THEN 'true' ELSE 'false' END)`
/** The columns of IssueLineColumns; the JSON keys in the order of GitLab's `project.json` tree. */
const ISSUE_LINE = `id, relative_position, milestone_id, author_id, created_at, total_time_spent,
  (SELECT group_concat(il.label_id, ',' ORDER BY l.title, l.id) FROM issue_labels il
     JOIN labels l ON l.id = il.label_id WHERE il.issue_id = issues.id),
  EXISTS (SELECT 1 FROM notes WHERE issue_id = issues.id)
    OR EXISTS (SELECT 1 FROM timelogs WHERE issue_id = issues.id)
    OR EXISTS (SELECT 1 FROM award_emoji WHERE issue_id = issues.id)
    OR EXISTS (SELECT 1 FROM issue_assignees WHERE issue_id = issues.id),
  json_object('title', title, 'author_id', author_id, 'project_id', project_id,
    'created_at', created_at, 'updated_at', updated_at, 'description', description, 'iid', iid,
    'updated_by_id', NULL, 'confidential', ${bool('confidential')}, 'closed_at', closed_at,
    'closed_by_id', closed_by_id, 'due_date', due_date, 'lock_version', 0, 'weight', weight,
    'time_estimate', time_estimate, 'relative_position', relative_position, 'external_author', NULL,
    'last_edited_at', NULL, 'last_edited_by_id', NULL,
    'discussion_locked', CASE WHEN discussion_locked IS NULL THEN NULL ELSE ${bool('discussion_locked')} END,
    'health_status', health_status, 'state', state,
    'work_item_type', json_object('base_type', issue_type), 'events', json('[]'))`

/**
 * Read-only queries the exporter streams a project through: keyset batches (never a whole table at
 * once) and the children of one batch of issues. Tables that a migration has not created yet are
 * reported as empty, so the exporter writes what exists.
 */
export function exportReader(db: Db) {
  const tables = new Set(
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[],
  )
  const has = (table: string) => tables.has(table)
  const cache = new Map<string, Statement>()
  const stmt = (sql: string) => {
    let s = cache.get(sql)
    if (!s) cache.set(sql, (s = db.prepare(sql)))
    return s
  }
  const marks = (n: number) => Array(n).fill('?').join(',')
  const children = <T>(table: string, column: string, ids: number[], order = 'id') =>
    !has(table) || ids.length === 0
      ? []
      : (stmt(`SELECT * FROM ${table} WHERE ${column} IN (${marks(ids.length)}) ORDER BY ${order}`).all(
          ...ids,
        ) as T[])
  /** Rows of `table` in `project_id`, by id, after `afterId`. */
  const batch = <T>(table: string, projectId: number, afterId: number, limit: number) =>
    has(table)
      ? (stmt(`SELECT * FROM ${table} WHERE project_id = ? AND id > ? ORDER BY id LIMIT ?`).all(
          projectId,
          afterId,
          limit,
        ) as T[])
      : []
  /**
   * Rows of `table` for one issue (`issueIds` of one) or several, by issue then id, after `afterId`
   * (one issue only), until `budget` would be passed (`more`): at least one row, so a page moves on.
   */
  const childRows = <T extends IssueChild>(
    table: IssueChildTable,
    issueIds: number[],
    afterId: number,
    budget: ChildBudget,
  ): { rows: T[]; more: boolean } => {
    const rows: T[] = []
    if (!has(table) || issueIds.length === 0) return { rows, more: false }
    const sql =
      issueIds.length === 1
        ? `SELECT * FROM ${table} WHERE issue_id = ? AND id > ? ORDER BY id`
        : `SELECT * FROM ${table} WHERE issue_id IN (${marks(issueIds.length)}) ORDER BY issue_id, id`
    let chars = 0
    for (const row of stmt(sql).iterate(...(issueIds.length === 1 ? [issueIds[0], afterId] : issueIds))) {
      chars += textLength(row as Record<string, unknown>)
      if (rows.length > 0 && (rows.length >= budget.rows || chars > budget.chars)) return { rows, more: true }
      rows.push(row as T)
    }
    return { rows, more: false }
  }
  return {
    has,
    /**
     * The notes, timelogs or award emoji of a batch of issues, each issue's in id order, within
     * `budget`: `partial` holds the issues whose rows may not all have fit (an issue of a million
     * notes), for `childPage` to read a page at a time; every other issue's list is whole.
     */
    children: <T extends IssueChild>(table: IssueChildTable, issueIds: number[], budget: ChildBudget) => {
      const { rows, more } = childRows<T>(table, issueIds, 0, budget)
      const partial = new Set<number>()
      // The last issue read, and every later one, may have more rows than were read.
      const cut = more ? rows[rows.length - 1]!.issue_id : Infinity
      for (const id of issueIds) if (id >= cut) partial.add(id)
      const byIssue = new Map<number, T[]>()
      for (const r of rows) {
        if (r.issue_id >= cut) break
        const list = byIssue.get(r.issue_id)
        if (list) list.push(r)
        else byIssue.set(r.issue_id, [r])
      }
      return { byIssue, partial }
    },
    /** One issue's rows of `table` after `afterId`, by id, within `budget` (at least one row). */
    childPage: <T extends IssueChild>(
      table: IssueChildTable,
      issueId: number,
      afterId: number,
      budget: ChildBudget,
    ) => childRows<T>(table, [issueId], afterId, budget).rows,
    /** The project's labels, by id, after `afterId`. */
    labels: (projectId: number, afterId: number, limit: number) =>
      batch<LabelRow>('labels', projectId, afterId, limit),
    /** The project's milestones, by id, after `afterId`. */
    milestones: (projectId: number, afterId: number, limit: number) =>
      batch<MilestoneRow>('milestones', projectId, afterId, limit),
    /** The project's merge requests, by id, after `afterId`. */
    mergeRequests: (projectId: number, afterId: number, limit: number) =>
      batch<MergeRequestRow>('merge_requests', projectId, afterId, limit),
    /**
     * Issues by `relative_position` (nulls last), then id, after the key `[isNull, position, id]`
     * of the previous batch. Two seeks on `issues_by_project_position` (positioned issues, then
     * the unpositioned by id), so each batch costs its own rows, not a scan and sort of the project.
     * SQLite shapes the line's own fields as JSON, which is several times faster than reading every
     * column into an object and stringifying it; the few other columns come as an array.
     */
    issues: (projectId: number, after: [number, number, number], limit: number): IssueLine[] => {
      const [isNull, position, id] = after
      const positioned =
        isNull === 0
          ? (stmt(
              `SELECT ${ISSUE_LINE} FROM issues WHERE project_id = ? AND relative_position IS NOT NULL
                 AND (relative_position, id) > (?, ?) ORDER BY relative_position, id LIMIT ?`,
            )
              .raw()
              .all(projectId, position, id, limit) as IssueLineColumns[])
          : []
      if (positioned.length === limit) return positioned.map(issueLine)
      const unpositioned = stmt(
        `SELECT ${ISSUE_LINE} FROM issues WHERE project_id = ? AND relative_position IS NULL AND id > ?
         ORDER BY id LIMIT ?`,
      )
        .raw()
        .all(projectId, isNull === 0 ? 0 : id, limit - positioned.length) as IssueLineColumns[]
      return [...positioned, ...unpositioned].map(issueLine)
    },
    /** Assignees of the issues, by position (one per user: as many as the instance has users at most). */
    assignees: (issueIds: number[]) =>
      children<ExportAssignee>('issue_assignees', 'issue_id', issueIds, 'position'),
    /**
     * Resource events (`resource_state_events`, ...) of the issues, when the table exists. One probe
     * of the batch's id range comes first: most issues have none (a seeded or imported project), and
     * an index lookup per issue, table and batch made the export of 100,000 issues 15% slower.
     */
    events: (table: string, issueIds: number[]) =>
      has(table) &&
      issueIds.length > 0 &&
      stmt(`SELECT 1 FROM ${table} WHERE issue_id BETWEEN ? AND ? LIMIT 1`).get(
        Math.min(...issueIds),
        Math.max(...issueIds),
      )
        ? children<ExportResourceEvent>(table, 'issue_id', issueIds)
        : [],
    /** The project's branches and tags, by name. */
    refs: (projectId: number) =>
      stmt('SELECT kind, name, sha FROM project_refs WHERE project_id = ? ORDER BY kind, name').all(
        projectId,
      ) as { kind: 'branch' | 'tag'; name: string; sha: string }[],
    /** The project's annotated tags: the tag object each names (migration 22). */
    annotatedTags: (projectId: number) =>
      has('annotated_tags')
        ? (stmt('SELECT name, tag_sha FROM annotated_tags WHERE project_id = ?').all(projectId) as {
            name: string
            tag_sha: string
          }[])
        : [],
    /** The project's protected tags (migration 29), oldest first. */
    protectedTags: (projectId: number) =>
      has('protected_tags')
        ? (stmt('SELECT * FROM protected_tags WHERE project_id = ? ORDER BY id').all(
            projectId,
          ) as unknown as ProtectedTagRow[])
        : [],
    /** A git object behind a ref (migration 7), if the store has it. */
    gitObject: (sha: string) =>
      has('git_objects')
        ? gitObjectOf(
            stmt('SELECT sha, type, body FROM git_objects WHERE sha = ?').get(sha) as Parameters<
              typeof gitObjectOf
            >[0],
          )
        : undefined,
    milestone: (id: number) =>
      stmt('SELECT * FROM milestones WHERE id = ?').get(id) as MilestoneRow | undefined,
    label: (id: number) => stmt('SELECT * FROM labels WHERE id = ?').get(id) as LabelRow | undefined,
    user: (id: number) =>
      stmt('SELECT id, username, name, email FROM users WHERE id = ?').get(id) as ExportUser | undefined,
    /** Direct members of the project and of its ancestor groups, highest level per user. */
    members: (projectId: number, namespaceIds: number[]) =>
      stmt(
        `SELECT user_id, MAX(access_level) AS access_level, MIN(created_at) AS created_at FROM members
         WHERE (source_type = 'project' AND source_id = ?)
            OR (source_type = 'namespace' AND source_id IN (${marks(Math.max(namespaceIds.length, 1))}))
         GROUP BY user_id ORDER BY user_id`,
      ).all(projectId, ...(namespaceIds.length ? namespaceIds : [-1])) as ExportMember[],
  }
}
export type ExportReader = ReturnType<typeof exportReader>
