import type { Static, TObject, TSchema } from '@sinclair/typebox'
import { commaItems } from './comma-separated.js'
import { paramError } from './gitlab-errors.js'
import { parseRubyDateTime } from './ruby-date-time.js'

/*
 * Grape-style request parameters (messages from Grape's `lib/grape/locale/en.yml`): the route's TypeBox
 * schema says what is declared; this module coerces strings as Grape does, and reports every
 * failure in Grape's words, joined by ", ", as one 400 `{"error": ...}`. Undeclared keys are
 * dropped, as Grape's `declared(params)` drops them.
 */

type Schema = TSchema & {
  type?: string
  anyOf?: Schema[]
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
  const?: unknown
  patternProperties?: Record<string, Schema>
  'x-grape'?: string
  'x-allow-blank'?: boolean
  'x-mutually-exclusive'?: string[][]
  'x-at-least-one-of'?: string[]
  'x-exactly-one-of'?: string[]
  /** Grape's `given :parent do requires ... end`: parent -> the parameters its block requires. */
  'x-given'?: Record<string, string[]>
  minimum?: number
  maximum?: number
  default?: unknown
}

/** dry-types' `Params::Bool` (Grape's Boolean): these spellings exactly, no other case, no blanks around. */
const TRUE = new Set(['1', 'on', 'On', 'ON', 't', 'true', 'True', 'TRUE', 'T', 'y', 'yes', 'Yes', 'YES', 'Y'])
const FALSE = new Set([
  '0',
  'off',
  'Off',
  'OFF',
  'f',
  'false',
  'False',
  'FALSE',
  'F',
  'n',
  'no',
  'No',
  'NO',
  'N',
])
export const INVALID = Symbol('invalid')
type Coerced = unknown | typeof INVALID

/**
 * Grape's Integer, dry-types' `Integer(text, 10)`: decimal digits, `_` between them, a sign, blanks
 * around (`+2`, ` 020 `, `1_000`); a number, or INVALID.
 */
export function coerceInteger(v: unknown): Coerced {
  if (typeof v === 'number') return Number.isInteger(v) ? v : INVALID
  if (typeof v === 'string' && /^\s*[+-]?\d+(?:_\d+)*\s*$/.test(v)) {
    const n = Number(v.replaceAll('_', ''))
    return Number.isSafeInteger(n) ? n : INVALID
  }
  return INVALID
}

/**
 * A route's path parameters as Grape checks them, before the query and body: those declared
 * `Type.Integer()` (`:issue_iid`) must read as Grape's Integer and come back as numbers; the
 * others stay as given (an `:id` is a number or a URL-encoded full path). `errors` names the
 * ones that do not read (`issue_iid is invalid`).
 */
export function parsePath<T extends TObject>(
  schema: T,
  raw: Record<string, string | undefined>,
): { path: Static<T>; errors: string[] } {
  const errors: string[] = []
  const path: Record<string, unknown> = { ...raw }
  for (const [key, prop] of Object.entries((schema as Schema).properties ?? {})) {
    if (prop.type !== 'integer') continue
    const n = coerceInteger(raw[key])
    if (n === INVALID) errors.push(`${key} is invalid`)
    else path[key] = n
  }
  return { path: path as Static<T>, errors }
}

/** A path id as Grape's `Integer` reads it (`+1` and ` 1 ` too); 400 `<name> is invalid` otherwise. */
export function pathInteger(raw: string | undefined, name: string): number {
  const n = coerceInteger(raw)
  if (n === INVALID) throw paramError(`${name} is invalid`)
  return n as number
}

/** Grape's Boolean: true, false, or INVALID. */
export function coerceBoolean(v: unknown): Coerced {
  if (typeof v === 'boolean') return v
  if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1
  if (typeof v === 'string') {
    if (TRUE.has(v)) return true
    if (FALSE.has(v)) return false
  }
  return INVALID
}

/** Grape's DateTime: what `DateTime.parse` reads, as the instant in UTC (ruby-date-time.ts). */
function coerceDateTime(v: unknown): Coerced {
  return (typeof v === 'string' && parseRubyDateTime(v)?.instant) || INVALID
}

/** Grape's Date: the day `Date.parse` reads, as written (`Date#to_s`). */
export function coerceDate(v: unknown): Coerced {
  return (typeof v === 'string' && parseRubyDateTime(v)?.text.slice(0, 10)) || INVALID
}

/** Ruby's `String#to_i`: the leading integer (blanks, a sign, digits and `_` between them), else 0. */
export function rubyToI(text: string): number {
  const m = /^\s*([+-]?\d+(?:_\d+)*)/.exec(text)
  return m ? Number((m[1] as string).replaceAll('_', '')) : 0
}

function isBlank(v: unknown): boolean {
  return (
    v === null ||
    v === undefined ||
    (typeof v === 'string' && v.trim() === '') ||
    (Array.isArray(v) && v.length === 0)
  )
}

function literalValues(schema: Schema): unknown[] | undefined {
  if (schema.anyOf && schema.anyOf.every((s) => 'const' in s)) return schema.anyOf.map((s) => s.const)
  return undefined
}

/** A parameter declared with Grape's `values` (of its items, for an Array). */
const hasValues = (schema: Schema) =>
  literalValues(schema) !== undefined ||
  (schema.items !== undefined && literalValues(schema.items) !== undefined)

/** Coerces one value against its schema; pushes Grape messages for `name` into `errors`. */
function coerce(name: string, schema: Schema, value: unknown, errors: string[]): unknown {
  const grape = schema['x-grape']
  if (schema['x-allow-blank'] === false && isBlank(value)) {
    errors.push(`${name} is empty`)
    return INVALID
  }
  if (grape === 'integer_none_any') {
    if (typeof value === 'string' && ['none', 'any'].includes(value.trim().toLowerCase())) return value.trim()
    const n = coerceInteger(value)
    if (n === INVALID) errors.push(`${name} should be an integer, 'None' or 'Any'`)
    return n
  }
  if (grape === 'datetime') {
    // Grape turns a blank into nil, and a JSON null is nil already (go-gitlab sends `"expires_at": null`): not given
    if (value === '' || value === null) return INVALID
    const d = coerceDateTime(value)
    if (d === INVALID) errors.push(`${name} is invalid`)
    return d
  }
  if (grape === 'date') {
    if (value === '' || value === null) return INVALID
    const d = coerceDate(value)
    if (d === INVALID) errors.push(`${name} is invalid`)
    return d
  }
  const values = literalValues(schema)
  if (values) {
    const v = typeof value === 'number' ? String(value) : value
    if (!values.includes(v)) {
      errors.push(`${name} does not have a valid value`)
      return INVALID
    }
    return v
  }
  switch (schema.type) {
    case 'integer': {
      if (value === '' || value === null) return null // Grape: blank -> nil
      const n = coerceInteger(value)
      if (n === INVALID) errors.push(`${name} is invalid`)
      // `minimum` is Grape's `values: min..`, and with `x-grape: 'range'` `maximum` its `min..max`
      // (`rangeParam`; elsewhere a maximum is a cap the route applies itself). The validator runs after a
      // failed coercion too, on the text as given, which no range holds (`x is invalid, x does not have a
      // valid value`).
      const max = grape === 'range' ? schema.maximum : undefined
      const ranged = schema.minimum !== undefined || max !== undefined
      const outside = (v: number) =>
        (schema.minimum !== undefined && v < schema.minimum) || (max !== undefined && v > max)
      if (ranged && (n === INVALID || outside(n as number)))
        errors.push(`${name} does not have a valid value`)
      return n
    }
    case 'boolean': {
      // Grape reads a blank as nil, and lets nil (a JSON null) pass uncoerced: not given
      if (value === '' || value === null) return INVALID
      const b = coerceBoolean(value)
      if (b === INVALID) errors.push(`${name} is invalid`)
      return b
    }
    case 'string':
      if (typeof value === 'string') return value
      if (typeof value === 'number' || typeof value === 'boolean') return String(value)
      if (value === null) return null
      errors.push(`${name} is invalid`)
      return INVALID
    case 'array': {
      let list: unknown[]
      if (Array.isArray(value)) list = value
      else if (grape === 'csv' && (typeof value === 'string' || typeof value === 'number')) list = [value]
      // `Array.wrap`: one string is one item, a blank one too (`assignee_username=` names the user
      // with no name, whom no issue has: GitLab's finder answers none).
      else if (grape === 'wrap' && (typeof value === 'string' || typeof value === 'number'))
        list = [String(value)]
      else if (value === '' || value === null) list = []
      else {
        errors.push(`${name} is invalid`)
        return INVALID
      }
      // CommaSeparatedToArray splits each string as Ruby does: `,bug` keeps its empty first item,
      // which names no label (GitLab's LabelFilter then finds fewer labels than names: no issue).
      if (grape === 'csv')
        list = list.flatMap((s) =>
          typeof s === 'string' || typeof s === 'number' ? commaItems(String(s)) : [s],
        )
      // CommaSeparatedToIntegerArray reads each item with `to_i`: `a` is 0, `02x` is 2, none is refused.
      if (grape === 'csv' && schema.items?.type === 'integer')
        list = list.map((s) => (typeof s === 'string' || typeof s === 'number' ? rubyToI(String(s)) : s))
      const items = schema.items as Schema
      const itemErrors: string[] = []
      // An Array with a block of parameters: Grape names each hash's problems by its index
      // (`inputs[0][value] is missing`); anything but a hash there is the Array's `is invalid`.
      const isHash = (item: unknown) => item !== null && typeof item === 'object' && !Array.isArray(item)
      const out = list.map((item, i) =>
        items.properties && isHash(item)
          ? coerceObject(items, item as Record<string, unknown>, errors, `${name}[${i}]`)
          : coerce(name, items, item, itemErrors),
      )
      if (itemErrors.length > 0) {
        errors.push(`${name} is invalid`)
        return INVALID
      }
      return out
    }
    case 'object': {
      if (value === null) return null // Grape's Hash coercion: nil stays nil (a parameter not given)
      if (value === '') return INVALID // and a blank is nil too (`range=`): not given
      if (typeof value !== 'object' || Array.isArray(value)) {
        errors.push(`${name} is invalid`)
        return INVALID
      }
      if (schema.properties) return coerceObject(schema, value as Record<string, unknown>, errors, name)
      return value
    }
    default:
      return value
  }
}

/**
 * Per object schema (the routes' own, made once), its properties and required keys as walked here,
 * and the parent each `given` parameter depends on.
 */
type Shape = { props: [string, Schema][]; required: Set<string>; parentOf: Map<string, string> }
const shapes = new WeakMap<Schema, Shape>()
function shapeOf(schema: Schema): Shape {
  let shape = shapes.get(schema)
  if (!shape) {
    const parentOf = new Map<string, string>()
    for (const [parent, keys] of Object.entries(schema['x-given'] ?? {}))
      for (const key of keys) parentOf.set(key, parent)
    shape = {
      props: Object.entries(schema.properties ?? {}),
      required: new Set(schema.required ?? []),
      parentOf,
    }
    shapes.set(schema, shape)
  }
  return shape
}

/** Ruby's `blank?`, which Grape's `given` asks of the parent: nil, false, blank text, an empty list. */
const rubyBlank = (v: unknown) => v === false || isBlank(v)

function coerceObject(schema: Schema, input: Record<string, unknown>, errors: string[], prefix?: string) {
  const out: Record<string, unknown> = {}
  const { props, required, parentOf } = shapeOf(schema)
  for (const [key, prop] of props) {
    const parent = parentOf.get(key)
    // Grape's `given`: a block's parameters are neither checked nor kept while their parent is blank,
    // and are required (but for those with a default) once it is not.
    if (parent !== undefined && rubyBlank(input[parent])) continue
    const raw = input[key]
    if (raw === undefined) {
      if (!required.has(key) && (parent === undefined || prop.default !== undefined)) continue
      const name = prefix ? `${prefix}[${key}]` : key
      errors.push(`${name} is missing`)
      // Grape runs a required parameter's other validators on its nil too: `allow_blank: false` in
      // every scope (`range[end] is missing, range[end] is empty`), `values` in the root scope only
      // (`required_for_root_scope?`: `runner_type is missing, runner_type does not have a valid value`).
      if (prop['x-allow-blank'] === false) errors.push(`${name} is empty`)
      if (!prefix && hasValues(prop)) errors.push(`${name} does not have a valid value`)
      continue
    }
    // Grape's `values` validator lets an optional parameter's nil pass (go-gitlab sends `"link_type": null`).
    if (raw === null && !required.has(key) && literalValues(prop)) {
      continue
    }
    const v = coerce(prefix ? `${prefix}[${key}]` : key, prop, raw, errors)
    if (v !== INVALID) out[key] = v
  }
  const groups = schema['x-mutually-exclusive']
  const atLeast = schema['x-at-least-one-of']
  const exactly = schema['x-exactly-one-of']
  if (groups || atLeast || exactly) checkGroups(groups ?? [], atLeast, input, errors, prefix, exactly)
  return out
}

/** Grape's `mutually_exclusive`, `at_least_one_of` and `exactly_one_of` over the given keys. */
function checkGroups(
  groups: string[][],
  atLeast: string[] | undefined,
  input: Record<string, unknown>,
  errors: string[],
  prefix?: string,
  exactly?: string[],
) {
  const label = (key: string) => (prefix ? `${prefix}[${key}]` : key)
  const present = (key: string) => input[key] !== undefined
  for (const group of groups) {
    const given = group.filter(present)
    if (given.length > 1) errors.push(`${given.map(label).join(', ')} are mutually exclusive`)
  }
  if (atLeast && !atLeast.some(present))
    errors.push(`${atLeast.map(label).join(', ')} are missing, at least one parameter must be provided`)
  const given = exactly?.filter(present) ?? []
  if (exactly && given.length === 0)
    errors.push(`${exactly.map(label).join(', ')} are missing, exactly one parameter must be provided`)
  else if (given.length > 1) errors.push(`${given.map(label).join(', ')} are mutually exclusive`)
}

/**
 * Parses request parameters against a route's schema, as Grape would, after the messages `leading`
 * holds (the path's, from `parsePath`): Grape checks every parameter of a route in one pass.
 * Throws 400 `{"error":"<name> is missing, <name> is invalid"}` on the first request with problems.
 */
export function parseParams<T extends TObject>(schema: T, input: unknown, leading: string[] = []): Static<T> {
  const errors = [...leading]
  const source =
    input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {}
  const out = coerceObject(schema as Schema, source, errors)
  if (errors.length > 0) throw paramError(errors.join(', '))
  return out as Static<T>
}
