import type { Db } from './db.js'

/** A link of a project's job token allowlist (migration 49): a project or a group let in. */
export interface JobTokenLinkRow {
  id: number
  source_project_id: number
  /** The project or group let in. */
  target_id: number
  added_by_id: number | null
  created_at: string
}

/** Who adds a link, and when. */
export interface NewJobTokenLink {
  source_project_id: number
  target_id: number
  added_by_id: number | null
  created_at: string
}

/** One allowlist table: the projects (`target_project_id`) or the groups (`target_group_id`) let in. */
function linkTable(db: Db, table: string, target: string) {
  const SELECT = `SELECT id, source_project_id, ${target} AS target_id, added_by_id, created_at FROM ${table}`
  const insert = db.prepare(
    `INSERT OR IGNORE INTO ${table} (source_project_id, ${target}, added_by_id, created_at)
     VALUES (@source_project_id, @target_id, @added_by_id, @created_at)`,
  )
  const ofSource = db.prepare(`${SELECT} WHERE source_project_id = ? ORDER BY id`)
  const one = db.prepare(`${SELECT} WHERE source_project_id = ? AND ${target} = ?`)
  const anyOf = db.prepare(
    `SELECT 1 FROM ${table} WHERE source_project_id = ? AND ${target} IN (SELECT value FROM json_each(?)) LIMIT 1`,
  )
  const remove = db.prepare(`DELETE FROM ${table} WHERE source_project_id = ? AND ${target} = ?`)
  return {
    /** False when the link was there already (nothing written). */
    insert: (link: NewJobTokenLink) => insert.run({ ...link }).changes > 0,
    /** The links of one allowlist, oldest first (GitLab caps an allowlist at a few hundred). */
    ofSource: (sourceId: number) => ofSource.all(sourceId) as JobTokenLinkRow[],
    get: (sourceId: number, targetId: number) => one.get(sourceId, targetId) as JobTokenLinkRow | undefined,
    /** Whether the allowlist of `sourceId` holds any of `targetIds`. */
    holdsAny: (sourceId: number, targetIds: readonly number[]) =>
      targetIds.length > 0 && anyOf.get(sourceId, JSON.stringify(targetIds)) !== undefined,
    remove: (sourceId: number, targetId: number) => remove.run(sourceId, targetId).changes > 0,
  }
}

/**
 * The CI/CD job token scope of projects (GitLab's `Ci::JobToken::ProjectScopeLink` inbound,
 * `Ci::JobToken::GroupScopeLink`, and the project's `ci_inbound_job_token_scope_enabled`, true when
 * no row says otherwise).
 */
export function jobTokenScopeTable(db: Db) {
  const inbound = db.prepare('SELECT inbound_enabled FROM ci_job_token_scopes WHERE project_id = ?').pluck()
  const setInbound = db.prepare(
    `INSERT INTO ci_job_token_scopes (project_id, inbound_enabled) VALUES (?, ?)
     ON CONFLICT (project_id) DO UPDATE SET inbound_enabled = excluded.inbound_enabled`,
  )
  return {
    inboundEnabled: (projectId: number) => (inbound.get(projectId) ?? 1) === 1,
    setInboundEnabled: (projectId: number, enabled: boolean) => setInbound.run(projectId, enabled ? 1 : 0),
    /** The projects let in, by the allowlist's project. */
    projects: linkTable(db, 'ci_job_token_project_scope_links', 'target_project_id'),
    /** The groups let in (with the projects below them), by the allowlist's project. */
    groups: linkTable(db, 'ci_job_token_group_scope_links', 'target_group_id'),
  }
}
export type JobTokenScopeTable = ReturnType<typeof jobTokenScopeTable>
