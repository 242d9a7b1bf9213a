import type { Db } from './db.js'
import { rowCache } from './row-cache.js'

export interface ProjectRow {
  id: number
  namespace_id: number
  path: string
  full_path: string
  name: string
  description: string | null
  visibility: string
  archived: number
  default_branch: string | null
  creator_id: number | null
  ci_config: number
  ci_jobs: string
  ci_outcome: string
  ci_job_duration_ms: number
  created_at: string
  last_activity_at: string
}

/** `Event::RESET_PROJECT_ACTIVITY_INTERVAL`: how stale `last_activity_at` gets before an event moves it. */
const ACTIVITY_INTERVAL_MS = 60 * 60 * 1000

export type NewProject = Omit<ProjectRow, 'id'>
export type RefKind = 'branch' | 'tag'

/**
 * The projects table and their refs (branches and tags that exist). `version`: changes.ts
 * `structureVersion`; reads by id and path are remembered while it stays (`touch`, which issue
 * writes run, drops the project's when it moves its `last_activity_at`).
 */
export function projectTable(db: Db, version: () => number) {
  const insert = db.prepare(
    `INSERT INTO projects (namespace_id, path, full_path, name, description, visibility, archived, default_branch,
       creator_id, ci_config, ci_jobs, ci_outcome, ci_job_duration_ms, created_at, last_activity_at)
     VALUES (@namespace_id, @path, @full_path, @name, @description, @visibility, @archived, @default_branch,
       @creator_id, @ci_config, @ci_jobs, @ci_outcome, @ci_job_duration_ms, @created_at, @last_activity_at)`,
  )
  const byId = db.prepare('SELECT * FROM projects WHERE id = ?')
  const byPath = db.prepare('SELECT * FROM projects WHERE full_path = ?')
  const all = db.prepare('SELECT * FROM projects')
  const inNamespace = db.prepare('SELECT * FROM projects WHERE namespace_id = ?')
  const insertRef = db.prepare(
    'INSERT OR IGNORE INTO project_refs (project_id, kind, name, sha) VALUES (?, ?, ?, ?)',
  )
  const touch = db.prepare('UPDATE projects SET last_activity_at = ? WHERE id = ?')
  const openIssues = db.prepare("SELECT COUNT(*) AS n FROM issues WHERE project_id = ? AND state = 'opened'")
  const get = rowCache(version, (id: number) => byId.get(id) as ProjectRow | undefined)
  const getByPath = rowCache(version, (fullPath: string) => byPath.get(fullPath) as ProjectRow | undefined)
  return {
    insert: (p: NewProject) => Number(insert.run(p).lastInsertRowid),
    get,
    byPath: getByPath,
    all: () => all.all() as ProjectRow[],
    /** The projects directly in one namespace. */
    inNamespace: (namespaceId: number) => inNamespace.all(namespaceId) as ProjectRow[],
    addRef: (projectId: number, kind: RefKind, name: string, sha: string) =>
      insertRef.run(projectId, kind, name, sha),
    /**
     * Activity in the project at `now` (issue writes, moves, comments). GitLab moves
     * `last_activity_at` from events, and only when it is older than an hour
     * (`Event#reset_project_activity`, `RESET_PROJECT_ACTIVITY_INTERVAL`, app/models/event.rb): writes
     * in a row leave the project's row, and the caches holding it, as they are.
     */
    touch: (projectId: number, now: string) => {
      const last = get(projectId)?.last_activity_at
      if (last && Date.parse(last) > Date.parse(now) - ACTIVITY_INTERVAL_MS) return
      touch.run(now, projectId)
      const touched = (p: ProjectRow) => p.id === projectId
      get.forget(touched)
      getByPath.forget(touched)
    },
    openIssuesCount: (projectId: number) => (openIssues.get(projectId) as { n: number }).n,
  }
}
