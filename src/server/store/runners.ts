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
  /** Who made it with `POST /user/runners` (null for the registration-token flow). */
  creator_id?: number | null
  registration_type?: 'registration_token' | 'authenticated_user'
}

/** A `ci_runners` row (`tag_list` as JSON, booleans as 0/1). */
export interface RunnerRow {
  id: number
  runner_type: NewRunner['runner_type']
  project_id: number | null
  namespace_id: number | null
  description: string | null
  name: string | null
  maintenance_note: string | null
  active: number
  locked: number
  run_untagged: number
  access_level: string
  maximum_timeout: number | null
  tag_list: string
  created_at: string
  creator_id: number | null
  contacted_at: string | null
  registration_type: string
}

/** What `PUT /runners/:id` may change, in `ci_runners`' form. */
export interface RunnerChanges {
  description?: string
  active?: boolean
  locked?: boolean
  run_untagged?: boolean
  access_level?: string
  maximum_timeout?: number
  maintenance_note?: string
  tag_list?: string[]
}

const RUNNER_COLUMNS = `id, runner_type, project_id, namespace_id, description, name, maintenance_note, active, locked,
  run_untagged, access_level, maximum_timeout, tag_list, created_at, creator_id, contacted_at, registration_type`

const scopeKey = (scope: RunnerScope) =>
  scope.kind === 'instance' ? 'instance' : `${scope.kind}:${scope.id}`

/**
 * Runner registration tokens (digests only) and runners (migration 5), with the projects a project
 * runner is enabled in (migration 40). Authentication tokens are kept as digests too.
 */
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
       active, locked, run_untagged, access_level, maximum_timeout, tag_list, created_at, creator_id, registration_type)
     VALUES (@runner_type, @project_id, @namespace_id, @token_digest, @description, @name, @maintenance_note,
       @active, @locked, @run_untagged, @access_level, @maximum_timeout, @tag_list, @created_at, @creator_id,
       @registration_type)`,
  )
  const count = db.prepare('SELECT COUNT(*) FROM ci_runners').pluck()
  const all = db.prepare(`SELECT ${RUNNER_COLUMNS} FROM ci_runners ORDER BY id`)
  const one = db.prepare(`SELECT ${RUNNER_COLUMNS} FROM ci_runners WHERE id = ?`)
  const byDigest = db.prepare(`SELECT ${RUNNER_COLUMNS} FROM ci_runners WHERE token_digest = ?`)
  const projectLinks = db.prepare('SELECT runner_id, project_id FROM ci_runner_projects ORDER BY id')
  const projectsOf = db
    .prepare('SELECT project_id FROM ci_runner_projects WHERE runner_id = ? ORDER BY id')
    .pluck()
  const link = db.prepare(
    'INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)',
  )
  const unlink = db.prepare('DELETE FROM ci_runner_projects WHERE runner_id = ? AND project_id = ?')
  const remove = db.prepare('DELETE FROM ci_runners WHERE id = ?')
  const setDigest = db.prepare('UPDATE ci_runners SET token_digest = ? WHERE id = ?')
  const contact = db.prepare('UPDATE ci_runners SET contacted_at = ? WHERE id = ?')
  const update = db.prepare(
    `UPDATE ci_runners SET description = @description, active = @active, locked = @locked,
       run_untagged = @run_untagged, access_level = @access_level, maximum_timeout = @maximum_timeout,
       maintenance_note = @maintenance_note, tag_list = @tag_list WHERE id = @id`,
  )
  const flag = (v: boolean) => (v ? 1 : 0)
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
    /** Adds a runner; a project runner is enabled in its owner project. Returns its id. */
    insertRunner({
      token,
      active,
      locked,
      run_untagged,
      tag_list,
      creator_id,
      registration_type,
      ...row
    }: NewRunner) {
      const id = Number(
        insertRunner.run({
          ...row,
          token_digest: tokenDigest(token),
          active: flag(active),
          locked: flag(locked),
          run_untagged: flag(run_untagged),
          tag_list: JSON.stringify(tag_list),
          creator_id: creator_id ?? null,
          registration_type: registration_type ?? 'registration_token',
        }).lastInsertRowid,
      )
      if (row.project_id !== null) link.run(id, row.project_id, row.created_at)
      return id
    },
    runnerCount: () => count.get() as number,
    allRunners: () => all.all() as unknown as RunnerRow[],
    runner: (id: number) => one.get(id) as RunnerRow | undefined,
    /** The runner a plain authentication token is. */
    byToken: (token: string) => byDigest.get(tokenDigest(token)) as RunnerRow | undefined,
    /** Every (runner, project) pair of `ci_runner_projects`, oldest first. */
    projectLinks: () => projectLinks.all() as { runner_id: number; project_id: number }[],
    /** The projects a runner is enabled in, oldest first. */
    projectsOf: (runnerId: number) => projectsOf.all(runnerId) as number[],
    enableIn: (runnerId: number, projectId: number, now: string) => void link.run(runnerId, projectId, now),
    disableIn: (runnerId: number, projectId: number) => unlink.run(runnerId, projectId).changes > 0,
    deleteRunner: (id: number) => void remove.run(id),
    setToken: (id: number, token: string) => void setDigest.run(tokenDigest(token), id),
    setContactedAt: (id: number, now: string) => void contact.run(now, id),
    /** Applies `changes` over the row's current values. */
    updateRunner(row: RunnerRow, changes: RunnerChanges) {
      update.run({
        id: row.id,
        description: changes.description ?? row.description,
        active: changes.active === undefined ? row.active : flag(changes.active),
        locked: changes.locked === undefined ? row.locked : flag(changes.locked),
        run_untagged: changes.run_untagged === undefined ? row.run_untagged : flag(changes.run_untagged),
        access_level: changes.access_level ?? row.access_level,
        maximum_timeout: changes.maximum_timeout ?? row.maximum_timeout,
        maintenance_note: changes.maintenance_note ?? row.maintenance_note,
        tag_list: changes.tag_list ? JSON.stringify(changes.tag_list) : row.tag_list,
      })
    },
  }
}
export type RunnerTable = ReturnType<typeof runnerTable>
