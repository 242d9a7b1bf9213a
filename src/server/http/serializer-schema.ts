/*
 * The response schemas (src/schema) describe the API for the client's types and the docs: nullable
 * fields and enums are TypeBox unions (`anyOf`). fast-json-stringify serializes an `anyOf` by
 * compiling an ajv validator per branch and running it on every value, which dominated both the
 * server's first answer and list throughput. Serializing needs only the JSON type, so this rewrites
 * a schema into the equivalent form fast-json-stringify writes without validating:
 *
 * - `anyOf: [T, null]` becomes T with `nullable: true`;
 * - a union of string (or number, or boolean) literals becomes that plain type;
 * - a union of plain primitives (`integer | string`) becomes a list of types;
 * - any other union (`labels`: names or label records) becomes the empty schema, which
 *   fast-json-stringify writes with JSON.stringify: the presenters build each branch exactly.
 *
 * The input is not changed.
 */
type Schema = Record<string, unknown>

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isNull = (s: Schema) => s.type === 'null'
const PRIMITIVE = ['string', 'number', 'integer', 'boolean']

/** The one primitive type shared by a union of literals (`'opened' | 'closed'`), if it is one. */
function literalType(branches: Schema[]): string | undefined {
  const type = branches[0]?.type
  if (typeof type !== 'string' || !PRIMITIVE.includes(type)) return undefined
  return branches.every((b) => b.const !== undefined && b.type === type) ? type : undefined
}

/** The JSON types of a union of plain primitives (`integer | string`), if it is one. */
function primitiveTypes(branches: Schema[]): string[] | undefined {
  const primitive = (b: Schema) =>
    typeof b.type === 'string' && PRIMITIVE.includes(b.type) && b.const === undefined
  return branches.every(primitive) ? branches.map((b) => b.type as string) : undefined
}

/** Keeps the keywords fast-json-stringify reads for a plain value (not `const`, `anyOf`, TypeBox's). */
function plain(schema: Schema, type: string): Schema {
  const out: Schema = { type }
  if (schema.default !== undefined) out.default = schema.default
  return out
}

/**
 * The serializer form of a union without its `null` branch; undefined where only the empty
 * schema fits (fast-json-stringify then writes the value with JSON.stringify, null included).
 */
function unionSchema(schema: Schema, branches: Schema[]): Schema | undefined {
  const literal = literalType(branches)
  if (literal) return plain(schema, literal)
  if (branches.length === 1) return serializerSchema(branches[0]) as Schema
  const types = primitiveTypes(branches)
  // Otherwise the presenters build each branch exactly; JSON.stringify writes it as it is.
  return types ? { type: types } : undefined
}

export function serializerSchema(schema: unknown): unknown {
  if (!isSchema(schema)) return schema
  const union = schema.anyOf
  if (Array.isArray(union) && union.every(isSchema)) {
    const nonNull = union.filter((b) => !isNull(b))
    const nullable = nonNull.length < union.length
    const out = unionSchema(schema, nonNull)
    if (!out) return {}
    return nullable ? { ...out, nullable: true } : out
  }
  const out: Schema = { ...schema }
  // fast-json-stringify writes `required` keys before optional ones; an entity whose optional keys sit
  // among the others (GitLab's `expose ..., if:`) says so, and is written in its schema's order.
  if (schema['x-optional-in-place'] === true) delete out.required
  if (isSchema(schema.properties))
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, serializerSchema(value)]),
    )
  if (isSchema(schema.items)) out.items = serializerSchema(schema.items)
  if (isSchema(schema.additionalProperties))
    out.additionalProperties = serializerSchema(schema.additionalProperties)
  if (isSchema(schema.patternProperties))
    out.patternProperties = Object.fromEntries(
      Object.entries(schema.patternProperties).map(([key, value]) => [key, serializerSchema(value)]),
    )
  return out
}
