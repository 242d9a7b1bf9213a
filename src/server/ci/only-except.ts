import { evaluate, isValidExpression, regexp } from './expressions.js'
import { isHash } from './yaml-documents.js'

/*
 * `only`/`except` (`lib/gitlab/ci/config/entry/policy.rb`, `lib/gitlab/ci/build/policy/refs.rb`,
 * `variables.rb`, `changes.rb`, `kubernetes.rb`; `Build::Seed#included?`): a job is in the pipeline when
 * every part of `only` is satisfied and no part of `except` is. A job with neither (and no `rules`) has
 * `only: [branches, tags]`, unless the configuration has `workflow:rules` (`Entry::Processable#compose!`
 * drops the defaults there); an `only` hash without `refs` takes those refs (`Policy#value` deep-merges).
 */

export interface Policy {
  refs?: string[]
  variables?: string[]
  changes?: string[]
  kubernetes?: string
}

/** The parts of a pipeline the policies look at. */
export interface PolicyContext {
  ref: string
  tag: boolean
  source: string
  projectPath: string
  /** What `variables:` expressions see. */
  variables: Record<string, string>
  /** `Policy::Changes`, as `rules:changes` matches. */
  changesMatch(globs: string[]): boolean
}

export const DEFAULT_ONLY: Policy = { refs: ['branches', 'tags'] }
const POLICY_KEYS = ['refs', 'kubernetes', 'variables', 'changes']
const REFS_MESSAGE = 'should be an array of strings or regular expressions using re2 syntax'
const PATTERN = /^\/(.+)\/([ismU]*)$/

const stringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string')

/** `ArrayOfStringsOrRegexpsValidator`: strings, and `/.../` ones must compile. */
function validRefs(value: unknown): value is string[] {
  if (!stringArray(value)) return false
  return value.every((v) => {
    const m = PATTERN.exec(v)
    if (!m) return true
    try {
      regexp(m[1] ?? '', m[2] ?? '')
      return true
    } catch {
      return false
    }
  })
}

/** Checks `only` or `except` (`where` is `jobs:build:only`) and answers it; throws GitLab's message. */
export function checkPolicy(raw: unknown, where: string, isOnly: boolean): Policy {
  const withDefault = (p: Policy): Policy => (isOnly && p.refs === undefined ? { ...DEFAULT_ONLY, ...p } : p)
  if (Array.isArray(raw)) {
    if (!validRefs(raw)) throw new Error(`${where} config ${REFS_MESSAGE}`)
    return { refs: raw }
  }
  if (!isHash(raw)) throw new Error(`${where} has to be either an array of conditions or a hash`)
  if (Object.keys(raw).length === 0) throw new Error(`${where} config can't be blank`)
  const bad = Object.keys(raw).filter((k) => !POLICY_KEYS.includes(k))
  if (bad.length) throw new Error(`${where} config contains unknown keys: ${bad.join(', ')}`)
  const policy: Policy = {}
  if (raw.refs != null) {
    if (!validRefs(raw.refs)) throw new Error(`${where} refs ${REFS_MESSAGE}`)
    policy.refs = raw.refs
  }
  if (raw.kubernetes != null) {
    if (raw.kubernetes !== 'active')
      throw new Error(`${where} kubernetes unknown value: ${String(raw.kubernetes)}`)
    policy.kubernetes = 'active'
  }
  if (raw.variables != null) {
    if (!stringArray(raw.variables)) throw new Error(`${where} variables should be an array of strings`)
    if (!raw.variables.every(isValidExpression))
      throw new Error(`${where} variables Invalid expression syntax`)
    policy.variables = raw.variables
  }
  if (raw.changes != null) {
    if (!stringArray(raw.changes)) throw new Error(`${where} changes should be an array of strings`)
    policy.changes = raw.changes
  }
  return withDefault(policy)
}

/** `Policy::Refs#matches_pattern?`: `branches`, `tags`, the source (or its plural), a `/regexp/`, a name. */
function refMatches(pattern: string, ctx: PolicyContext): boolean {
  if (ctx.tag && pattern === 'tags') return true
  if (!ctx.tag && pattern === 'branches') return true
  const source = ctx.source.replace(/_event$/, '')
  if (pattern === source || pattern === plural(source)) return true
  const m = PATTERN.exec(pattern)
  if (!m) return pattern === ctx.ref
  try {
    return regexp(m[1] ?? '', m[2] ?? '').test(ctx.ref)
  } catch {
    return false
  }
}

/** ActiveSupport's `pluralize` for the sources there are: `push` → `pushes`, `schedule` → `schedules`. */
const plural = (word: string) => (/(sh|ch|s|x)$/.test(word) ? `${word}es` : `${word}s`)

const expressionHolds = (text: string, vars: Record<string, string>) => {
  try {
    return evaluate(text, vars)
  } catch {
    return false
  }
}

/**
 * The parts of a policy, each a `Policy::Specification`: `refs` (`pattern@project/path` limits a pattern
 * to one project), `variables` (any expression true), `changes` (a push's changed paths), `kubernetes`
 * (never: the emulator has no cluster).
 */
function parts(policy: Policy, ctx: PolicyContext): boolean[] {
  const out: boolean[] = []
  if (policy.refs)
    out.push(
      policy.refs.some((entry) => {
        const at = entry.indexOf('@')
        const [pattern, path] = at < 0 ? [entry, undefined] : [entry.slice(0, at), entry.slice(at + 1)]
        return (path === undefined || path === ctx.projectPath) && refMatches(pattern, ctx)
      }),
    )
  if (policy.variables) out.push(policy.variables.some((v) => expressionHolds(v, ctx.variables)))
  if (policy.changes) out.push(ctx.changesMatch(policy.changes))
  if (policy.kubernetes) out.push(false)
  return out
}

/** `Build::Seed#included?` for a job without `rules`: all of `only`, none of `except`. */
export function policyIncludes(
  only: Policy | undefined,
  except: Policy | undefined,
  ctx: PolicyContext,
): boolean {
  if (only && !parts(only, ctx).every(Boolean)) return false
  return !(except && parts(except, ctx).some(Boolean))
}
