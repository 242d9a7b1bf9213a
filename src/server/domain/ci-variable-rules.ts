/** `Ci::Maskable::REGEX`: what a masked, expanded value may hold. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/
/** `Ci::Maskable::MASK_AND_RAW_REGEX`: a masked raw value needs only no whitespace. */
const MASKABLE_RAW = /^\S{8,}$/
const KEY = /^[a-zA-Z0-9_]+$/
/** `Gitlab::Regex.environment_scope_regex`. */
const ENVIRONMENT_SCOPE = /^[a-zA-Z0-9_\\/${}. *-]+$/

/**
 * What one kind of owner may hold: the plan limit on how many variables it has (`Limitable`, checked on
 * create) as a self-managed GitLab's `default` plan sets it (the `plan_limits` column defaults of
 * `db/structure.sql`), and the longest value, which only `Ci::InstanceVariable` checks.
 */
export interface VariableLimits {
  /** The limit's name in `plan_limits`, as `Limitable` words it. */
  name: string
  max: number
  valueMax?: number
}

/** `Ci::Variable`: `project_ci_variables`. */
export const PROJECT_VARIABLE_LIMITS: VariableLimits = { name: 'project_ci_variables', max: 8000 }
/** `Ci::GroupVariable`: `group_ci_variables`. */
export const GROUP_VARIABLE_LIMITS: VariableLimits = { name: 'group_ci_variables', max: 30000 }
/** `Ci::InstanceVariable`: `ci_instance_level_variables` (global scope), values up to 10,000 characters. */
export const INSTANCE_VARIABLE_LIMITS: VariableLimits = {
  name: 'ci_instance_level_variables',
  max: 25,
  valueMax: 10_000,
}

/** What the model validates of a CI/CD variable, its key and scope already stripped. */
export interface VariableFields {
  key: string
  value: string
  masked: boolean
  raw: boolean
  environment_scope: string
  description: string | null
}

/**
 * Rails' validation errors of a variable as `render_validation_error!` sends them, attribute by
 * attribute in the order the models declare them (`Ci::HasVariable`, `Ci::Maskable`, `Limitable`,
 * `HasEnvironmentScope`, their own). `taken` is the uniqueness check; `count`, given on create only, how
 * many variables the owner has (`PlanLimits#exceeded?`: full at `max`). The API answers them, and a
 * seed's `variables:` are refused with them.
 */
export function variableErrors(
  v: VariableFields,
  taken: () => boolean,
  limits: VariableLimits,
  count?: () => number,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, text: string) => (errors[field] ??= []).push(text)
  if (v.key === '') add('key', "can't be blank")
  if (v.key.length > 255) add('key', 'is too long (maximum is 255 characters)')
  if (!KEY.test(v.key)) add('key', "can contain only letters, digits and '_'.")
  if (v.masked && !(v.raw ? MASKABLE_RAW : MASKABLE).test(v.value)) add('value', 'is invalid')
  if (count && count() >= limits.max)
    add('base', `Maximum number of ${limits.name.replaceAll('_', ' ')} (${limits.max}) exceeded`)
  if (v.environment_scope === '') add('environment_scope', "can't be blank")
  else if (!ENVIRONMENT_SCOPE.test(v.environment_scope))
    add(
      'environment_scope',
      "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
    )
  if ((v.description ?? '').length > 255) add('description', 'is too long (maximum is 255 characters)')
  if (taken()) add('key', `(${v.key}) has already been taken`)
  // Ruby counts characters, not UTF-16 units.
  if (
    limits.valueMax !== undefined &&
    v.value.length > limits.valueMax &&
    [...v.value].length > limits.valueMax
  )
    add('value', `The value of the provided variable exceeds the ${limits.valueMax} character limit`)
  return errors
}

/**
 * `HasEnvironmentScope.on_environment`: how a CI/CD variable's `environment_scope` ranks for a job of
 * `environment` (none: only `*`): `*` 0, a matching wildcard scope (`*` any text, `Gitlab::SQL::Glob`) 1,
 * the very name 2; undefined when it does not apply. Variables of a key are applied in rank order, so
 * the most specific wins.
 */
export function scopeRank(scope: string, environment: string | undefined): number | undefined {
  if (scope === '*') return 0
  if (environment === undefined) return undefined
  if (scope === environment) return 2
  if (!scope.includes('*')) return undefined
  const pattern = scope
    .split('*')
    .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${pattern}$`, 's').test(environment) ? 1 : undefined
}
