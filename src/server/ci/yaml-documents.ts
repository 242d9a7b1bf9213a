import {
  parseAllDocuments,
  Scalar,
  type CollectionTag,
  type ScalarTag,
  type YAMLError,
  type YAMLSeq,
} from 'yaml'

/**
 * A CI file's YAML (`lib/gitlab/ci/config/yaml/loader.rb`, `lib/gitlab/config/loader/yaml.rb`): YAML
 * as Ruby's Psych reads it (`yes`/`on` are booleans, `<<` merges, a repeated key keeps the last value), and
 * an optional `spec:` header document before a `---`.
 */
export interface CiDocuments {
  header?: Record<string, unknown>
  content: unknown
}

/** A YAML error worded as Psych words it (`(<unknown>): ... at line L column C`). */
export class YamlSyntaxError extends Error {}

/*
 * libyaml's wording for the errors the `yaml` package reports under another name. Our approximation:
 * the problem and position are the `yaml` package's, the words Psych's for the same mistake.
 */
const PSYCH_PROBLEMS: Record<string, string> = {
  MISSING_CHAR: "could not find expected ':' while scanning a simple key",
  BLOCK_AS_IMPLICIT_KEY: 'mapping values are not allowed in this context',
  MULTILINE_IMPLICIT_KEY: 'mapping values are not allowed in this context',
  TAB_AS_INDENT: 'found character that cannot start any token while scanning for the next token',
}

function psychMessage(error: YAMLError): string {
  const flow = /Flow (sequence|mapping)/.exec(error.message)
  const problem =
    PSYCH_PROBLEMS[error.code] ??
    (flow
      ? flow[1] === 'sequence'
        ? "did not find expected ',' or ']' while parsing a flow sequence"
        : "did not find expected ',' or '}' while parsing a flow mapping"
      : 'did not find expected key while parsing a block mapping')
  const at = error.linePos?.[0] ?? { line: 1, col: 1 }
  return `(<unknown>): ${problem} at line ${at.line} column ${at.col}`
}

/** Psych's booleans beyond YAML 1.2's `true`/`false`: `yes`, `no`, `on`, `off` in any case (not `y`/`n`). */
const psychBool: ScalarTag = {
  tag: 'tag:yaml.org,2002:bool',
  default: true,
  test: /^(?:yes|no|on|off)$/i,
  resolve: (text: string) => /^(?:yes|on)$/i.test(text),
}

/** A `!reference [.job, key, ...]` tag, resolved once includes and `extends` are merged (config-merge.ts). */
export class YamlReference {
  constructor(readonly path: unknown[]) {}
}

const referenceTag = {
  tag: '!reference',
  collection: 'seq',
  resolve: (seq: YAMLSeq) => new Scalar(new YamlReference(seq.toJSON() as unknown[])),
} as unknown as CollectionTag

/** Parses a CI file; throws `YamlSyntaxError` with Psych's words for invalid YAML. */
export function loadCiYaml(text: string): CiDocuments {
  const docs = parseAllDocuments(text, {
    schema: 'core',
    customTags: [psychBool, referenceTag],
    uniqueKeys: false,
    merge: true,
  })
  const list = Array.isArray(docs) ? docs : [docs]
  for (const doc of list) {
    const [error] = doc.errors
    if (error) throw new YamlSyntaxError(psychMessage(error))
  }
  const values = list.map((d) => d.toJS({ maxAliasCount: 1000 }) as unknown)
  const [first] = values
  if (values.length > 1 && isHash(first) && 'spec' in first)
    return { header: first, content: values[values.length - 1] }
  return { content: values.length === 0 ? undefined : values[values.length - 1] }
}

/** A YAML mapping (Ruby's `Hash`): a plain object, not a `!reference`. */
export const isHash = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype
