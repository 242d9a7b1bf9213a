/*
 * Inputs as data: each action declares one table of its inputs (description,
 * default, required, parser). The same table parses the runner's `INPUT_*`, the CLI's flags,
 * prints `--help`, is checked against `action.yml`, and generates the tables of docs/actions.md.
 * Every parser rejects a bad value with a message naming the input and the expected form; there
 * is no silent fallback. Generic: sync-issues and later actions reuse it as is.
 */
/**
 * One input. `parse` turns the (trimmed, non-empty) text into a value or throws InputError; it may
 * return a promise (keyValues loads the YAML parser only for a value written as YAML).
 */
export interface InputSpec<T = unknown> {
  description: string
  /** The value used when the input is empty (and no `env` fallback is set); shown in docs. */
  default?: string
  /** Without a value (and no default) the action stops: `Input required and not supplied: token`. */
  required?: boolean
  /** A secret: masked with setSecret before anything is logged, and never echoed in errors. */
  secret?: boolean
  /** With an expression `default` (`${{ github.token }}`): what stands in for it outside Actions (for `--help`). */
  cliDefault?: string
  /** Environment variables read, in order, when the input is empty (before the default). */
  env?: readonly string[]
  parse?: (text: string, name: string) => T | Promise<T>
}
export type InputTable = Record<string, InputSpec>

/**
 * Whether a workflow must give the input. One whose environment fallback the runner always sets
 * (sync-issues' `repository`: $GITHUB_REPOSITORY) is optional there, though the code still needs a
 * value, which outside Actions may be missing (the CLI's `--help` says required).
 */
export const requiredInWorkflow = (spec: InputSpec) =>
  spec.required === true && !spec.env?.some((name) => name.startsWith('GITHUB_'))

/** A bad input value; the message names the input and says what was expected. */
export class InputError extends Error {
  override readonly name = 'InputError'
}

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S
type ValueOf<S> = S extends { parse: (...args: never[]) => infer R } ? Awaited<R> : string
type Always<S> = S extends { required: true } ? true : S extends { default: string } ? true : false
/** The parsed settings of a table: kebab-case names become camelCase, optional inputs may be undefined. */
export type Parsed<T extends InputTable> = {
  [K in keyof T & string as Camel<K>]: Always<T[K]> extends true ? ValueOf<T[K]> : ValueOf<T[K]> | undefined
}

/** Where raw values come from: the runner (`ActionIO.getInput`), or the CLI's flags then `INPUT_*`. */
export interface InputSource {
  getInput(name: string): string
  getEnv(name: string): string | undefined
  setSecret(value: string): void
}

/** The variable the runner sets for input `name` (`INPUT_ACCESS-TOKEN`), as `@actions/core` reads it. */
export const inputVariable = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`

export const camel = (name: string) => name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase())

/**
 * Reads and parses every input of `table`. Secrets are masked first (before any parser can throw
 * or anyone log). Throws InputError naming the first bad or missing input.
 */
export async function parseInputs<T extends InputTable>(table: T, source: InputSource): Promise<Parsed<T>> {
  const raw: Record<string, string> = {}
  for (const [name, spec] of Object.entries(table)) {
    let text = source.getInput(name).trim()
    for (const variable of spec.env ?? []) if (!text) text = source.getEnv(variable)?.trim() ?? ''
    if (spec.secret && text) source.setSecret(text)
    raw[name] = text
  }
  const out: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(table)) {
    const text = raw[name] || spec.default || ''
    if (!text) {
      if (spec.required) throw new InputError(`Input required and not supplied: ${name}`)
      out[camel(name)] = undefined
      continue
    }
    try {
      out[camel(name)] = spec.parse ? await spec.parse(text, name) : text
    } catch (err) {
      if (spec.secret) throw new InputError(`Input '${name}' is not valid (the value is secret, not shown)`)
      throw err
    }
  }
  return out as Parsed<T>
}

const shown = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text)

/** YAML 1.2 core booleans, exactly what `core.getBooleanInput` accepts. */
export function bool(text: string, name: string): boolean {
  if (['true', 'True', 'TRUE'].includes(text)) return true
  if (['false', 'False', 'FALSE'].includes(text)) return false
  throw new InputError(`Input '${name}' must be true or false, got '${shown(text)}'`)
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * A duration in milliseconds: `90s`, `30m`, `1h30m`, `1d`, `500ms`, or bare seconds (`45`).
 * Zero is allowed (`0` means "do not wait" where an input says so).
 */
export function duration(text: string, name: string): number {
  const bare = /^\d+(\.\d+)?$/.test(text)
  if (bare) return Math.round(Number(text) * 1000)
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)]
  if (parts.length > 0 && parts.map((p) => p[0]).join('') === text.replace(/\s+/g, ''))
    return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] as string] as number), 0))
  throw new InputError(
    `Input '${name}' must be a duration such as 90s, 30m or 1h30m (bare numbers are seconds), got '${shown(text)}'`,
  )
}

/** A whole number of at least 1. */
export function positiveInt(text: string, name: string): number {
  if (/^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text))) return Number(text)
  throw new InputError(`Input '${name}' must be a whole number of at least 1, got '${shown(text)}'`)
}

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
}

/** A size in bytes: `500MiB`, `1GiB`, `100MB`, `64kb`, or bare bytes (`1048576`); at least 1. */
export function byteSize(text: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?$/i.exec(text)
  const bytes = m ? Math.floor(Number(m[1]) * (BYTE_UNITS[(m[2] ?? '').toLowerCase()] as number)) : NaN
  if (bytes >= 1 && Number.isSafeInteger(bytes)) return bytes
  throw new InputError(
    `Input '${name}' must be a size such as 500MiB, 1GiB or 100MB (bare numbers are bytes), got '${shown(text)}'`,
  )
}

/** A parser accepting exactly one of `values` (case-sensitive). */
export function oneOf<const V extends readonly string[]>(values: V) {
  return (text: string, name: string): V[number] => {
    if ((values as readonly string[]).includes(text)) return text as V[number]
    throw new InputError(`Input '${name}' must be one of ${values.join(', ')}, got '${shown(text)}'`)
  }
}

/** An http(s) URL without credentials, query or fragment (GitLab's address); a trailing slash is dropped. */
export function httpUrl(text: string, name: string): string {
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new InputError(`Input '${name}' must be an http(s) URL such as https://gitlab.example.com`)
  if (url.username || url.password)
    throw new InputError(`Input '${name}' must not carry credentials; pass the token as its own input`)
  return text.replace(/\/+$/, '')
}

/** Any absolute http(s) URL (may carry a query, e.g. a pre-signed one); never echoed in errors. */
export function anyUrl(text: string, name: string): string {
  try {
    const url = new URL(text)
    if (url.protocol === 'http:' || url.protocol === 'https:') return text
  } catch {
    // fall through
  }
  throw new InputError(`Input '${name}' must be an absolute http(s) URL`)
}

/** A multi-line list: one item per line (commas also separate), blank lines and `# comments` skipped. */
export function list(text: string): string[] {
  return text
    .split(/\r?\n/)
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

export type Scalar = string | number | boolean
const isScalar = (v: unknown): v is Scalar => ['string', 'number', 'boolean'].includes(typeof v)

/**
 * A map from `NAME=value` lines, or a YAML or JSON object of scalars. Values are never echoed in
 * errors (pipeline variables are often secret). `=` inside a value is kept (`A=b=c` is `b=c`).
 * The YAML parser (a fifth of each action bundle) loads only for a value that is not `NAME=value`
 * lines: an action whose map inputs are empty or lines never compiles it.
 */
export async function keyValues(text: string, name: string): Promise<Record<string, Scalar>> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
  const bad = () =>
    new InputError(`Input '${name}' must be NAME=value lines, or a YAML or JSON map of names to values`)
  if (lines.length > 0 && lines.every((l) => /^\s*[A-Za-z_][\w.-]*\s*=/.test(l))) {
    const out: Record<string, Scalar> = {}
    for (const line of lines) {
      const at = line.indexOf('=')
      out[line.slice(0, at).trim()] = line.slice(at + 1).trim()
    }
    return out
  }
  const { parse: parseYaml } = await import('yaml')
  let value: unknown
  try {
    value = parseYaml(text) // JSON is YAML
  } catch {
    throw bad()
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad()
  for (const [key, v] of Object.entries(value))
    if (!isScalar(v)) throw new InputError(`Input '${name}': the value of '${shown(key)}' must be a scalar`)
  return value as Record<string, Scalar>
}

/** keyValues with every value as a string (pipeline variables are strings on GitLab). */
export async function stringMap(text: string, name: string): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await keyValues(text, name)).map(([k, v]) => [k, String(v)]))
}
