import type { Db } from './db.js'
import type { TokenDigest } from './token-digests.js'

/** Whose registration token: the instance's, a project's or a group's. */
export type RunnerScope =
  { kind: 'instance' } | { kind: 'project'; id: number } | { kind: 'group'; id: number }

export interface RegistrationTokenRow {
  scope: string
  project_id: number | null
  namespace_id: number | null
  token_digest: string
  created_at: string
}

export interface NewRunner {
  runner_type: 'instance_type' | 'group_type' | 'project_type'
  project_id: number | null
  namespace_id: number | null
  /** The plain authentication token: kept only as its digest. */
  token: string
  description: string | null
  name: string | null
  maintenance_note: string | null
  active: boolean
  locked: boolean
  run_untagged: boolean
  access_level: string
  maximum_timeout: number | null
  tag_list: string[]
  created_at: string
}

const scopeKey = (scope: RunnerScope) =>
  scope.kind === 'instance' ? 'instance' : `${scope.kind}:${scope.id}`

/** Runner registration tokens (digests only) and the runners registered with them (migration 5). */
export function runnerTable(db: Db, tokenDigest: TokenDigest) {
  const upsertToken = db.prepare(
    `INSERT INTO runner_registration_tokens (scope, project_id, namespace_id, token_digest, created_at)
     VALUES (@scope, @project_id, @namespace_id, @token_digest, @created_at)
     ON CONFLICT (scope) DO UPDATE SET token_digest = excluded.token_digest, created_at = excluded.created_at`,
  )
  const tokenOf = db.prepare('SELECT * FROM runner_registration_tokens WHERE scope = ?')
  const tokenByDigest = db.prepare('SELECT * FROM runner_registration_tokens WHERE token_digest = ?')
  const insertRunner = db.prepare(
    `INSERT INTO ci_runners (runner_type, project_id, namespace_id, token_digest, description, name, maintenance_note,
       active, locked, run_untagged, access_level, maximum_timeout, tag_list, created_at)
     VALUES (@runner_type, @project_id, @namespace_id, @token_digest, @description, @name, @maintenance_note,
       @active, @locked, @run_untagged, @access_level, @maximum_timeout, @tag_list, @created_at)`,
  )
  const count = db.prepare('SELECT COUNT(*) FROM ci_runners').pluck()
  return {
    /** Replaces the scope's registration token with `token` (stored as its digest). */
    setRegistrationToken(scope: RunnerScope, token: string, now: string): void {
      upsertToken.run({
        scope: scopeKey(scope),
        project_id: scope.kind === 'project' ? scope.id : null,
        namespace_id: scope.kind === 'group' ? scope.id : null,
        token_digest: tokenDigest(token),
        created_at: now,
      })
    },
    registrationToken: (scope: RunnerScope) =>
      tokenOf.get(scopeKey(scope)) as RegistrationTokenRow | undefined,
    /** The registration token a plain token is, in any scope. */
    byRegistrationToken: (token: string) =>
      tokenByDigest.get(tokenDigest(token)) as RegistrationTokenRow | undefined,
    insertRunner: ({ token, active, locked, run_untagged, tag_list, ...row }: NewRunner) =>
      Number(
        insertRunner.run({
          ...row,
          token_digest: tokenDigest(token),
          active: active ? 1 : 0,
          locked: locked ? 1 : 0,
          run_untagged: run_untagged ? 1 : 0,
          tag_list: JSON.stringify(tag_list),
        }).lastInsertRowid,
      ),
    runnerCount: () => count.get() as number,
  }
}
export type RunnerTable = ReturnType<typeof runnerTable>
