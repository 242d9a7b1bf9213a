import type { Db } from './db.js'

/** One event (migration 41), with its push payload's columns when it is a push. */
export interface EventRow {
  id: number
  project_id: number
  author_id: number
  action: number
  /** The target's class; a comment on a commit's is ours (`CommitNote`, domain/event-actions.ts). */
  target_type: string | null
  target_id: number | null
  created_at: string
  commit_count: number | null
  push_action: string | null
  ref_type: string | null
  commit_from: string | null
  commit_to: string | null
  ref: string | null
  commit_title: string | null
  ref_count: number | null
}
export type NewEvent = Pick<
  EventRow,
  'project_id' | 'author_id' | 'action' | 'target_type' | 'target_id' | 'created_at'
>

/** `PushEventPayload`'s columns. */
export interface NewPushPayload {
  commit_count: number
  action: 'created' | 'removed' | 'pushed'
  ref_type: 'branch' | 'tag'
  commit_from: string | null
  commit_to: string | null
  ref: string
  commit_title: string | null
}

/** The filters of an event list; `undefined` filters nothing. */
export interface EventFilter {
  authorId?: number
  /** Only these projects' events (a project's list, or the projects the caller may see). */
  projectIds?: number[]
  action?: number
  /** The stored target types to match (`Note` matches comments on issues and on commits). */
  targetTypes?: string[]
  /** With `targetTypes`, also the events of these actions that have no target (GitLab's `for_project` scope). */
  untargetedActions?: readonly number[]
  /** `created_at` strictly before / after these timestamps. */
  before?: string
  after?: string
  sort: 'asc' | 'desc'
}

function where(f: EventFilter): { sql: string; args: (string | number)[] } {
  const parts: string[] = []
  const args: (string | number)[] = []
  const add = (sql: string, value: string | number | undefined, ...more: (string | number)[]) => {
    if (value === undefined) return
    parts.push(sql)
    args.push(value, ...more)
  }
  add('e.author_id = ?', f.authorId)
  if (f.projectIds) add('e.project_id IN (SELECT value FROM json_each(?))', JSON.stringify(f.projectIds))
  add('e.action = ?', f.action)
  const types = f.targetTypes && JSON.stringify(f.targetTypes)
  if (f.untargetedActions)
    add(
      `(e.target_type IN (SELECT value FROM json_each(?))
        OR (e.target_type IS NULL AND e.action IN (SELECT value FROM json_each(?))))`,
      types,
      JSON.stringify(f.untargetedActions),
    )
  else add('e.target_type IN (SELECT value FROM json_each(?))', types)
  add('e.created_at < ?', f.before)
  add('e.created_at > ?', f.after)
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args }
}

/** Events and their push payloads: rows in and out, no rules. */
export function eventTable(db: Db) {
  // Bound by position: an issue created or closed, or a comment, records one, and node:sqlite
  // matches named parameters by name on every run.
  const insertRow = db.prepare(
    `INSERT INTO events (project_id, author_id, action, target_type, target_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  )
  const insert = (e: NewEvent) =>
    Number(
      insertRow.run(e.project_id, e.author_id, e.action, e.target_type, e.target_id, e.created_at)
        .lastInsertRowid,
    )
  const insertPayload = db.prepare(
    `INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type, commit_from, commit_to, ref,
       commit_title) VALUES (@event_id, @commit_count, @action, @ref_type, @commit_from, @commit_to, @ref,
       @commit_title)`,
  )
  return {
    insert,
    insertPush: (e: NewEvent, p: NewPushPayload) =>
      db.transaction(() => {
        const id = insert(e)
        insertPayload.run({ event_id: id, ...p })
        return id
      }),
    /** How many events the filter matches, counting no further than `limit`. */
    count: (f: EventFilter, limit: number) => {
      const w = where(f)
      return db
        .prepare(`SELECT COUNT(*) FROM (SELECT 1 FROM events e ${w.sql} LIMIT ?)`)
        .pluck()
        .get(...w.args, limit) as number
    },
    page: (f: EventFilter, limit: number, offset: number) => {
      const w = where(f)
      return db
        .prepare(
          `SELECT e.*, p.commit_count, p.action AS push_action, p.ref_type, p.commit_from, p.commit_to, p.ref,
             p.commit_title, p.ref_count
           FROM events e LEFT JOIN push_event_payloads p ON p.event_id = e.id ${w.sql}
           ORDER BY e.id ${f.sort === 'asc' ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`,
        )
        .all(...w.args, limit, offset) as EventRow[]
    },
  }
}
export type EventTable = ReturnType<typeof eventTable>
