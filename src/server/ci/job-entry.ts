import { coverageRegex } from './coverage.js'
import { jobEnvironment } from './environment.js'
import type { JobDefinition } from './job-definition.js'
import { isValidExpression } from './expressions.js'
import { checkPolicy, type Policy } from './only-except.js'
import { startInSeconds } from './start-in.js'
import { isHash } from './yaml-documents.js'

/*
 * One job of a configuration (`lib/gitlab/ci/config/entry/job.rb`, `bridge.rb`, `processable.rb`,
 * `rules/rule.rb`, `artifacts.rb`, `trigger.rb`): its keys checked and worded as GitLab's validators word
 * them (`jobs:build config contains unknown keys: foo`), then resolved into a `JobDefinition`.
 */

/** A rule of `rules:` or `workflow:rules:`, checked; `if` is evaluated when the pipeline is planned. */
export interface CiRule {
  if?: string
  when?: string
  allow_failure?: boolean
  start_in?: string
  variables: Record<string, string>
  needs?: string[]
  /** `exists:` globs, matched against the commit's files (none: not checked). */
  exists?: string[]
  /** `changes:` globs, matched against a push's changed paths (none: not checked). */
  changes?: string[]
}

/**
 * The globs of `exists:` or `changes:`: an array, or a hash's `paths`. A hash naming another project
 * (`exists:project`) or a ref to compare with (`changes:compare_to`) is not checked (our approximation).
 */
function ruleGlobs(value: unknown, other: string): string[] | undefined {
  const globs = isHash(value) && !(other in value) ? value.paths : value
  return Array.isArray(globs) && globs.every((g) => typeof g === 'string') ? globs : undefined
}

export interface CompiledJob {
  name: string
  stage: string
  /** A trigger job (`Ci::Bridge`). */
  bridge: boolean
  rules?: CiRule[]
  /** `only`/`except` as written (a job with `rules` has neither). */
  only?: Policy
  except?: Policy
  /** `when` and `allow_failure` written on the job itself (rules may override). */
  whenSet: boolean
  allowFailureSet: boolean
  /** `needs:` entries marked `optional: true`. */
  optionalNeeds: string[]
  /** `inherit:variables`: which top-level (and `workflow:rules`) variables the job sees; all when absent. */
  inheritVariables?: false | string[]
  definition: JobDefinition
}

const PROCESSABLE_KEYS = [
  'extends',
  'stage',
  'only',
  'except',
  'rules',
  'variables',
  'inherit',
  'allow_failure',
  'when',
  'needs',
  'resource_group',
  'environment',
  'interruptible',
]
const JOB_KEYS = new Set([
  ...PROCESSABLE_KEYS,
  'tags',
  'script',
  'run',
  'image',
  'services',
  'start_in',
  'artifacts',
  'cache',
  'dependencies',
  'before_script',
  'after_script',
  'hooks',
  'coverage',
  'retry',
  'parallel',
  'timeout',
  'release',
  'id_tokens',
  'secrets',
  'publish',
  'pages',
  'manual_confirmation',
  'identity',
  'dast_configuration',
])
const BRIDGE_KEYS = new Set([...PROCESSABLE_KEYS, 'trigger', 'parallel', 'inputs'])
const JOB_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed']
const BRIDGE_WHEN = ['on_success', 'on_failure', 'always', 'manual']
const RULE_KEYS = new Set([
  'if',
  'changes',
  'exists',
  'when',
  'start_in',
  'allow_failure',
  'variables',
  'needs',
  'interruptible',
  'auto_cancel',
])
const RULE_WHEN = ['on_success', 'on_failure', 'always', 'never', 'manual', 'delayed']
const ARTIFACT_KEYS = new Set([
  'name',
  'untracked',
  'paths',
  'reports',
  'when',
  'expire_in',
  'expose_as',
  'exclude',
  'public',
  'access',
])
const TRIGGER_KEYS = new Set(['project', 'branch', 'strategy', 'include', 'forward', 'inputs'])

/** A script entry: a string or a nested array of strings, flattened (`Entry::Commands`). */
export function commands(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value]
  if (!Array.isArray(value)) return undefined
  const out: string[] = []
  for (const v of value) {
    const inner = typeof v === 'number' || typeof v === 'boolean' ? [String(v)] : commands(v)
    if (!inner) return undefined
    out.push(...inner)
  }
  return out
}

/** `variables:` as strings: plain values, or `{ value, description, options, expand }` (`Entry::Variables`). */
export function variableValues(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {}
  if (!isHash(value))
    throw new Error(`${where} config should be a hash of key value pairs, value can be a hash`)
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(value)) {
    if (isHash(v)) out[k] = v.value === undefined || v.value === null ? '' : String(v.value)
    // A boolean (`yes`, `true` unquoted) is refused, as GitLab's `VariablesValidator` refuses it.
    else if (typeof v === 'string' || typeof v === 'number') out[k] = String(v)
    else if (v === null) out[k] = ''
    else throw new Error(`${where} config should be a hash of key value pairs, value can be a hash`)
  }
  return out
}

function checkRules(rules: unknown, where: string, allowedWhen: string[]): CiRule[] {
  if (!Array.isArray(rules)) throw new Error(`${where} config should be an array of hashes`)
  return rules.map((raw) => {
    const at = `${where}:rule`
    if (!isHash(raw)) throw new Error(`${at} config should be a hash`)
    const bad = Object.keys(raw).filter((k) => !RULE_KEYS.has(k))
    if (bad.length) throw new Error(`${at} config contains unknown keys: ${bad.join(', ')}`)
    if (raw.if !== undefined && (typeof raw.if !== 'string' || !isValidExpression(raw.if)))
      throw new Error(`${at} if invalid expression syntax`)
    if (raw.when !== undefined && (typeof raw.when !== 'string' || !allowedWhen.includes(raw.when)))
      throw new Error(`${at} when unknown value: ${String(raw.when)}`)
    if (raw.allow_failure !== undefined && typeof raw.allow_failure !== 'boolean')
      throw new Error(`${at} allow_failure should be a boolean value`)
    if (raw.when === 'delayed' && startInSeconds(raw.start_in) === undefined)
      throw new Error(`${at} start in should be a duration`)
    const rule: CiRule = { variables: variableValues(raw.variables, `${at}:variables`) }
    if (typeof raw.if === 'string') rule.if = raw.if
    if (typeof raw.when === 'string') rule.when = raw.when
    if (typeof raw.allow_failure === 'boolean') rule.allow_failure = raw.allow_failure
    if (raw.start_in !== undefined) rule.start_in = String(raw.start_in)
    if (Array.isArray(raw.needs)) rule.needs = needNames(raw.needs).names
    const exists = ruleGlobs(raw.exists, 'project')
    if (exists) rule.exists = exists
    const changes = ruleGlobs(raw.changes, 'compare_to')
    if (changes) rule.changes = changes
    return rule
  })
}

/** `workflow:rules` (`Entry::Workflow`): `when` only `always` or `never`. */
export function workflowRules(workflow: unknown): CiRule[] | undefined {
  if (workflow === undefined || workflow === null) return undefined
  if (!isHash(workflow)) throw new Error('workflow config should be a hash')
  const bad = Object.keys(workflow).filter((k) => !['rules', 'name', 'auto_cancel'].includes(k))
  if (bad.length) throw new Error(`workflow config contains unknown keys: ${bad.join(', ')}`)
  return workflow.rules === undefined
    ? undefined
    : checkRules(workflow.rules, 'workflow:rules', ['always', 'never'])
}

function needNames(needs: unknown[]): { names: string[]; optional: string[] } {
  const names: string[] = []
  const optional: string[] = []
  for (const n of needs) {
    if (typeof n === 'string') names.push(n)
    // A job of another pipeline (`needs:pipeline:job`, a parent's artifacts; `needs:project`) is no job
    // of this one: GitLab does not wait for it, and the emulator passes no artifacts between jobs.
    else if (isHash(n) && ('pipeline' in n || 'project' in n)) continue
    else if (isHash(n) && typeof n.job === 'string') {
      names.push(n.job)
      if (n.optional === true) optional.push(n.job)
    }
  }
  return { names, optional }
}

function allowFailure(value: unknown, where: string): JobDefinition['allow_failure'] {
  if (typeof value === 'boolean') return value
  if (isHash(value) && Object.keys(value).length === 1 && 'exit_codes' in value) {
    const codes = Array.isArray(value.exit_codes) ? value.exit_codes : [value.exit_codes]
    if (codes.every((c) => Number.isInteger(c))) return { exit_codes: codes as number[] }
  }
  throw new Error(`${where} allow failure should be a hash or a boolean value`)
}

function artifacts(value: unknown, where: string): JobDefinition['artifacts'] {
  if (value === undefined || value === null) return undefined
  const at = `${where}:artifacts`
  if (!isHash(value)) throw new Error(`${at} config should be a hash`)
  const bad = Object.keys(value).filter((k) => !ARTIFACT_KEYS.has(k))
  if (bad.length) throw new Error(`${at} config contains unknown keys: ${bad.join(', ')}`)
  const when = value.when ?? 'on_success'
  if (typeof when !== 'string' || !['on_success', 'on_failure', 'always'].includes(when))
    throw new Error(`${at} when should be on_success, on_failure or always`)
  const paths = value.paths === undefined ? [] : value.paths
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string'))
    throw new Error(`${at} paths should be an array of strings`)
  return {
    paths: paths as string[],
    when: when as 'on_success',
    ...(value.name !== undefined ? { name: String(value.name) } : {}),
    ...(value.expire_in !== undefined ? { expire_in: String(value.expire_in) } : {}),
  }
}

function trigger(value: unknown, where: string): NonNullable<JobDefinition['trigger']> {
  if (typeof value === 'string') return { project: value }
  const at = `${where}:trigger`
  if (!isHash(value)) throw new Error(`${at} config should be a hash or a string`)
  const bad = Object.keys(value).filter((k) => !TRIGGER_KEYS.has(k))
  if (bad.length) throw new Error(`${at} config contains unknown keys: ${bad.join(', ')}`)
  if (value.strategy !== undefined && value.strategy !== 'depend')
    throw new Error(`${at} strategy should be depend`)
  if (value.project !== undefined && value.include !== undefined)
    throw new Error(`${at} config contains unknown keys: include`)
  if (value.project === undefined && value.include === undefined)
    throw new Error(`${at} config must specify either project or include`)
  const out: NonNullable<JobDefinition['trigger']> = {}
  if (value.include !== undefined) {
    // `SameProjectTrigger::INCLUDE_MAX_SIZE`: a child pipeline is made of three files at most.
    if (Array.isArray(value.include) && value.include.length > 3)
      throw new Error(`${at}:include config is too long (maximum is 3)`)
    const list = Array.isArray(value.include) ? value.include : [value.include]
    // Kept as written: the child's configuration includes them (`Ci::Bridge#yaml_for_downstream`).
    out.include = list.map((i) => {
      if (typeof i === 'string') return i
      // `Entry::Include`'s own check, worded from where it sits (`...:include:include`).
      if (isHash(i) && i.artifact !== undefined && (i.job === undefined || i.job === null || i.job === ''))
        throw new Error(`${at}:include:include config must specify the job where to fetch the artifact from`)
      if (isHash(i) && ['local', 'project', 'remote', 'artifact'].some((k) => k in i)) return i
      throw new Error(
        `${at}:include the emulator starts child pipelines from local, project, remote and artifact files only`,
      )
    })
  }
  if (typeof value.project === 'string') out.project = value.project
  if (value.branch !== undefined) out.branch = String(value.branch)
  if (value.strategy === 'depend') out.strategy = 'depend'
  const forward = isHash(value.forward) ? value.forward : {}
  out.forward = {
    yaml_variables: forward.yaml_variables !== false,
    pipeline_variables: forward.pipeline_variables === true,
  }
  return out
}

/** Defaults a job inherits (`default:` or the deprecated top-level keys). */
export interface JobDefaults {
  before_script?: string[]
  after_script?: string[]
  artifacts?: unknown
}

/** The keys `default:` may hold (`Entry::Default::ALLOWED_KEYS`), which `inherit:default` may list. */
export const DEFAULT_KEYS = [
  'before_script',
  'after_script',
  'image',
  'services',
  'cache',
  'interruptible',
  'retry',
  'tags',
  'timeout',
  'artifacts',
  'hooks',
  'id_tokens',
  'identity',
]

/** One `inherit:` entry (`Entry::Inherit::Default`, `::Variables`): `true`, `false` or a list of names. */
function inheritance(value: unknown, at: string, allowed?: string[]): boolean | string[] {
  if (value === undefined || value === null) return true
  if (typeof value === 'boolean') return value
  if (!Array.isArray(value)) throw new Error(`${at} should be a bool or array of strings`)
  if (value.some((v) => typeof v !== 'string')) throw new Error(`${at} config should be an array of strings`)
  const unknown = allowed ? (value as string[]).filter((v) => !allowed.includes(v)) : []
  if (unknown.length) throw new Error(`${at} config contains unknown values: ${unknown.join(', ')}`)
  return value as string[]
}

/** `inherit:` (`Entry::Inherit`): the defaults the job keeps, and which top-level variables it sees. */
function inherit(
  value: unknown,
  where: string,
  defaults: JobDefaults,
): { defaults: JobDefaults; variables: boolean | string[] } {
  if (value === undefined || value === null) return { defaults, variables: true }
  const at = `${where}:inherit`
  if (!isHash(value)) throw new Error(`${at} config should be a hash`)
  const bad = Object.keys(value).filter((k) => k !== 'default' && k !== 'variables')
  if (bad.length) throw new Error(`${at} config contains unknown keys: ${bad.join(', ')}`)
  const keep = inheritance(value.default, `${at}:default`, DEFAULT_KEYS)
  const variables = inheritance(value.variables, `${at}:variables`)
  if (keep === true) return { defaults, variables }
  const kept = Object.entries(defaults).filter(([k]) => keep !== false && keep.includes(k))
  return { defaults: Object.fromEntries(kept) as JobDefaults, variables }
}

/**
 * Checks one visible job and resolves it; throws an `Error` whose message is GitLab's.
 * `stage` defaults to `test`; `before_script`, `after_script` and `artifacts` come from `defaults` when the
 * job has none and its `inherit:default` keeps them.
 */
export function compileJob(name: string, raw: unknown, allDefaults: JobDefaults): CompiledJob {
  const isBridge = isHash(raw) && 'trigger' in raw && !('script' in raw)
  if (!isHash(raw) || !('script' in raw || 'run' in raw || 'trigger' in raw))
    throw new Error(`jobs ${name} config should implement the script:, run:, or trigger: keyword`)
  const where = `jobs:${name}`
  const allowed = isBridge ? BRIDGE_KEYS : JOB_KEYS
  const bad = Object.keys(raw).filter((k) => !allowed.has(k))
  if (bad.length) throw new Error(`${where} config contains unknown keys: ${bad.join(', ')}`)
  const { defaults, variables: inheritVariables } = inherit(raw.inherit, where, allDefaults)
  if ('rules' in raw) {
    const clash = ['only', 'except'].filter((k) => k in raw)
    if (clash.length)
      throw new Error(`${where} config key may not be used with \`rules\`: ${clash.join(', ')}`)
  }
  const whens = isBridge ? BRIDGE_WHEN : JOB_WHEN
  if (raw.when !== undefined && (typeof raw.when !== 'string' || !whens.includes(raw.when)))
    throw new Error(`${where} when should be one of: ${whens.join(', ')}`)
  if (raw.when === 'delayed' && startInSeconds(raw.start_in) === undefined)
    throw new Error(`${where} start in should be a duration`)
  if (raw.start_in !== undefined && raw.when !== 'delayed' && !('rules' in raw))
    throw new Error(`${where} start in must be blank`)
  const script = raw.script === undefined ? [] : commands(raw.script)
  if (!script)
    throw new Error(
      `${where}:script config should be a string or a nested array of strings up to 10 levels deep`,
    )
  const before =
    raw.before_script === undefined ? (defaults.before_script ?? []) : commands(raw.before_script)
  if (!before)
    throw new Error(
      `${where}:before_script config should be a string or a nested array of strings up to 10 levels deep`,
    )
  const after = raw.after_script === undefined ? (defaults.after_script ?? []) : commands(raw.after_script)
  if (!after)
    throw new Error(
      `${where}:after_script config should be a string or a nested array of strings up to 10 levels deep`,
    )
  if (raw.stage !== undefined && typeof raw.stage !== 'string')
    throw new Error(`${where}:stage config should be a string`)
  if (raw.needs !== undefined && !Array.isArray(raw.needs))
    throw new Error(`${where}:needs config can only be a hash or an array`)
  const needs = Array.isArray(raw.needs) ? needNames(raw.needs) : undefined
  const when = (typeof raw.when === 'string' ? raw.when : 'on_success') as JobDefinition['when']
  const definition: JobDefinition = {
    script: isBridge ? [] : [...before, ...script],
    after_script: isBridge ? [] : after,
    when,
    allow_failure:
      raw.allow_failure === undefined ? when === 'manual' : allowFailure(raw.allow_failure, where),
    needs: needs ? needs.names : null,
    variables: variableValues(raw.variables, `${where}:variables`),
  }
  if (raw.start_in !== undefined) definition.start_in = String(raw.start_in)
  if (raw.environment !== undefined && raw.environment !== null)
    definition.environment = jobEnvironment(raw.environment, where)
  if (!isBridge && raw.coverage !== undefined && raw.coverage !== null)
    definition.coverage = coverageRegex(raw.coverage, where)
  const declared = isBridge ? undefined : artifacts(raw.artifacts ?? defaults.artifacts, where)
  if (declared) definition.artifacts = declared
  if (isBridge) definition.trigger = trigger(raw.trigger, where)
  const job: CompiledJob = {
    name,
    stage: typeof raw.stage === 'string' ? raw.stage : 'test',
    bridge: isBridge,
    whenSet: raw.when !== undefined,
    allowFailureSet: raw.allow_failure !== undefined,
    optionalNeeds: needs?.optional ?? [],
    ...(inheritVariables === true ? {} : { inheritVariables }),
    definition,
  }
  if (raw.rules !== undefined) job.rules = checkRules(raw.rules, `${where}:rules`, RULE_WHEN)
  if (raw.only !== undefined) job.only = checkPolicy(raw.only, `${where}:only`, true)
  if (raw.except !== undefined) job.except = checkPolicy(raw.except, `${where}:except`, false)
  return job
}
