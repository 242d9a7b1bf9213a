import type { Db } from './db.js'
import type { NamespaceRow } from './namespaces.js'
import type { ProjectRow } from './projects.js'
import type { RepositoryTables } from './repository.js'
import type { SecretBox } from './secret-box.js'
import { refProtected } from './ref-protection.js'
import { scopeRank } from '../domain/ci-variable-rules.js'

/** A row of `ci_variables` or `ci_group_variables`: a CI/CD variable of its owner, its value sealed. */
export interface CiVariableRow {
  id: number
  /** The project's or group's id (`project_id`, `group_id`). */
  owner_id: number
  key: string
  value_encrypted: string
  variable_type: 'env_var' | 'file'
  protected: number
  masked: number
  hidden: number
  raw: number
  environment_scope: string
  description: string | null
}

export type NewCiVariable = Omit<CiVariableRow, 'id'>

/** The owner id of the instance's variables (`ci_instance_variables` has no owner). */
export const INSTANCE = 0

const COLUMNS = `key, value_encrypted, variable_type, protected, masked, hidden, raw, environment_scope, description`

/**
 * CI/CD variables of one kind of owner, in GitLab's order: by id. Projects' live in `ci_variables`
 * (`project_id`), groups' in `ci_group_variables` (`group_id`), the instance's in
 * `ci_instance_variables` (no owner column: every call's owner id is `INSTANCE`, read back as 0).
 */
export function ciVariableTable(
  db: Db,
  table: 'ci_variables' | 'ci_group_variables' | 'ci_instance_variables' = 'ci_variables',
  owner: 'project_id' | 'group_id' | null = 'project_id',
) {
  // `? = 0` keeps one parameter list for every table: the instance's rows have no owner to match.
  const ownerColumn = owner ?? '0'
  const mine = owner ? `${owner} = ?` : '? = 0'
  const select = `SELECT id, ${ownerColumn} AS owner_id, ${COLUMNS} FROM ${table}`
  const insert = db.prepare(
    `INSERT INTO ${table} (${owner ? `${owner}, ` : ''}${COLUMNS})
     VALUES (${owner ? '@owner_id, ' : ''}@key, @value_encrypted, @variable_type, @protected, @masked, @hidden,
       @raw, @environment_scope, @description)`,
  )
  const ofOwner = db.prepare(`${select} WHERE ${mine} ORDER BY id LIMIT ? OFFSET ?`)
  const all = db.prepare(`${select} WHERE ${mine} ORDER BY id`)
  const count = db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${mine}`).pluck()
  const byKey = db.prepare(`${select} WHERE ${mine} AND key = ? ORDER BY id`)
  const byScope = db.prepare(`${select} WHERE ${mine} AND key = ? AND environment_scope = ?`)
  const update = db.prepare(
    `UPDATE ${table} SET key = @key, value_encrypted = @value_encrypted, variable_type = @variable_type,
       protected = @protected, masked = @masked, hidden = @hidden, raw = @raw,
       environment_scope = @environment_scope, description = @description
     WHERE id = @id`,
  )
  const remove = db.prepare(`DELETE FROM ${table} WHERE id = ?`)
  return {
    insert: ({ owner_id, ...row }: NewCiVariable) =>
      Number(insert.run(owner ? { owner_id, ...row } : row).lastInsertRowid),
    ofOwner: (ownerId: number, limit: number, offset: number) =>
      ofOwner.all(ownerId, limit, offset) as CiVariableRow[],
    /** Every variable of an owner: what its jobs see. */
    all: (ownerId: number) => all.all(ownerId) as CiVariableRow[],
    count: (ownerId: number) => count.get(ownerId) as number,
    /** The variables of a key, in every environment scope. */
    byKey: (ownerId: number, key: string) => byKey.all(ownerId, key) as CiVariableRow[],
    byScope: (ownerId: number, key: string, scope: string) =>
      byScope.get(ownerId, key, scope) as CiVariableRow | undefined,
    update: (row: CiVariableRow) => update.run(row),
    remove: (id: number) => remove.run(id),
  }
}
export type CiVariableTable = ReturnType<typeof ciVariableTable>

/** An instance, group or project variable as a pipeline of one ref sees it: its value open. */
export interface RefVariable {
  key: string
  value: string
  variable_type: 'env_var' | 'file'
  masked: boolean
  raw: boolean
}

/**
 * `Ci::Variables::Builder`'s `secret_instance_variables`, `secret_group_variables` then
 * `secret_project_variables`, weakest first: the instance's, those of the project's groups, the farthest
 * ancestor first so that the closer group wins, then the project's own (`Project#ci_variables_for(ref:)`);
 * protected ones only on a protected branch or tag. Without an `environment` only the `*` scope applies;
 * for a job's environment the scopes that match it too, each source's in `scopeRank` order (`*`, then
 * wildcards, then the very name), so that the most specific of a key wins.
 */
export function refVariables(
  store: {
    ciVariables: CiVariableTable
    ciGroupVariables: CiVariableTable
    ciInstanceVariables: CiVariableTable
    projects: { get(id: number): ProjectRow | undefined }
    namespaces: { get(id: number): NamespaceRow | undefined }
    repository: RepositoryTables
    secrets: SecretBox
  },
  projectId: number,
  ref: string,
  tag: boolean,
  environment?: string,
): RefVariable[] {
  const groups: number[] = []
  const project = store.projects.get(projectId)
  for (let ns = project && store.namespaces.get(project.namespace_id); ns?.kind === 'group';) {
    groups.unshift(ns.id)
    ns = ns.parent_id === null ? undefined : store.namespaces.get(ns.parent_id)
  }
  const scoped = (all: CiVariableRow[]) =>
    all
      .map((row) => ({ row, rank: scopeRank(row.environment_scope, environment) }))
      .filter((r): r is { row: CiVariableRow; rank: number } => r.rank !== undefined)
      .sort((a, b) => a.rank - b.rank)
      .map((r) => r.row)
  const rows = [
    ...scoped(store.ciInstanceVariables.all(INSTANCE)),
    ...groups.flatMap((id) => scoped(store.ciGroupVariables.all(id))),
    ...scoped(store.ciVariables.all(projectId)),
  ]
  if (rows.length === 0) return []
  const onProtected = refProtected(store.repository, projectId, ref, tag)
  return rows
    .filter((r) => onProtected || r.protected === 0)
    .map((r) => ({
      key: r.key,
      value: store.secrets.open(r.value_encrypted),
      variable_type: r.variable_type,
      masked: r.masked === 1,
      raw: r.raw === 1,
    }))
}
