import { isHash } from './yaml-documents.js'

/*
 * `spec:inputs` and `$[[ inputs.name ]]` (`lib/gitlab/ci/config/interpolation/`, `lib/gitlab/ci/input/`):
 * each input's type (`string` by default, `number`, `boolean`, `array`), `default` (none: required),
 * `options` and `regex`; errors worded and joined as GitLab's interpolator joins them (the first three).
 */

type InputValue = string | number | boolean | unknown[]
const TYPES = ['string', 'number', 'boolean', 'array'] as const
const SPEC_KEYS = new Set(['default', 'description', 'options', 'regex', 'type', 'rules'])

const typeOf = (v: unknown) =>
  Array.isArray(v)
    ? 'array'
    : typeof v === 'number'
      ? 'number'
      : typeof v === 'boolean'
        ? 'boolean'
        : 'string'

/**
 * A value given through the API for a typed input: form parameters arrive as text, and we read `"3"` as
 * a number and `"true"` as a boolean where the input asks for one (our choice; JSON bodies keep their types).
 */
function coerce(value: unknown, type: string): unknown {
  if (typeof value !== 'string') return value
  if (type === 'number' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value)
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true'
  return value
}

/** Checks the header's `spec` and the given inputs; answers the values or GitLab's errors. */
export function resolveInputs(
  header: Record<string, unknown> | undefined,
  given: Record<string, unknown>,
): { values: Record<string, InputValue> } | { errors: string[] } {
  if (!header) {
    return Object.keys(given).length > 0
      ? { errors: ['Given inputs not defined in the `spec` section of the included configuration file'] }
      : { values: {} }
  }
  const errors: string[] = []
  const unknownHeader = Object.keys(header).filter((k) => k !== 'spec')
  if (unknownHeader.length)
    return { errors: [`header config contains unknown keys: ${unknownHeader.join(', ')}`] }
  const spec = header.spec
  if (!isHash(spec)) return { errors: ['header:spec config must be a hash'] }
  const unknownSpec = Object.keys(spec).filter((k) => !['inputs', 'include', 'component'].includes(k))
  if (unknownSpec.length)
    return { errors: [`header:spec config contains unknown keys: ${unknownSpec.join(', ')}`] }
  const specs = isHash(spec.inputs) ? spec.inputs : {}
  const unknown = Object.keys(given).filter((k) => !(k in specs))
  if (unknown.length) errors.push(`unknown input arguments: ${unknown.join(', ')}`)
  const values: Record<string, InputValue> = {}
  for (const [name, raw] of Object.entries(specs)) {
    const s = isHash(raw) ? raw : {}
    const bad = Object.keys(s).filter((k) => !SPEC_KEYS.has(k))
    if (bad.length) {
      errors.push(`header:spec:inputs:${name} config contains unknown keys: ${bad.join(', ')}`)
      continue
    }
    const type = typeof s.type === 'string' ? s.type : 'string'
    if (!(TYPES as readonly string[]).includes(type)) {
      errors.push(`header:spec:inputs:${name} input type unknown value: ${type}`)
      continue
    }
    const input = `\`${name}\` input`
    if ('default' in s && s.default !== null && typeOf(s.default) !== type)
      errors.push(`${input}: default value is not a${type === 'array' ? 'n' : ''} ${type}`)
    const provided = name in given
    const value = provided ? coerce(given[name], type) : s.default
    if (value === undefined || value === null) {
      errors.push(`${input}: required value has not been provided`)
      continue
    }
    if (Array.isArray(s.options) && !s.options.some((o) => o === value))
      errors.push(
        `${input}: \`${String(value)}\` cannot be used because it is not in the list of the allowed options`,
      )
    if (provided && typeOf(value) !== type)
      errors.push(`${input}: provided value is not a${type === 'array' ? 'n' : ''} ${type}`)
    else if (typeof s.regex === 'string' && typeof value === 'string' && !regexMatches(s.regex, value))
      errors.push(`${input}: provided value does not match required RegEx pattern`)
    values[name] = value as InputValue
  }
  return errors.length ? { errors } : { values }
}

/** GitLab's `regex:` is written with or without the surrounding slashes. */
function regexMatches(pattern: string, value: string): boolean {
  const m = /^\/(.*)\/$/s.exec(pattern)
  try {
    return new RegExp(m ? (m[1] ?? '') : pattern).test(value)
  } catch {
    return false
  }
}

const BLOCK = /\$\[\[\s*(.*?)\s*\]\]/g

/**
 * Replaces every `$[[ inputs.name ]]` in keys and string values; a value that is one whole block takes
 * the input's own type (a number, a boolean, an array). Pushes GitLab's errors for unknown blocks.
 */
export function interpolate(content: unknown, inputs: Record<string, InputValue>, errors: string[]): unknown {
  const one = (text: string): unknown => {
    const whole = /^\$\[\[\s*(.*?)\s*\]\]$/.exec(text)
    if (whole) return access(whole[1] ?? '')
    return text.replace(BLOCK, (_, expr: string) => {
      const v = access(expr)
      return v === undefined ? '' : Array.isArray(v) ? JSON.stringify(v) : String(v)
    })
  }
  const access = (expr: string): unknown => {
    const m = /^([a-z_]+)\.([A-Za-z0-9_-]+)$/.exec(expr)
    if (!m) {
      errors.push('invalid pattern used for interpolation. valid pattern is $[[ inputs.input ]]')
      return undefined
    }
    if (m[1] !== 'inputs') {
      errors.push(`unknown interpolation key: \`${m[1]}\``)
      return undefined
    }
    const name = m[2] ?? ''
    if (!(name in inputs)) {
      errors.push(`unknown interpolation provided: \`${name}\` in \`${expr}\``)
      return undefined
    }
    return inputs[name]
  }
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes('$[[') ? one(v) : v
    if (Array.isArray(v)) return v.map(walk)
    if (isHash(v))
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k.includes('$[[') ? String(one(k)) : k, walk(x)]),
      )
    return v
  }
  return walk(content)
}
