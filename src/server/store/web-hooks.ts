import type { Db } from './db.js'
import { rowCache } from './row-cache.js'

/** The event switches a hook has (`app/models/hooks/project_hook.rb`'s triggers that the server makes). */
export const HOOK_EVENTS = [
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'job_events',
  'tag_push_events',
  'deployment_events',
] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

export interface WebHookRow extends Record<HookEvent, number> {
  id: number
  project_id: number | null
  group_id: number | null
  url: string
  token_encrypted: string | null
  name: string | null
  description: string | null
  enable_ssl_verification: number
  /** Branches whose pushes a push hook hears (migration 26); null or empty: all. */
  push_events_branch_filter: string | null
  /** How the filter reads: `wildcard`, `regex` or `all_branches`. */
  branch_filter_strategy: string
  recent_failures: number
  disabled_until: string | null
  created_at: string
}

/** What a create or an edit writes (every column but the id and the owner). */
export type WebHookFields = Omit<
  WebHookRow,
  'id' | 'project_id' | 'group_id' | 'recent_failures' | 'disabled_until'
>

export interface WebHookLogRow {
  id: number
  web_hook_id: number
  trigger: string
  url: string
  /** JSON objects and the JSON payload, as they were sent and received. */
  request_headers: string
  request_data: string
  response_headers: string
  response_body: string
  /** The HTTP status as text, or `internal error` (GitLab's `WebHookService::InternalErrorResponse`). */
  response_status: string
  /** Seconds. */
  execution_duration: number
  internal_error_message: string | null
  created_at: string
}
export type NewWebHookLog = Omit<WebHookLogRow, 'id'>

/** Which deliveries of a hook a list shows: made since `since`, of any of these statuses (none: all). */
export interface LogFilter {
  since: string
  /** Exact `response_status` values (`404`, `internal error`). */
  codes: string[]
  /** Inclusive ranges of HTTP statuses. */
  ranges: [number, number][]
}

const COLUMNS = `url, token_encrypted, name, description, ${HOOK_EVENTS.join(', ')}, enable_ssl_verification, push_events_branch_filter, branch_filter_strategy, created_at`
const PARAMS = COLUMNS.split(', ')
  .map((c) => `@${c}`)
  .join(', ')

/**
 * Project and group webhooks and their delivery log (migration 020); rows in and out, no rules.
 * `version`: changes.ts `structureVersion`, which no issue write moves and every hook write does.
 */
export function webHookTable(db: Db, version: () => number) {
  const insert = db.prepare(
    `INSERT INTO web_hooks (project_id, group_id, ${COLUMNS}) VALUES (@project_id, @group_id, ${PARAMS})`,
  )
  const update = db.prepare(
    `UPDATE web_hooks SET ${PARAMS.split(', ')
      .filter((p) => p !== '@created_at')
      .map((p) => `${p.slice(1)} = ${p}`)
      .join(', ')} WHERE id = @id`,
  )
  const ofProject = db.prepare('SELECT * FROM web_hooks WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?')
  const countProject = db.prepare('SELECT COUNT(*) FROM web_hooks WHERE project_id = ?').pluck()
  const ofGroup = db.prepare('SELECT * FROM web_hooks WHERE group_id = ? ORDER BY id LIMIT ? OFFSET ?')
  const countGroup = db.prepare('SELECT COUNT(*) FROM web_hooks WHERE group_id = ?').pluck()
  const byId = db.prepare('SELECT * FROM web_hooks WHERE id = ?')
  // A project's hooks and those of the groups above it (`Project#hooks_for` with GroupHook, EE).
  const forProject = db.prepare(
    `SELECT * FROM web_hooks WHERE project_id = ?
     OR group_id IN (WITH RECURSIVE up(id) AS (SELECT namespace_id FROM projects WHERE id = ?
       UNION SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)
       SELECT id FROM up)
     ORDER BY id`,
  )
  const anyHook = db.prepare('SELECT EXISTS (SELECT 1 FROM web_hooks)').pluck()
  // Asked after every issue write; most stores have no hook, and only a hook write changes that.
  const any = rowCache(version, (_: 0) => ({ yes: anyHook.get() === 1 }), 1)
  const remove = db.prepare('DELETE FROM web_hooks WHERE id = ?')
  const setFailures = db.prepare('UPDATE web_hooks SET recent_failures = ?, disabled_until = ? WHERE id = ?')
  const insertLog = db.prepare(
    `INSERT INTO web_hook_logs (web_hook_id, trigger, url, request_headers, request_data, response_headers,
       response_body, response_status, execution_duration, internal_error_message, created_at)
     VALUES (@web_hook_id, @trigger, @url, @request_headers, @request_data, @response_headers, @response_body,
       @response_status, @execution_duration, @internal_error_message, @created_at)`,
  )
  /** The WHERE of a hook's deliveries since a time, of some statuses (codes, ranges, `internal error`). */
  const logWhere = (f: LogFilter) => {
    const parts = [
      ...f.codes.map(() => 'response_status = ?'),
      ...f.ranges.map(() => 'CAST(response_status AS INTEGER) BETWEEN ? AND ?'),
    ]
    const statuses = parts.length > 0 ? ` AND (${parts.join(' OR ')})` : ''
    return { sql: `web_hook_id = ? AND created_at >= ?${statuses}`, args: [...f.codes, ...f.ranges.flat()] }
  }
  // What `TestHooks::ProjectService` sends a test of: the project's first issue or note, newest pipeline, first job.
  const sampleIssue = db.prepare('SELECT id FROM issues WHERE project_id = ? ORDER BY id LIMIT 1').pluck()
  const sampleNote = db
    .prepare(
      'SELECT n.id FROM notes n JOIN issues i ON i.id = n.issue_id WHERE i.project_id = ? ORDER BY n.id LIMIT 1',
    )
    .pluck()
  const samplePipeline = db
    .prepare('SELECT id FROM pipelines WHERE project_id = ? ORDER BY id DESC LIMIT 1')
    .pluck()
  const sampleJob = db
    .prepare(
      'SELECT j.id FROM ci_builds j JOIN pipelines p ON p.id = j.pipeline_id WHERE p.project_id = ? ORDER BY j.id LIMIT 1',
    )
    .pluck()
  // The emulator page: every hook with its owner's path, and the newest deliveries of all.
  const overview = db.prepare(
    `SELECT h.*, COALESCE(p.full_path, n.full_path) AS owner_path FROM web_hooks h
     LEFT JOIN projects p ON p.id = h.project_id LEFT JOIN namespaces n ON n.id = h.group_id
     ORDER BY h.id LIMIT ?`,
  )
  const recentLogs = db.prepare('SELECT * FROM web_hook_logs ORDER BY id DESC LIMIT ?')
  return {
    /** The first `limit` hooks of the instance, with the full path of their project or group. */
    overview: (limit: number) => overview.all(limit) as (WebHookRow & { owner_path: string })[],
    /** The newest `limit` deliveries of every hook. */
    recentLogs: (limit: number) => recentLogs.all(limit) as WebHookLogRow[],
    sampleIssueId: (projectId: number) => sampleIssue.get(projectId) as number | undefined,
    sampleNoteId: (projectId: number) => sampleNote.get(projectId) as number | undefined,
    samplePipelineId: (projectId: number) => samplePipeline.get(projectId) as number | undefined,
    sampleJobId: (projectId: number) => sampleJob.get(projectId) as number | undefined,
    insert: (owner: { project_id: number | null; group_id: number | null }, fields: WebHookFields) =>
      Number(insert.run({ ...owner, ...fields }).lastInsertRowid),
    update: (id: number, fields: Omit<WebHookFields, 'created_at'>) => update.run({ ...fields, id }),
    get: (id: number) => byId.get(id) as WebHookRow | undefined,
    ofProject: (projectId: number, limit: number, offset: number) =>
      ofProject.all(projectId, limit, offset) as WebHookRow[],
    countOfProject: (projectId: number) => countProject.get(projectId) as number,
    ofGroup: (groupId: number, limit: number, offset: number) =>
      ofGroup.all(groupId, limit, offset) as WebHookRow[],
    countOfGroup: (groupId: number) => countGroup.get(groupId) as number,
    /** Hooks an event of the project reaches: its own, then its groups' (ancestors included). */
    forProject: (projectId: number) => forProject.all(projectId, projectId) as WebHookRow[],
    /** True when the instance has a hook at all (most have none: events then cost one lookup). */
    any: () => any(0)?.yes === true,
    remove: (id: number) => remove.run(id),
    setFailures: (id: number, recentFailures: number, disabledUntil: string | null) =>
      setFailures.run(recentFailures, disabledUntil, id),
    insertLog: (row: NewWebHookLog) => Number(insertLog.run({ ...row }).lastInsertRowid),
    /** Newest first, as `WebHooks::WebHookLogsFinder` orders them (a filter's statements are made per call). */
    logs: (hookId: number, f: LogFilter, limit: number, offset: number) => {
      const { sql, args } = logWhere(f)
      return db
        .prepare(`SELECT * FROM web_hook_logs WHERE ${sql} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .all(hookId, f.since, ...args, limit, offset) as WebHookLogRow[]
    },
    countLogs: (hookId: number, f: LogFilter) => {
      const { sql, args } = logWhere(f)
      return db
        .prepare(`SELECT COUNT(*) FROM web_hook_logs WHERE ${sql}`)
        .pluck()
        .get(hookId, f.since, ...args) as number
    },
  }
}
export type WebHookTable = ReturnType<typeof webHookTable>
