import { Seed } from './seed.js'

/**
 * The seed file's JSON Schema (draft-07, which editors' YAML support reads best), made from the
 * TypeBox schema for `schema/seed.schema.json` (`npm run docs`). A union of constants becomes an
 * `enum`, so that editors offer the words; `x-expected` (the parser's wording of a pattern) moves
 * into the description. The rules the schema cannot express are in docs/seed.md.
 */
export function seedJsonSchema(): Record<string, unknown> {
  const schema = plain(Seed) as Record<string, unknown>
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    description:
      'Seed file of the gitlab-actions GitLab emulator (gitlab-actions serve --seed FILE); see docs/seed.md.',
    ...schema,
  }
}

function plain(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plain)
  if (typeof node !== 'object' || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-expected') continue
    out[key] = plain(value)
  }
  const record = node as Record<string, unknown>
  const options = record.anyOf
  if (Array.isArray(options) && options.every((o) => typeof o === 'object' && o !== null && 'const' in o)) {
    delete out.anyOf
    if (options.every((o: { const: unknown }) => typeof o.const === 'string')) out.type = 'string'
    out.enum = options.map((o: { const: unknown }) => o.const)
  }
  if (typeof record['x-expected'] === 'string' && out.description === undefined)
    out.description = `${record['x-expected']}`
  return out
}
