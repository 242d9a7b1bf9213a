import type { Db } from './db.js'
import type { RepositoryTables } from './repository.js'
import type { SecretBox } from './secret-box.js'
import { refProtected } from './ref-protection.js'

/** A row of `ci_variables`: a project's CI/CD variable, its value sealed. */
export interface CiVariableRow {
  id: number
  project_id: number
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

/** Project CI/CD variables (`ci_variables`), in GitLab's order: by id. */
export function ciVariableTable(db: Db) {
  const insert = db.prepare(
    `INSERT INTO ci_variables (project_id, key, value_encrypted, variable_type, protected, masked, hidden, raw,
       environment_scope, description)
     VALUES (@project_id, @key, @value_encrypted, @variable_type, @protected, @masked, @hidden, @raw,
       @environment_scope, @description)`,
  )
  const ofProject = db.prepare('SELECT * FROM ci_variables WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?')
  const all = db.prepare('SELECT * FROM ci_variables WHERE project_id = ? ORDER BY id')
  const count = db.prepare('SELECT COUNT(*) FROM ci_variables WHERE project_id = ?').pluck()
  const byKey = db.prepare('SELECT * FROM ci_variables WHERE project_id = ? AND key = ? ORDER BY id')
  const byScope = db.prepare(
    'SELECT * FROM ci_variables WHERE project_id = ? AND key = ? AND environment_scope = ?',
  )
  const update = db.prepare(
    `UPDATE ci_variables SET key = @key, value_encrypted = @value_encrypted, variable_type = @variable_type,
       protected = @protected, masked = @masked, hidden = @hidden, raw = @raw,
       environment_scope = @environment_scope, description = @description
     WHERE id = @id`,
  )
  const remove = db.prepare('DELETE FROM ci_variables WHERE id = ?')
  return {
    insert: (row: NewCiVariable) => Number(insert.run(row).lastInsertRowid),
    ofProject: (projectId: number, limit: number, offset: number) =>
      ofProject.all(projectId, limit, offset) as CiVariableRow[],
    /** Every variable of a project: what its jobs see. */
    all: (projectId: number) => all.all(projectId) as CiVariableRow[],
    count: (projectId: number) => count.get(projectId) as number,
    /** The variables of a key, in every environment scope. */
    byKey: (projectId: number, key: string) => byKey.all(projectId, key) as CiVariableRow[],
    byScope: (projectId: number, key: string, scope: string) =>
      byScope.get(projectId, key, scope) as CiVariableRow | undefined,
    update: (row: CiVariableRow) => update.run(row),
    remove: (id: number) => remove.run(id),
  }
}
export type CiVariableTable = ReturnType<typeof ciVariableTable>

/** A project variable as a pipeline of one ref sees it: its value open. */
export interface RefVariable {
  key: string
  value: string
  variable_type: 'env_var' | 'file'
  masked: boolean
  raw: boolean
}

/**
 * `Project#ci_variables_for(ref:, environment: nil)`: the project's variables a pipeline of `ref` gets,
 * the protected ones only on a protected branch or tag. The emulator's jobs have no environment, so
 * only the `*` scope applies.
 */
export function refVariables(
  store: { ciVariables: CiVariableTable; repository: RepositoryTables; secrets: SecretBox },
  projectId: number,
  ref: string,
  tag: boolean,
): RefVariable[] {
  const rows = store.ciVariables.all(projectId).filter((r) => r.environment_scope === '*')
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
