import type { TObject, TSchema } from '@sinclair/typebox'
import { INVALID, coerceBoolean, coerceDate, coerceInteger, rubyToI } from './params.js'
import { commaItems } from './comma-separated.js'
import { parseRubyDateTime } from './ruby-date-time.js'

/*
 * Grape's `params` as GitLab's page links write them (offset_header_builder.rb and
 * keyset/header_builder.rb: `params.merge(...).to_query`): each declared parameter the request gave,
 * as Grape's coercers left it, and each default Grape filled in. The values are those Rails'
 * `to_query` writes: an Integer's digits (`page=+2` is 2), a Boolean's `true`/`false` (`owned=yes`
 * is true), a DateTime's `to_s` (`2026-01-01T00:00:00+00:00`), a comma-separated list split into
 * its items (`labels=a,b` is `["a", "b"]`). Requests reach this only once `parseParams` accepted them.
 * Grape's `params` holds undeclared parameters as well; the links here leave them out, so that a
 * caller's junk keys cannot swell every link of the list.
 */

type Schema = TSchema & {
  type?: string
  items?: Schema
  properties?: Record<string, Schema>
  anyOf?: Schema[]
  default?: unknown
  'x-grape'?: string
}

/** The declared parameters of `schema` that Grape's `params` holds for the `given` query or body. */
export function grapeParams(schema: TObject, given: unknown): Record<string, unknown> {
  const source = isHash(given) ? given : {}
  const out: Record<string, unknown> = {}
  for (const [key, prop] of Object.entries((schema as Schema).properties ?? {})) {
    const raw = source[key]
    // Grape coerces first; a blank it reads as nil then takes the default (DefaultValidator).
    const value = raw === undefined ? undefined : grapeValue(prop, raw)
    if ((value === undefined || value === null) && prop.default !== undefined) out[key] = prop.default
    else if (value !== undefined) out[key] = value
  }
  return out
}

const isHash = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** One given value as Grape's coercer for `schema` leaves it (null where Grape reads a blank as nil). */
function grapeValue(schema: Schema, raw: unknown): unknown {
  switch (schema['x-grape']) {
    case 'csv':
      return commaSeparated(raw, schema.items?.type === 'integer')
    case 'wrap':
      // CheckAssigneesCount.coerce: `Array.wrap`, a string is one item, a blank one too (params.ts).
      return typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : []
    case 'integer_none_any': {
      // `types: [Integer, String]`: the Integer when it reads as one, else the text as given.
      if (raw === '') return null
      const n = coerceInteger(raw)
      return n === INVALID ? raw : n
    }
    case 'date': {
      // `Date#to_s` of what `Date.parse` reads; as given otherwise.
      if (raw === '') return null
      const d = coerceDate(raw)
      return d === INVALID ? raw : d
    }
    case 'datetime':
      // `DateTime#to_s` of what `DateTime.parse` reads (dry-types `to_date_time`); as given otherwise.
      return raw === '' ? null : typeof raw === 'string' ? (parseRubyDateTime(raw)?.text ?? raw) : raw
  }
  switch (schema.type) {
    case 'integer':
    case 'boolean': {
      // PrimitiveCoercer#treat_as_nil?: a blank is nil for every type but String.
      if (raw === '') return null
      const v = schema.type === 'integer' ? coerceInteger(raw) : coerceBoolean(raw)
      return v === INVALID ? raw : v
    }
    case 'array':
      if (!Array.isArray(raw)) return raw === '' ? [] : raw
      return raw.map((item) => (schema.items ? grapeValue(schema.items, item) : item))
    case 'object':
      return schema.properties && isHash(raw) ? grapeParams(schema as TObject, raw) : raw
    default:
      return raw
  }
}

/**
 * GitLab's `CommaSeparatedToArray` (comma-separated.ts) of a string or of each item of an array;
 * `CommaSeparatedToIntegerArray` then reads each item with `to_i`.
 */
function commaSeparated(raw: unknown, integers: boolean): unknown[] {
  const items =
    typeof raw === 'string'
      ? commaItems(raw)
      : Array.isArray(raw)
        ? raw.flatMap((v) => commaItems(String(v ?? '')))
        : []
  return integers ? items.map(rubyToI) : items
}
