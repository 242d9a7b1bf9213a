import type { Db } from './db.js'
import type { TokenDigest } from './token-digests.js'

export interface TriggerRow {
  id: number
  project_id: number
  owner_id: number | null
  description: string
  token_digest: string
  token_hint: string
  token_encrypted: string
  created_at: string
  updated_at: string
  expires_at: string | null
  /** `created_at` of the newest pipeline this trigger started (GitLab's `last_used`). */
  last_used: string | null
}

export interface NewTrigger {
  project_id: number
  owner_id: number | null
  description: string
  /** The plain token: kept only as its digest (lookups) and the caller's sealed copy. */
  token: string
  token_hint: string
  token_encrypted: string
  created_at: string
}

const SELECT = `SELECT t.*, (SELECT MAX(p.created_at) FROM pipelines p WHERE p.trigger_id = t.id) AS last_used
  FROM triggers t`

/** Pipeline trigger tokens of projects (GitLab's doc/api/pipeline_triggers.md); tokens are stored as digests and sealed copies. */
export function triggerTable(db: Db, tokenDigest: TokenDigest) {
  const insert = db.prepare(
    `INSERT INTO triggers (project_id, owner_id, description, token_digest, token_hint, token_encrypted, created_at, updated_at)
     VALUES (@project_id, @owner_id, @description, @token_digest, @token_hint, @token_encrypted, @created_at, @created_at)`,
  )
  const ofProject = db.prepare(`${SELECT} WHERE t.project_id = ? ORDER BY t.id LIMIT ? OFFSET ?`)
  const count = db.prepare('SELECT COUNT(*) FROM triggers WHERE project_id = ?').pluck()
  const byId = db.prepare(`${SELECT} WHERE t.project_id = ? AND t.id = ?`)
  const byDigest = db.prepare(`${SELECT} WHERE t.token_digest = ?`)
  const update = db.prepare('UPDATE triggers SET description = ?, updated_at = ? WHERE id = ?')
  const remove = db.prepare('DELETE FROM triggers WHERE id = ?')
  return {
    insert: ({ token, ...row }: NewTrigger) =>
      Number(insert.run({ ...row, token_digest: tokenDigest(token) }).lastInsertRowid),
    ofProject: (projectId: number, limit: number, offset: number) =>
      ofProject.all(projectId, limit, offset) as TriggerRow[],
    count: (projectId: number) => count.get(projectId) as number,
    get: (projectId: number, id: number) => byId.get(projectId, id) as TriggerRow | undefined,
    /** The trigger a plain token belongs to, in any project. */
    byToken: (token: string) => byDigest.get(tokenDigest(token)) as TriggerRow | undefined,
    update: (id: number, description: string, now: string) => update.run(description, now, id),
    remove: (id: number) => remove.run(id),
  }
}
export type TriggerTable = ReturnType<typeof triggerTable>
