import { expandVariables } from './expand-variables.js'
import { interpolate, resolveInputs } from './inputs.js'
import { isHash, loadCiYaml, YamlReference, YamlSyntaxError } from './yaml-documents.js'

/*
 * `include` and `extends` (`lib/gitlab/ci/config/external/`, `lib/gitlab/ci/config/extendable/`):
 * the files a configuration includes (`local`, `project` from another project of the server, `remote`) are
 * merged under it (a hash merges key by key, anything else is replaced; the including file wins), then
 * each job's `extends` chain is merged under the job.
 */

/** Reads a file of the pipeline's commit; `undefined` when there is none. */
export type CiFileReader = (path: string) => string | undefined

/** A project and commit files are read from (`External::Context#project`, `#sha`). */
export interface FileContext {
  project: string
  sha: string
}

/** Where included files are read from: the pipeline's commit (no `at`), or a project's (`include: project`). */
export interface IncludeContext {
  /** Names the project and commit, for the checks of files included twice. */
  key: string
  read: CiFileReader
  at?: FileContext
}

/**
 * `include: project`: the files of the project at `path` at `ref` (`HEAD`: its default branch), as the
 * pipeline's user may read them; throws `CiConfigError` with GitLab's refusal.
 */
export type ProjectFiles = (path: string, ref: string) => Required<IncludeContext>

/**
 * A file included, as the lint lists it (`File::Base#metadata`): where it was read from (`from`; none:
 * the pipeline's commit, or a URL) and the context of the file that included it (none: the pipeline's).
 */
export interface IncludedFile {
  type: 'local' | 'file' | 'remote'
  location: string
  from?: FileContext
  context?: FileContext
  /** `include: project`: the project and ref as written. */
  extra?: { project: string; ref: string }
}

/** `include: remote`: the text at the URL, fetched before; throws `CiConfigError` with GitLab's refusal. */
export type RemoteFiles = (url: string) => string

/**
 * `include: artifact` (`External::File::Artifact`): the file at `path` in the archive of the parent
 * pipeline's job `job`; throws `CiConfigError` with GitLab's refusal.
 */
export type ArtifactFiles = (job: string, path: string) => string

/** What an included file is read with, besides the pipeline's own commit. */
export interface IncludeSources {
  projects: ProjectFiles
  remote: RemoteFiles
  /** Only while a bridge creates a child pipeline: GitLab refuses `include: artifact` anywhere else. */
  artifacts?: ArtifactFiles
  /**
   * What `$VARIABLES` in include locations expand to (`External::Context#variables`: the predefined
   * variables and the pipeline's own), asked for only when a location names one; none by default.
   */
  variables?: () => Readonly<Record<string, string>>
  /** Told of each file read, in the order of the merge. */
  included?: (file: IncludedFile) => void
}

/** A configuration GitLab refuses, with its message. */
export class CiConfigError extends Error {}

/** `include: project` of a project that is missing or that the pipeline's user may not read. */
export const projectNotFound = (path: string) =>
  new CiConfigError(
    `Project \`${path}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`,
  )

/** A configuration compiled without a server: no other project may be read, no URL fetched. */
export const NO_SOURCES: IncludeSources = {
  projects: (path) => {
    throw projectNotFound(path)
  },
  remote: (url) => {
    throw new CiConfigError(`Remote file \`${url}\` could not be fetched because of a socket error!`)
  },
}

/** GitLab's limits (`Gitlab::Ci::Config::External::Context::MAX_INCLUDES`, `Extendable::Entry::MAX_NESTING_LEVELS`). */
const MAX_INCLUDES = 150
const MAX_EXTENDS_DEPTH = 10

/** Deep merge: hashes key by key, anything else taken from `over` (ActiveSupport's `deep_merge`). */
export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(over)) {
    const b = out[k]
    out[k] = isHash(b) && isHash(v) ? deepMerge(b, v) : v
  }
  return out
}

/** `Gitlab::UrlSanitizer.valid?`: what makes a string include a URL rather than a local path. */
const URL_SCHEME = /^(https?|ssh|git):/i

type IncludeEntry =
  | { local: string; inputs: Record<string, unknown> }
  | { remote: string; inputs: Record<string, unknown> }
  | { project: string; ref: string; file: string; inputs: Record<string, unknown> }
  | { artifact: string; job: string; inputs: Record<string, unknown> }

/**
 * The entries of `include:` (`External::Mapper::Normalizer`): a project's `file` list is one entry per
 * file. A string is a URL or a local path as written; then every location, project, ref and file has its
 * variables expanded (`Mapper::VariablesExpander`).
 */
function includeEntries(value: unknown, variables: () => Readonly<Record<string, string>>): IncludeEntry[] {
  const expand = (text: string) => (/[$%]/.test(text) ? expandVariables(text, variables()) : text)
  return normalizedEntries(value).map((entry) => {
    if ('local' in entry) return { ...entry, local: expand(entry.local) }
    if ('remote' in entry) return { ...entry, remote: expand(entry.remote) }
    if ('artifact' in entry) return { ...entry, artifact: expand(entry.artifact), job: expand(entry.job) }
    // Project paths match in lower case.
    const project = expand(entry.project).toLowerCase()
    return { ...entry, project, ref: expand(entry.ref), file: expand(entry.file) }
  })
}

function normalizedEntries(value: unknown): IncludeEntry[] {
  const list = Array.isArray(value) ? value : [value]
  return list.flatMap((item): IncludeEntry[] => {
    if (typeof item === 'string')
      return [URL_SCHEME.test(item) ? { remote: item, inputs: {} } : { local: item, inputs: {} }]
    const inputs = isHash(item) && isHash(item.inputs) ? item.inputs : {}
    if (isHash(item) && typeof item.local === 'string') return [{ local: item.local, inputs }]
    if (isHash(item) && typeof item.remote === 'string') return [{ remote: item.remote, inputs }]
    if (isHash(item) && typeof item.artifact === 'string') {
      const job = item.job === undefined || item.job === null ? '' : String(item.job)
      return [{ artifact: item.artifact, job, inputs }]
    }
    if (isHash(item) && 'project' in item && item.file !== undefined && item.file !== null) {
      // GitLab takes the first of a list of projects (a deprecated form).
      const project = String((Array.isArray(item.project) ? item.project[0] : item.project) ?? '')
      const ref = item.ref === undefined || item.ref === null ? 'HEAD' : String(item.ref)
      const files = Array.isArray(item.file) ? item.file : [item.file]
      if (project !== '') return files.map((file) => ({ project, ref, file: String(file), inputs }))
    }
    if (isHash(item)) {
      const kind = ['template', 'component'].find((k) => k in item)
      if (kind)
        throw new CiConfigError(
          `Include \`${kind}\` is not supported by the emulator: use \`local\`, \`project\`, \`remote\` or \`artifact\``,
        )
    }
    throw new CiConfigError('Included file `' + JSON.stringify(item) + '` does not have a valid location!')
  })
}

/**
 * Loads one file: its YAML, its `spec:inputs` checked against `inputs` and interpolated.
 * `label` prefixes errors of included files as GitLab does (`` `path`: ``).
 */
export function loadWithInputs(text: string, inputs: Record<string, unknown>, label?: string): unknown {
  const prefix = label ? `\`${label}\`: ` : ''
  let docs
  try {
    docs = loadCiYaml(text)
  } catch (e) {
    if (e instanceof YamlSyntaxError && label)
      throw new CiConfigError(`Included file \`${label}\` does not have valid YAML syntax!`)
    throw e instanceof YamlSyntaxError ? new CiConfigError(e.message) : e
  }
  const resolved = resolveInputs(docs.header, inputs)
  if ('errors' in resolved) throw new CiConfigError(prefix + resolved.errors.slice(0, 3).join(', '))
  if (!docs.header) return docs.content
  const errors: string[] = []
  const content = interpolate(docs.content, resolved.values, errors)
  if (errors.length) throw new CiConfigError(prefix + [...new Set(errors)].slice(0, 3).join(', '))
  return content
}

/** `File::Base::YAML_WHITELIST_EXTENSION`: included files must be YAML by name. */
const YAML_NAME = /.+\.(yml|yaml)$/i

/**
 * The configuration with its includes merged in, depth first; throws `CiConfigError`. A file included
 * from another project reads its own `local` includes from that project's commit, a remote file from
 * where it was included (GitLab's context).
 */
export function mergeIncludes(
  root: Record<string, unknown>,
  read: CiFileReader,
  sources: IncludeSources = NO_SOURCES,
): Record<string, unknown> {
  let count = 0
  const told = sources.included ?? (() => undefined)
  /** One included file's text, where its own `local` includes are read from, and its name in errors. */
  const open = (entry: IncludeEntry, here: IncludeContext) => {
    if ('remote' in entry) {
      const url = entry.remote
      if (!URL_SCHEME.test(url) || !URL.canParse(url))
        throw new CiConfigError(`Remote file \`${url}\` does not have a valid address!`)
      if (!YAML_NAME.test(new URL(url).pathname.split('/').pop() ?? ''))
        throw new CiConfigError(`Included file \`${url}\` does not have YAML extension!`)
      const text = sources.remote(url)
      told({ type: 'remote', location: url, ...(here.at ? { context: here.at } : {}) })
      if (text.trim() === '') throw new CiConfigError(`Included file \`${url}\` is empty or does not exist!`)
      return { path: url, text, from: here, key: `remote:${url}` }
    }
    if ('artifact' in entry) {
      // The path as written (archive paths keep no leading slash); its own includes keep this context.
      const path = entry.artifact
      if (!YAML_NAME.test(path.split('/').pop() ?? ''))
        throw new CiConfigError(`Included file \`${path}\` does not have YAML extension!`)
      if (!sources.artifacts)
        throw new CiConfigError(
          'Including configs from artifacts is only allowed when triggering child pipelines',
        )
      if (entry.job === '')
        throw new CiConfigError('Job must be provided when including configs from artifacts')
      const text = sources.artifacts(entry.job, path)
      if (text.trim() === '') throw new CiConfigError(`File \`${path}\` is empty!`)
      return { path, text, from: here, key: `artifact:${entry.job}:${path}` }
    }
    const path = ('local' in entry ? entry.local : entry.file).replace(/^\/+/, '')
    if (!YAML_NAME.test(path.split('/').pop() ?? ''))
      throw new CiConfigError(`Included file \`${path}\` does not have YAML extension!`)
    if ('local' in entry) {
      const text = here.read(path)
      if (text === undefined) throw new CiConfigError(`Local file \`${path}\` does not exist!`)
      told({ type: 'local', location: path, ...(here.at ? { from: here.at, context: here.at } : {}) })
      if (text.trim() === '') throw new CiConfigError(`Local file \`${path}\` is empty!`)
      return { path, text, from: here, key: `${here.key}:${path}` }
    }
    const from = sources.projects(entry.project, entry.ref)
    const text = from.read(path)
    if (text === undefined)
      throw new CiConfigError(`Project \`${entry.project}\` file \`${path}\` does not exist!`)
    const extra = { project: entry.project, ref: entry.ref }
    told({ type: 'file', location: path, from: from.at, ...(here.at ? { context: here.at } : {}), extra })
    if (text.trim() === '') throw new CiConfigError(`Project \`${entry.project}\` file \`${path}\` is empty!`)
    return { path, text, from, key: `${from.key}:${path}` }
  }
  const expand = (
    config: Record<string, unknown>,
    here: IncludeContext,
    seen: string[],
  ): Record<string, unknown> => {
    if (!('include' in config)) return config
    const { include, ...rest } = config
    let merged: Record<string, unknown> = {}
    for (const entry of includeEntries(include, sources.variables ?? (() => ({})))) {
      if (++count > MAX_INCLUDES)
        throw new CiConfigError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`)
      const { path, text, from, key: scoped } = open(entry, here)
      if (seen.includes(scoped)) throw new CiConfigError(`Include \`${path}\` was already included!`)
      const content = loadWithInputs(text, entry.inputs, path)
      if (!isHash(content))
        throw new CiConfigError(`Included file \`${path}\` does not have valid YAML syntax!`)
      merged = deepMerge(merged, expand(content, from, [...seen, scoped]))
    }
    return deepMerge(merged, rest)
  }
  return expand(root, { key: '', read }, [])
}

/** Every job with its `extends` chain merged under it (`Gitlab::Ci::Config::Extendable`). */
export function applyExtends(config: Record<string, unknown>): Record<string, unknown> {
  const done = new Map<string, Record<string, unknown>>()
  const extend = (name: string, path: string[]): Record<string, unknown> => {
    const cached = done.get(name)
    if (cached) return cached
    const job = config[name] as Record<string, unknown>
    if (!('extends' in job)) return job
    if (path.includes(name)) throw new CiConfigError(`${name}: circular dependency detected in \`extends\``)
    if (path.length >= MAX_EXTENDS_DEPTH) throw new CiConfigError(`${name}: nesting too deep in \`extends\``)
    const bases = Array.isArray(job.extends) ? job.extends : [job.extends]
    const unknown = bases.filter((b) => typeof b !== 'string' || !(b in config))
    if (unknown.length)
      throw new CiConfigError(`${name}: unknown keys in \`extends\` (${unknown.map(String).join(', ')})`)
    const invalid = (bases as string[]).filter((b) => !isHash(config[b]))
    if (invalid.length)
      throw new CiConfigError(`${name}: invalid base hashes in \`extends\` (${invalid.join(', ')})`)
    let merged: Record<string, unknown> = {}
    for (const b of bases as string[]) merged = deepMerge(merged, extend(b, [...path, name]))
    const result = deepMerge(merged, job)
    done.set(name, result)
    return result
  }
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(config))
    out[name] = isHash(value) && 'extends' in value ? extend(name, []) : value
  return out
}

/** GitLab's limit on nested `!reference` tags (`Yaml::Tags::Reference::MAX_NESTING_LEVEL`, our reading). */
const MAX_REFERENCE_DEPTH = 10

/**
 * Every `!reference [.job, key, ...]` replaced by the value it names in the merged configuration
 * (`Gitlab::Ci::Config::Yaml::Tags::Resolver`, after includes and `extends`); a reference into a reference
 * is followed. Throws GitLab's `!reference ["a", "b"] could not be found`.
 */
export function resolveReferences(config: Record<string, unknown>): Record<string, unknown> {
  const describe = (path: unknown[]) =>
    `!reference [${path.map((p) => JSON.stringify(String(p))).join(', ')}]`
  const lookup = (ref: YamlReference, depth: number): unknown => {
    if (depth > MAX_REFERENCE_DEPTH) throw new CiConfigError(`${describe(ref.path)} is nested too deep`)
    let value: unknown = config
    for (const key of ref.path) {
      value = isHash(value) && typeof key === 'string' && key in value ? value[key] : undefined
      if (value === undefined) throw new CiConfigError(`${describe(ref.path)} could not be found`)
    }
    return walk(value, depth + 1)
  }
  const walk = (v: unknown, depth: number): unknown => {
    if (v instanceof YamlReference) return lookup(v, depth)
    if (Array.isArray(v)) return v.map((x) => walk(x, depth))
    if (isHash(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth)]))
    return v
  }
  return walk(config, 0) as Record<string, unknown>
}
