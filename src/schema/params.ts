import { Type, type TSchema } from '@sinclair/typebox'

/*
 * Request-parameter kinds that GitLab's Grape API coerces in its own way. They are plain JSON
 * Schemas with an `x-grape` annotation, which the server's parameter parser reads
 * (src/server/grape/params.ts) and the OpenAPI document carries along.
 */

/**
 * Grape Boolean: true/false, and the strings `1/0`, `t/f`, `true/false`, `y/n`, `yes/no`, `on/off`
 * in lower case, capitalised or upper case (dry-types `Params::Bool`), nothing else.
 */
export const boolParam = (options: object = {}) => Type.Boolean(options)

/** A list given as an array or as one comma-separated string (Grape's `CommaSeparatedToArray`). */
export const csvParam = (options: object = {}) => Type.Array(Type.String(), { ...options, 'x-grape': 'csv' })

/**
 * A list given as an array or as one string taken whole, commas and all: `a,b` is one item (GitLab's
 * `CheckAssigneesCount.coerce`, `Array.wrap`, for `assignee_username`).
 */
export const wrappedListParam = (options: object = {}) =>
  Type.Array(Type.String(), { ...options, 'x-grape': 'wrap' })

/** Integers given as an array or a comma-separated string (`CommaSeparatedToIntegerArray`). */
export const intArrayParam = (options: object = {}) =>
  Type.Array(Type.Integer(), { ...options, 'x-grape': 'csv' })

/** An integer, or the wildcards `None` / `Any` (GitLab's `IntegerNoneAny` validator). */
export const integerNoneAny = (options: object = {}) =>
  Type.Union([Type.Integer(), Type.String()], { ...options, 'x-grape': 'integer_none_any' })

/**
 * A date-time, ISO 8601 in GitLab's docs; the server reads whatever Ruby's `DateTime.parse` does
 * (src/server/grape/ruby-date-time.ts). `allowBlank: false` refuses the empty string (`is empty`).
 */
export const dateTimeParam = (options: { allowBlank?: boolean } = {}) =>
  Type.String({
    format: 'date-time',
    'x-grape': 'datetime',
    ...(options.allowBlank === false ? { 'x-allow-blank': false } : {}),
  })

/**
 * A Grape `Date`: what `Date.parse` reads (the forms of `dateTimeParam`), as `YYYY-MM-DD`; a time and
 * zone given with it are dropped, the day kept as written.
 */
export const dateParam = () => Type.String({ format: 'date', 'x-grape': 'date' })

/** An integer Grape checks against `values: min..max` (`does not have a valid value` outside it). */
export const rangeParam = (minimum: number, maximum: number, options: object = {}) =>
  Type.Integer({ ...options, minimum, maximum, 'x-grape': 'range' })

/** A required string that must not be blank (Grape `allow_blank: false`). */
export const nonBlankString = (options: object = {}) => Type.String({ ...options, 'x-allow-blank': false })

/** A free-form hash of string keys (`variables[NAME]=value`, `override_params[...]`). */
export const hashParam = (options: object = {}) => Type.Record(Type.String(), Type.Unknown(), options)

export type ParamSchema = TSchema
