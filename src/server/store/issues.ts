import type { Db, Statement } from './db.js'
import { rowCache } from './row-cache.js'

export interface IssueRow {
  id: number
  iid: number
  project_id: number
  title: string
  description: string | null
  state: 'opened' | 'closed'
  author_id: number
  closed_by_id: number | null
  closed_at: string | null
  created_at: string
  updated_at: string
  milestone_id: number | null
  epic_id: number | null
  confidential: number
  discussion_locked: number | null
  issue_type: string
  due_date: string | null
  time_estimate: number
  total_time_spent: number
  relative_position: number | null
  moved_to_id: number | null
  duplicated_to_id: number | null
  upvotes: number
  downvotes: number
  user_notes_count: number
  weight: number | null
  health_status: string | null
  severity: string
  tasks_total: number
  tasks_done: number
  imported_from: string
  service_desk_reply_to: string | null
  user_agent: string | null
  ip_address: string | null
}

/**
 * The columns that decide who may read an issue, and its time stats: what a read answered from
 * kept JSON, and `time_stats`, need of the row (a whole row is 36 columns to copy into an object).
 */
export type IssueAccessRow = Pick<
  IssueRow,
  'id' | 'project_id' | 'confidential' | 'author_id' | 'time_estimate' | 'total_time_spent'
>

export type IssueStateRow = Pick<IssueRow, 'id' | 'project_id' | 'state'>

/** Columns a create may set, in the order the insert binds them; the rest take their defaults. */
const newIssueColumns = [
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'author_id',
  'created_at',
  'updated_at',
  'milestone_id',
  'epic_id',
  'confidential',
  'discussion_locked',
  'issue_type',
  'due_date',
  'time_estimate',
  'total_time_spent',
  'weight',
  'tasks_total',
  'tasks_done',
  'relative_position',
  'closed_at',
  'closed_by_id',
  'user_agent',
  'ip_address',
] as const satisfies readonly (keyof IssueRow)[]

export type NewIssue = Pick<IssueRow, (typeof newIssueColumns)[number]>

/** Columns an edit may change. */
export type IssueChanges = Partial<Omit<IssueRow, 'id' | 'iid' | 'project_id' | 'author_id'>>

const editable = new Set<string>([
  'title',
  'description',
  'state',
  'closed_by_id',
  'closed_at',
  'created_at',
  'updated_at',
  'milestone_id',
  'epic_id',
  'confidential',
  'discussion_locked',
  'issue_type',
  'due_date',
  'time_estimate',
  'total_time_spent',
  'relative_position',
  'moved_to_id',
  'duplicated_to_id',
  'weight',
  'health_status',
  'severity',
  'tasks_total',
  'tasks_done',
])

const placeholders = (n: number) => Array(n).fill('?').join(',')

/**
 * The issues table with its assignee, label and subscription links. `version`: changes.ts
 * `structureVersion`, which every merge request link moves (no issue write makes one).
 */
export function issueTable(db: Db, version: () => number) {
  // Bound by position: node:sqlite matches named parameters by name on every run, which cost a
  // seed of 1,000 issues (and an import's issue lines) more than the insert itself.
  const insert = db.prepare(
    `INSERT INTO issues (${newIssueColumns.join(', ')}) VALUES (${placeholders(newIssueColumns.length)})`,
  )
  const nextIid = db.prepare('SELECT COALESCE(MAX(iid), 0) + 1 AS iid FROM issues WHERE project_id = ?')
  const byIid = db.prepare('SELECT * FROM issues WHERE project_id = ? AND iid = ?')
  const accessByIid = db.prepare(
    'SELECT id, project_id, confidential, author_id, time_estimate, total_time_spent FROM issues WHERE project_id = ? AND iid = ?',
  )
  const stateByIid = db.prepare('SELECT id, project_id, state FROM issues WHERE project_id = ? AND iid = ?')
  const iidTaken = db.prepare('SELECT 1 FROM issues WHERE project_id = ? AND iid = ?').pluck()
  const titles = db.prepare('SELECT title, iid FROM issues WHERE project_id = ? ORDER BY iid DESC')
  const byId = db.prepare('SELECT * FROM issues WHERE id = ?')
  const remove = db.prepare('DELETE FROM issues WHERE id = ?')
  const maxPosition = db.prepare('SELECT MAX(relative_position) AS p FROM issues WHERE project_id = ?')
  const clearAssignees = db.prepare('DELETE FROM issue_assignees WHERE issue_id = ?')
  const addAssignee = db.prepare(
    'INSERT OR IGNORE INTO issue_assignees (issue_id, user_id, position) VALUES (?, ?, ?)',
  )
  const clearLabels = db.prepare('DELETE FROM issue_labels WHERE issue_id = ?')
  const addLabel = db.prepare('INSERT OR IGNORE INTO issue_labels (issue_id, label_id) VALUES (?, ?)')
  const removeLabel = db.prepare('DELETE FROM issue_labels WHERE issue_id = ? AND label_id = ?')
  const subscription = db.prepare('SELECT subscribed FROM subscriptions WHERE issue_id = ? AND user_id = ?')
  const subscribe = db.prepare(
    `INSERT INTO subscriptions (issue_id, user_id, subscribed) VALUES (?, ?, ?)
     ON CONFLICT (issue_id, user_id) DO UPDATE SET subscribed = excluded.subscribed`,
  )
  const anyClosing = db.prepare('SELECT 1 FROM merge_request_issues WHERE closes = 1 LIMIT 1')
  // Every issue presented counts the merge requests that close it; most stores have none at all.
  const closing = rowCache(version, (_: 0) => ({ any: anyClosing.get() !== undefined }), 1)
  const addAssignees = (issueId: number, userIds: number[]) =>
    userIds.forEach((userId, position) => addAssignee.run(issueId, userId, position))
  const addLabels = (issueId: number, labelIds: number[]) => {
    for (const labelId of labelIds) addLabel.run(issueId, labelId)
  }
  const many = new Map<string, Statement>()
  const updates = new Map<string, Statement>()
  const manyStmt = (key: string, n: number, sql: (p: string) => string) => {
    let stmt = many.get(`${key}:${n}`)
    if (!stmt) many.set(`${key}:${n}`, (stmt = db.prepare(sql(placeholders(n)))))
    return stmt
  }
  return {
    nextIid: (projectId: number) => (nextIid.get(projectId) as { iid: number }).iid,
    insert: (issue: NewIssue) =>
      Number(insert.run(...newIssueColumns.map((column) => issue[column])).lastInsertRowid),
    byIid: (projectId: number, iid: number) => byIid.get(projectId, iid) as IssueRow | undefined,
    accessByIid: (projectId: number, iid: number) =>
      accessByIid.get(projectId, iid) as IssueAccessRow | undefined,
    /** The issue's state alone (a whole row's columns cost more to read than the lookup). */
    stateByIid: (projectId: number, iid: number) =>
      stateByIid.get(projectId, iid) as IssueStateRow | undefined,
    /** Whether the project has an issue numbered `iid`. */
    iidTaken: (projectId: number, iid: number) => iidTaken.get(projectId, iid) !== undefined,
    /** Each title of the project's issues with the first iid that has it (a seed added later must not repeat one). */
    iidsByTitle: (projectId: number) =>
      new Map((titles.all(projectId) as { title: string; iid: number }[]).map((r) => [r.title, r.iid])),
    get: (id: number) => byId.get(id) as IssueRow | undefined,
    /** Rows by id, in the order of `ids`. */
    getMany: (ids: number[]): IssueRow[] => {
      if (ids.length === 0) return []
      const rows = manyStmt('rows', ids.length, (p) => `SELECT * FROM issues WHERE id IN (${p})`).all(
        ...ids,
      ) as IssueRow[]
      const byKey = new Map(rows.map((r) => [r.id, r]))
      return ids.map((id) => byKey.get(id)).filter((r): r is IssueRow => r !== undefined)
    },
    update: (id: number, changes: IssueChanges) => {
      const keys = Object.keys(changes).filter((k) => editable.has(k))
      if (keys.length === 0) return
      // One statement per set of columns, bound by position (see `insert`): preparing it on every
      // edit cost about as much as the UPDATE itself.
      let stmt = updates.get(keys.join(','))
      if (!stmt) {
        if (updates.size > 200) updates.clear()
        stmt = db.prepare(`UPDATE issues SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`)
        updates.set(keys.join(','), stmt)
      }
      stmt.run(...keys.map((k) => changes[k as keyof IssueChanges]), id)
    },
    remove: (id: number) => remove.run(id),
    maxPosition: (projectId: number) => (maxPosition.get(projectId) as { p: number | null }).p,
    setAssignees: (issueId: number, userIds: number[]) => {
      clearAssignees.run(issueId)
      addAssignees(issueId, userIds)
    },
    setLabels: (issueId: number, labelIds: number[]) => {
      clearLabels.run(issueId)
      addLabels(issueId, labelIds)
    },
    /** `setAssignees` of an issue that has none yet (a new one): nothing to clear. */
    addAssignees,
    /** `setLabels` of an issue that has none yet (a new one): nothing to clear. */
    addLabels,
    /** `setLabels` of an issue whose labels are `current`: only the difference is written. */
    changeLabels: (issueId: number, current: number[], labelIds: number[]) => {
      for (const labelId of current) if (!labelIds.includes(labelId)) removeLabel.run(issueId, labelId)
      addLabels(
        issueId,
        labelIds.filter((labelId) => !current.includes(labelId)),
      )
    },
    /** `[issue_id, user_id]` pairs, in assignment order. */
    assigneesOf: (issueIds: number[]) =>
      issueIds.length === 0
        ? []
        : (manyStmt(
            'assignees',
            issueIds.length,
            (p) => `SELECT issue_id, user_id FROM issue_assignees WHERE issue_id IN (${p}) ORDER BY position`,
          ).all(...issueIds) as { issue_id: number; user_id: number }[]),
    /**
     * `merge_requests_count`: the merge requests that close each issue, not those that mention it
     * (`MergeRequestsClosingIssues.count_for_collection`, lib/gitlab/issuable_metadata.rb).
     */
    mergeRequestCounts: (issueIds: number[]) =>
      issueIds.length === 0 || !closing(0)?.any
        ? []
        : (manyStmt(
            'mrs',
            issueIds.length,
            (p) =>
              `SELECT issue_id, COUNT(*) AS n FROM merge_request_issues WHERE closes = 1 AND issue_id IN (${p}) GROUP BY issue_id`,
          ).all(...issueIds) as { issue_id: number; n: number }[]),
    subscription: (issueId: number, userId: number) =>
      subscription.get(issueId, userId) as { subscribed: number } | undefined,
    setSubscription: (issueId: number, userId: number, subscribed: boolean) =>
      subscribe.run(issueId, userId, subscribed ? 1 : 0),
  }
}
