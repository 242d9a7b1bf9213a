/** `Ci::Maskable::REGEX`: what a masked, expanded value may hold. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/
/** `Ci::Maskable::MASK_AND_RAW_REGEX`: a masked raw value needs only no whitespace. */
const MASKABLE_RAW = /^\S{8,}$/
const KEY = /^[a-zA-Z0-9_]+$/
/** `Gitlab::Regex.environment_scope_regex`. */
const ENVIRONMENT_SCOPE = /^[a-zA-Z0-9_\\/${}. *-]+$/

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
 * attribute in the order `Ci::Variable` and `Ci::GroupVariable` declare them (`Ci::HasVariable`,
 * `Ci::Maskable`, `HasEnvironmentScope`, their own). `taken` is the uniqueness check, asked only
 * when the rest holds keys. The API answers them, and a seed's `variables:` are refused with them.
 */
export function variableErrors(v: VariableFields, taken: () => boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, text: string) => (errors[field] ??= []).push(text)
  if (v.key === '') add('key', "can't be blank")
  if (v.key.length > 255) add('key', 'is too long (maximum is 255 characters)')
  if (!KEY.test(v.key)) add('key', "can contain only letters, digits and '_'.")
  if (v.masked && !(v.raw ? MASKABLE_RAW : MASKABLE).test(v.value)) add('value', 'is invalid')
  if (v.environment_scope === '') add('environment_scope', "can't be blank")
  else if (!ENVIRONMENT_SCOPE.test(v.environment_scope))
    add(
      'environment_scope',
      "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
    )
  if ((v.description ?? '').length > 255) add('description', 'is too long (maximum is 255 characters)')
  if (taken()) add('key', `(${v.key}) has already been taken`)
  return errors
}
