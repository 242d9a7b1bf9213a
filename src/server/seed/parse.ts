import { readFile } from 'node:fs/promises'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { load as loadYaml } from 'js-yaml'
import { isNode, parseDocument, type Document, type YAMLError } from 'yaml'
import { Seed } from '../../schema/seed.js'
import { readBlockYaml } from './block-yaml.js'
import { isSeed, seedChecker } from './seed-check.js'
import { formatPath, SeedError, type SeedPath, type SeedProblem } from './problem.js'
import { ruleProblems, type ExistingRecords } from './rules.js'

export { SeedError } from './problem.js'

/**
 * Reads a seed file's text (YAML 1.2, so JSON too) and checks it against `src/schema/seed.ts` and
 * then against the rules of docs/seed.md (src/server/seed/rules.ts).
 *
 * Returns the seed exactly as written: it fills in **no** defaults; the loader
 * (src/server/services/seed.ts) does, as the schema's `default` annotations document. An empty
 * file is an empty seed. Dates stay strings (`2026-11-01`, as YAML 1.2 reads them).
 *
 * Throws a `SeedError` with a one-line message naming `fileName`, the key path and the problem:
 * `seed.yaml: projects[0].issues[2].state: expected opened or closed`. YAML syntax errors name the
 * line and column instead. Of several problems, the one earliest in the file is reported; shape
 * problems (unknown key, missing key, wrong type or value) come before reference problems.
 * `existing` is what a running server holds, for a seed that adds to it (src/server/seed/rules.ts).
 */
export function parseSeed(text: string, fileName: string, existing?: ExistingRecords): Seed {
  const source = text.replace(/^\uFEFF/, '')
  // Start-up time: js-yaml reads a 1,000-issue seed about four times faster than `yaml`, cold. A
  // seed it reads and that passes every check is used as it is; anything else goes through `yaml`,
  // whose document knows the line and column of each problem and which stays the judge: the seeds
  // the two libraries read differently (directives, tags, null keys) always take that path. Before
  // js-yaml, the block style that programs write is read by a reader of that style alone
  // (src/server/seed/block-yaml.ts), which reads what it reads as js-yaml does.
  if (!READ_DIFFERENTLY.test(source)) {
    let value: unknown
    try {
      value = readBlockYaml(source) ?? loadYaml(source) ?? {}
    } catch {
      value = undefined
    }
    if (isSeed(value) && !hasNullKey(value) && ruleProblems(value, existing).length === 0) return value
  }
  return parseWithPositions(source, fileName, existing)
}

/**
 * `%YAML 1.1` (js-yaml reads 1.2 regardless), tags (`!!float 1` is a string to `yaml`), and
 * anything that may be an alias (`*name` after a space, `[`, `{` or `,`; text such as `a *b*` too,
 * which only costs the slower path): js-yaml expands aliases without limit, and a 35 KB seed of
 * lists of aliases of lists named millions of duplicate labels and ran the server out of heap.
 */
const READ_DIFFERENTLY = /^%|!|(?:^|[\s[{,])\*/m

/**
 * How far aliases may expand (`yaml`'s `maxAliasCount`, whose default this is): an alias bomb is
 * refused before it is expanded, while a seed that reuses a few anchored lists still reads.
 */
const MAX_ALIAS_COUNT = 100

/** A key js-yaml reads as `null` (`~:`, `null:`), which `yaml` reads as the empty string. */
function hasNullKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  // Plain loops, no [key, value] pairs: this walks every seed once at start-up, before it is optimised.
  if (Array.isArray(value)) {
    for (const item of value) if (hasNullKey(item)) return true
    return false
  }
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) if (key === 'null' || hasNullKey(record[key])) return true
  return false
}

/** `parseSeed` with `yaml`'s document: throws the first problem, naming its place. */
function parseWithPositions(source: string, fileName: string, existing?: ExistingRecords): Seed {
  const doc = parseDocument(source)
  const syntax = doc.errors[0]
  if (syntax) throw syntaxError(fileName, syntax)
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {}
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    if (/^Excessive alias count/.test(message))
      throw new SeedError(
        fileName,
        '',
        `YAML aliases expand too far (limit ${MAX_ALIAS_COUNT}): write the repeated parts out`,
      )
    throw new SeedError(fileName, '', message)
  }
  if (!seedChecker().Check(value)) throw firstProblem(fileName, doc, schemaProblems(value))
  const problems = ruleProblems(value, existing)
  if (problems.length > 0) throw firstProblem(fileName, doc, problems)
  return value
}

/**
 * Reads and checks a seed file (`gitlab-actions serve --seed FILE`), see `parseSeed`; messages name
 * the file as `path` gives it. Throws `SeedError`, also when the file cannot be read.
 */
export async function loadSeedFile(path: string, existing?: ExistingRecords): Promise<Seed> {
  return parseSeed((await readSeedFile(path)).toString('utf8'), path, existing)
}

/** A seed file's bytes; a `SeedError` naming `path` when it cannot be read. */
export async function readSeedFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : String(err)
    throw new SeedError(path, '', `cannot read the file (${code})`)
  }
}

function syntaxError(fileName: string, error: YAMLError): SeedError {
  const position = error.linePos?.[0]
  const problem = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')
  return new SeedError(fileName, position ? `line ${position.line}, column ${position.col}` : '', problem)
}

/** The problem that starts earliest in the file (ties keep their order). */
function firstProblem(fileName: string, doc: Document, problems: SeedProblem[]): SeedError {
  let best: SeedProblem | undefined
  let bestOffset = Infinity
  for (const problem of problems) {
    const offset = offsetOf(doc, problem.path)
    if (offset < bestOffset) [best, bestOffset] = [problem, offset]
  }
  if (!best) return new SeedError(fileName, '', 'invalid seed')
  return new SeedError(fileName, formatPath(best.path), best.message, best.conflict === true)
}

/** Where the node at `path` starts; a key that is missing counts from the start of its object. */
function offsetOf(doc: Document, path: SeedPath): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true)
    if (isNode(node) && node.range) return node.range[0]
  }
  return 0
}

function schemaProblems(value: unknown): SeedProblem[] {
  const problems: SeedProblem[] = []
  const seen = new Set<string>()
  for (const error of seedChecker().Errors(value)) {
    if (seen.has(error.path)) continue // a missing key is also "expected string" there
    seen.add(error.path)
    problems.push({ path: toPath(value, error.path), message: describe(error) })
  }
  return problems
}

/** A JSON pointer (`/projects/0/state`) as a key path, numbers where the value is a list. */
function toPath(value: unknown, pointer: string): SeedPath {
  const path: SeedPath = []
  let current = value
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (Array.isArray(current)) {
      path.push(Number(segment))
      current = current[Number(segment)]
    } else {
      path.push(segment)
      current = isRecord(current) ? current[segment] : undefined
    }
  }
  return path
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** How a wrong value reads in a message: `"yes"`, `1`, `null`, `a list`, `a mapping`. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'string') return JSON.stringify(value)
  return String(value)
}

/** `a or b`, `a, b or c`. */
function orList(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
}

function describe(error: ValueError): string {
  const schema: Record<string, unknown> = error.schema
  const got = `got ${shown(error.value)}`
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      return 'unknown key'
    case ValueErrorType.ObjectRequiredProperty:
      return 'missing required key'
    case ValueErrorType.Union: {
      const options = Array.isArray(schema.anyOf) ? schema.anyOf : []
      const words = options.map((option: unknown) => (isRecord(option) ? String(option.const) : '?'))
      return `expected ${orList(words)}`
    }
    case ValueErrorType.String:
      return `expected a string, ${got}`
    case ValueErrorType.Boolean:
      return `expected true or false, ${got}`
    case ValueErrorType.Integer:
      return `expected an integer, ${got}`
    case ValueErrorType.IntegerMinimum:
      return `expected an integer >= ${String(schema.minimum)}, ${got}`
    case ValueErrorType.Array:
      return `expected a list, ${got}`
    case ValueErrorType.Object:
      return `expected a mapping, ${got}`
    case ValueErrorType.StringMinLength:
      return 'must not be empty'
    case ValueErrorType.StringPattern:
      return `expected ${String(schema['x-expected'] ?? `text matching ${String(schema.pattern)}`)}, ${got}`
    default:
      return `${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}, ${got}`
  }
}
