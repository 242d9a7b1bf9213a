import {
  applyExtends,
  CiConfigError,
  type CiFileReader,
  loadWithInputs,
  mergeIncludes,
  type IncludeSources,
  NO_SOURCES,
  resolveReferences,
} from './config-merge.js'
import {
  type CiRule,
  commands,
  compileJob,
  type CompiledJob,
  DEFAULT_KEYS,
  type JobDefaults,
  variableValues,
  workflowRules,
} from './job-entry.js'
import { expandParallel } from './parallel.js'
import { isHash } from './yaml-documents.js'

/*
 * A `.gitlab-ci.yml` compiled (`Gitlab::Ci::Config`, `Gitlab::Ci::YamlProcessor`): YAML, inputs,
 * includes and `extends` resolved, every key checked, then GitLab's logical checks (stages, needs).
 * What varies per pipeline (`rules`, `workflow:rules`) is evaluated later by `planPipeline`.
 */

export interface CompiledConfig {
  /** `.pre`, the configured (or default) stages, `.post`. */
  stages: string[]
  /** Top-level `variables:`. */
  variables: Record<string, string>
  workflow?: CiRule[]
  /** Visible jobs in the order of the file. */
  jobs: CompiledJob[]
}

export type CompileResult = { config: CompiledConfig } | { errors: string[] }

const ROOT_KEYS = new Set([
  'default',
  'include',
  'before_script',
  'image',
  'services',
  'after_script',
  'variables',
  'stages',
  'cache',
  'workflow',
])
const DEFAULT_STAGES = ['build', 'test', 'deploy']

function stagesOf(value: unknown): string[] {
  if (value === undefined || value === null) return ['.pre', ...DEFAULT_STAGES, '.post']
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string'))
    throw new CiConfigError('stages config should be an array of strings')
  return ['.pre', ...(value as string[]).filter((s) => s !== '.pre' && s !== '.post'), '.post']
}

function defaultsOf(root: Record<string, unknown>): JobDefaults {
  const d = root.default
  if (d !== undefined && d !== null && !isHash(d)) throw new CiConfigError('default config should be a hash')
  const given = isHash(d) ? d : {}
  const bad = Object.keys(given).filter((k) => !DEFAULT_KEYS.includes(k))
  if (bad.length) throw new CiConfigError(`default config contains unknown keys: ${bad.join(', ')}`)
  const script = (key: 'before_script' | 'after_script') => {
    const value = given[key] ?? root[key]
    if (value === undefined) return undefined
    const list = commands(value)
    if (!list)
      throw new CiConfigError(
        `${key} config should be a string or a nested array of strings up to 10 levels deep`,
      )
    return list
  }
  return {
    before_script: script('before_script'),
    after_script: script('after_script'),
    artifacts: given.artifacts,
  }
}

/** `YamlProcessor#validate_on_stop_job!`: the job `on_stop` names stops the same environment. */
function checkOnStop(job: CompiledJob, byName: Map<string, CompiledJob>): void {
  const env = job.definition.environment
  const onStop = env?.on_stop
  if (!env || onStop === undefined) return
  const at = `${job.name} job: on_stop job ${onStop}`
  const stop = byName.get(onStop)?.definition
  if (!stop) throw new CiConfigError(`${at} is not defined`)
  if (!stop.environment) throw new CiConfigError(`${at} does not have environment defined`)
  if (stop.environment.name !== env.name) throw new CiConfigError(`${at} have different environment name`)
  if (stop.environment.action !== 'stop') throw new CiConfigError(`${at} needs to have action stop defined`)
}

/** `YamlProcessor#validate_job_needs!`, `#validate_on_stop_job!` and the stage check, in GitLab's order. */
function logicalChecks(stages: string[], jobs: CompiledJob[]): void {
  const byName = new Map(jobs.map((j) => [j.name, j]))
  for (const job of jobs) {
    if (!stages.includes(job.stage))
      throw new CiConfigError(
        `${job.name} job: chosen stage ${job.stage} does not exist; available stages are ${stages.join(', ')}`,
      )
  }
  for (const job of jobs) {
    const needs = job.definition.needs ?? []
    for (const need of needs) {
      const other = byName.get(need)
      if (!other) {
        if (job.optionalNeeds.includes(need)) continue
        throw new CiConfigError(`${job.name} job: undefined need: ${need}`)
      }
      if (stages.indexOf(other.stage) > stages.indexOf(job.stage))
        throw new CiConfigError(`${job.name} job: need ${need} is not defined in current or prior stages`)
    }
    const twice = [...new Set(needs.filter((n, i) => needs.indexOf(n) !== i))]
    if (twice.length)
      throw new CiConfigError(`${job.name} has the following needs duplicated: ${twice.join(', ')}.`)
    checkOnStop(job, byName)
  }
  // `Dag.check_circular_dependencies!`
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (name: string) => {
    if (state.get(name) === 'done') return
    if (state.get(name) === 'visiting') throw new CiConfigError('The pipeline has circular dependencies')
    state.set(name, 'visiting')
    for (const n of byName.get(name)?.definition.needs ?? []) if (byName.has(n)) visit(n)
    state.set(name, 'done')
  }
  for (const job of jobs) visit(job.name)
}

/**
 * Compiles `text` (the project's `.gitlab-ci.yml`, or a child pipeline's merged includes) with the
 * pipeline's `inputs`; `read` serves `include: local`, `sources` `project` and `remote`. Answers the
 * configuration or GitLab's errors.
 */
export function compileCiConfig(
  text: string,
  read: CiFileReader,
  inputs: Record<string, unknown> = {},
  sources: IncludeSources = NO_SOURCES,
): CompileResult {
  try {
    if (text.trim() === '') return { errors: ['Please provide content of .gitlab-ci.yml'] }
    const loaded = loadWithInputs(text, inputs)
    if (!isHash(loaded)) return { errors: ['Invalid configuration format'] }
    return { config: compileRoot(loaded, read, sources) }
  } catch (e) {
    if (e instanceof CiConfigError) return { errors: [e.message] }
    throw e
  }
}

/** A child pipeline's configuration: its `trigger:include` entries merged as one (`include: [...]`). */
export function compileChildConfig(
  include: unknown[],
  read: CiFileReader,
  sources: IncludeSources = NO_SOURCES,
): CompileResult {
  try {
    return { config: compileRoot({ include }, read, sources) }
  } catch (e) {
    if (e instanceof CiConfigError) return { errors: [e.message] }
    throw e
  }
}

/**
 * The CI Lint API's view of `text` (`Gitlab::Ci::Lint`): the compiled result, and the configuration as
 * `Config#to_hash` holds it (includes merged, `extends` and `!reference` resolved, `.pre`/`.post` added to
 * `stages`) whenever loading and merging got that far, for `merged_yaml`.
 */
export function lintCiConfig(
  text: string,
  read: CiFileReader,
  sources: IncludeSources = NO_SOURCES,
): { result: CompileResult; expanded?: Record<string, unknown> } {
  let expanded: Record<string, unknown> | undefined
  try {
    if (text.trim() === '') return { result: { errors: ['Please provide content of .gitlab-ci.yml'] } }
    const loaded = loadWithInputs(text, {})
    if (!isHash(loaded)) return { result: { errors: ['Invalid configuration format'] } }
    expanded = expandRoot(loaded, read, sources)
    return { result: { config: compileExpanded(expanded) }, expanded: withEdgeStages(expanded) }
  } catch (e) {
    if (e instanceof CiConfigError)
      return { result: { errors: [e.message] }, ...(expanded ? { expanded: withEdgeStages(expanded) } : {}) }
    throw e
  }
}

/** `Config::EdgeStagesInjector`: a `stages:` list gains `.pre` first and `.post` last. */
function withEdgeStages(root: Record<string, unknown>): Record<string, unknown> {
  const stages = root.stages
  if (!Array.isArray(stages)) return root
  const inner = stages.filter((s) => s !== '.pre' && s !== '.post')
  return { ...root, stages: ['.pre', ...inner, '.post'] }
}

/** Includes merged, then `extends`, then `!reference` (`Gitlab::Ci::Config#build_config`). */
function expandRoot(
  loaded: Record<string, unknown>,
  read: CiFileReader,
  sources: IncludeSources,
): Record<string, unknown> {
  return resolveReferences(applyExtends(mergeIncludes(loaded, read, sources)))
}

function compileRoot(
  loaded: Record<string, unknown>,
  read: CiFileReader,
  sources: IncludeSources,
): CompiledConfig {
  return compileExpanded(expandRoot(loaded, read, sources))
}

function compileExpanded(root: Record<string, unknown>): CompiledConfig {
  const stages = stagesOf(root.stages)
  let variables: Record<string, string>
  let workflow: CiRule[] | undefined
  try {
    variables = variableValues(root.variables, 'variables')
    workflow = workflowRules(root.workflow)
  } catch (e) {
    throw new CiConfigError((e as Error).message)
  }
  const defaults = defaultsOf(root)
  const names = Object.keys(root).filter((k) => !ROOT_KEYS.has(k))
  let jobs: CompiledJob[] = []
  const parallel = new Map<string, unknown>()
  try {
    for (const name of names) {
      if (name.startsWith('.')) continue
      jobs.push(compileJob(name, root[name], defaults))
      const value = root[name]
      if (isHash(value) && value.parallel !== undefined) parallel.set(name, value.parallel)
    }
    jobs = expandParallel(jobs, parallel)
  } catch (e) {
    throw new CiConfigError((e as Error).message)
  }
  if (jobs.length === 0) throw new CiConfigError('jobs config should contain at least one visible job')
  logicalChecks(stages, jobs)
  return { stages, variables, ...(workflow ? { workflow } : {}), jobs }
}

/** `Gitlab::Ci::Warnings::MAX_LIMIT`: the warnings a configuration reports, at most. */
const MAX_WARNINGS = 25
const RULES_WHEN_DOCS =
  'read more: https://docs.gitlab.com/ee/ci/jobs/job_troubleshooting.html#job-may-allow-multiple-pipelines-to-run-for-a-single-action-warning'

/**
 * The warnings of an expanded configuration (`Entry::Processable#validate_against_warnings`): without
 * `workflow:rules`, a job whose last rule is a bare `when` other than `never` may run in a branch and a
 * merge request pipeline for one push. Jobs in the file's order, hidden ones skipped.
 */
export function configWarnings(root: Record<string, unknown>): string[] {
  if (isHash(root.workflow) && 'rules' in root.workflow) return []
  const warnings: string[] = []
  for (const [name, job] of Object.entries(root)) {
    if (ROOT_KEYS.has(name) || name.startsWith('.') || !isHash(job) || !Array.isArray(job.rules)) continue
    const last: unknown = job.rules[job.rules.length - 1]
    if (isHash(last) && Object.keys(last).length === 1 && 'when' in last && last.when !== 'never')
      warnings.push(
        `jobs:${name} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - ${RULES_WHEN_DOCS}`,
      )
  }
  return warnings.slice(0, MAX_WARNINGS)
}
