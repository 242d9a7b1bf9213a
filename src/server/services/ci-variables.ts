import type {
  CiInstanceVariable,
  CiInstanceVariableCreate,
  CiInstanceVariableUpdate,
  CiVariable,
  CiVariableCreate,
  CiVariableUpdate,
} from '../../schema/index.js'
import {
  GROUP_VARIABLE_LIMITS,
  INSTANCE_VARIABLE_LIMITS,
  PROJECT_VARIABLE_LIMITS,
  variableErrors,
  type VariableLimits,
} from '../domain/ci-variable-rules.js'
import { forbidden, messageError, notFound, validationError } from '../grape/gitlab-errors.js'
import { INSTANCE, type CiVariableRow, type CiVariableTable } from '../store/ci-variables.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, type Actor } from './access.js'
import type { ServiceContext } from './context.js'

const flag = (value: boolean | undefined, current: number) => (value === undefined ? current : value ? 1 : 0)

/** What differs between the kinds of owner besides who may manage them. */
interface VariableKind {
  table: CiVariableTable
  limits: VariableLimits
  /** The model's name in a 404 (`Variable`, `InstanceVariable`). */
  noun: string
}

/**
 * CI/CD variables of one kind of owner, kept in `kind.table`; `admin` throws unless the actor may manage
 * the owner's (`admin_cicd_variables`). A key may have one variable per environment scope; reading,
 * editing or deleting a key that several scopes share needs `filter[environment_scope]`.
 */
function variableService<O extends { id: number }>(
  ctx: ServiceContext,
  { table, limits, noun }: VariableKind,
  admin: (actor: Actor, owner: O) => void,
) {
  const box = ctx.store.secrets

  const present = (row: CiVariableRow): CiVariable => ({
    variable_type: row.variable_type,
    key: row.key,
    value: row.hidden ? null : box.open(row.value_encrypted),
    hidden: row.hidden === 1,
    protected: row.protected === 1,
    masked: row.masked === 1,
    raw: row.raw === 1,
    environment_scope: row.environment_scope,
    description: row.description,
  })
  /** `find_variable`: the key's variable in the filtered scope, 409 when several scopes are left. */
  const find = (p: O, key: string, scope: string | undefined): CiVariableRow => {
    const rows = table.byKey(p.id, key).filter((r) => scope === undefined || r.environment_scope === scope)
    if (rows.length > 1)
      throw messageError(
        409,
        "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
      )
    if (!rows[0]) throw notFound(noun)
    return rows[0]
  }
  const check = (row: CiVariableRow, value: string, id?: number) => {
    const fields = { ...row, value, masked: row.masked === 1, raw: row.raw === 1 }
    const taken = () => {
      const same = table.byScope(row.owner_id, row.key, row.environment_scope)
      return same !== undefined && same.id !== id
    }
    const count = id === undefined ? () => table.count(row.owner_id) : undefined
    const errors = variableErrors(fields, taken, limits, count)
    if (Object.keys(errors).length > 0) throw validationError(errors)
  }

  return {
    list(actor: Actor, p: O, limit: number, offset: number) {
      admin(actor, p)
      const rows = table.ofOwner(p.id, limit, offset)
      return { items: rows.map(present), total: table.count(p.id) }
    },

    get(actor: Actor, p: O, key: string, scope?: string): CiVariable {
      admin(actor, p)
      return present(find(p, key, scope))
    },

    /** Keys and scopes are stripped (`key=`, `environment_scope=`); `masked_and_hidden` sets both. */
    create(actor: Actor, p: O, input: CiVariableCreate): CiVariable {
      admin(actor, p)
      const hidden = input.masked_and_hidden === true
      const row: CiVariableRow = {
        id: 0,
        owner_id: p.id,
        key: input.key.trim(),
        value_encrypted: box.seal(input.value),
        variable_type: input.variable_type ?? 'env_var',
        protected: flag(input.protected, 0),
        masked: hidden ? 1 : flag(input.masked, 0),
        hidden: hidden ? 1 : 0,
        raw: flag(input.raw, 0),
        environment_scope: (input.environment_scope ?? '*').trim(),
        description: input.description ?? null,
      }
      check(row, input.value)
      const { id: _id, ...fresh } = row
      const id = table.insert(fresh)
      return present({ ...row, id })
    },

    /** A hidden variable keeps `masked` (`Ci::HidableVariable#validate_masked_and_hidden_on_update`). */
    update(actor: Actor, p: O, key: string, input: CiVariableUpdate): CiVariable {
      admin(actor, p)
      const found = find(p, key, input.filter?.environment_scope)
      const value = input.value ?? box.open(found.value_encrypted)
      const row: CiVariableRow = {
        ...found,
        value_encrypted: input.value === undefined ? found.value_encrypted : box.seal(input.value),
        variable_type: input.variable_type ?? found.variable_type,
        protected: flag(input.protected, found.protected),
        masked: flag(input.masked, found.masked),
        raw: flag(input.raw, found.raw),
        environment_scope:
          input.environment_scope === undefined ? found.environment_scope : input.environment_scope.trim(),
        description: input.description === undefined ? found.description : input.description,
      }
      if (found.hidden && row.masked !== found.masked)
        throw validationError({
          base: ['Updating masked attribute is not allowed on updates for hidden variables.'],
        })
      check(row, value, found.id)
      table.update(row)
      return present(row)
    },

    remove(actor: Actor, p: O, key: string, scope?: string): void {
      admin(actor, p)
      table.remove(find(p, key, scope).id)
    },
  }
}
/** The calls on one kind of owner's variables; the routes take either. */
export type VariableService<O extends { id: number }> = ReturnType<typeof variableService<O>>

/** `lib/api/ci/variables.rb`: a project's variables, for its Maintainers (`admin_cicd_variables`). */
export function ciVariableService(ctx: ServiceContext) {
  const kind = { table: ctx.store.ciVariables, limits: PROJECT_VARIABLE_LIMITS, noun: 'Variable' }
  return variableService<ProjectRow>(ctx, kind, (actor, p) => {
    if (!ctx.access.atLeast(actor, p, Level.maintainer)) throw forbidden()
  })
}
export type CiVariableService = ReturnType<typeof ciVariableService>

/** `lib/api/ci/group_variables.rb`: a group's variables, for its Owners (`GroupPolicy`'s `admin_cicd_variables`). */
export function ciGroupVariableService(ctx: ServiceContext) {
  const kind = { table: ctx.store.ciGroupVariables, limits: GROUP_VARIABLE_LIMITS, noun: 'Variable' }
  return variableService<NamespaceRow>(ctx, kind, (actor, g) => {
    if (!actor.admin && ctx.access.groupLevel(actor, g) < Level.owner) throw forbidden()
  })
}
export type CiGroupVariableService = ReturnType<typeof ciGroupVariableService>

/** The instance as the owner of its variables. */
const INSTANCE_OWNER = { id: INSTANCE }

/**
 * `lib/api/admin/ci/variables.rb`: the instance's variables, for administrators (`authenticated_as_admin!`).
 * One variable per key (no environment scope); GitLab's record has no `hidden` nor `environment_scope`.
 */
export function ciInstanceVariableService(ctx: ServiceContext) {
  const kind = {
    table: ctx.store.ciInstanceVariables,
    limits: INSTANCE_VARIABLE_LIMITS,
    noun: 'InstanceVariable',
  }
  const variables = variableService<typeof INSTANCE_OWNER>(ctx, kind, (actor) => {
    if (!actor.admin) throw forbidden()
  })
  // An instance variable is never hidden: its value is always there.
  const shape = ({ hidden: _h, environment_scope: _e, value, ...v }: CiVariable): CiInstanceVariable => ({
    ...v,
    value: value ?? '',
  })
  return {
    list(actor: Actor, limit: number, offset: number) {
      const { items, total } = variables.list(actor, INSTANCE_OWNER, limit, offset)
      return { items: items.map(shape), total }
    },
    get: (actor: Actor, key: string) => shape(variables.get(actor, INSTANCE_OWNER, key)),
    create: (actor: Actor, input: CiInstanceVariableCreate) =>
      shape(variables.create(actor, INSTANCE_OWNER, input)),
    update: (actor: Actor, key: string, input: CiInstanceVariableUpdate) =>
      shape(variables.update(actor, INSTANCE_OWNER, key, input)),
    remove: (actor: Actor, key: string) => variables.remove(actor, INSTANCE_OWNER, key),
  }
}
export type CiInstanceVariableService = ReturnType<typeof ciInstanceVariableService>
