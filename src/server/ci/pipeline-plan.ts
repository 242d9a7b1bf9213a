import type { CompiledConfig } from './config.js'
import { expandExistingVariables, expandVariables } from './expand-variables.js'
import { evaluate } from './expressions.js'
import { fnmatch } from './fnmatch.js'
import type { JobDefinition } from './job-definition.js'
import type { CiRule } from './job-entry.js'
import { DEFAULT_ONLY, policyIncludes } from './only-except.js'

/*
 * What one pipeline runs of a compiled configuration (`Gitlab::Ci::Pipeline::Chain::EvaluateWorkflowRules`,
 * `Seed::Build#included?`, `Chain::Populate`): `workflow:rules` decide whether there is a pipeline at all,
 * each job's `rules` whether it is in it and with which `when`, `allow_failure`, `start_in` and variables,
 * or its `only`/`except` (ci/only-except.ts) whether it is in it.
 * `exists:` looks at the commit's files, `changes:` at what a push changed (RuleFacts).
 */

export interface PlannedJob {
  name: string
  stage: string
  /** The stage's position among the configuration's stages (`.pre` is 0). */
  stageIndex: number
  bridge: boolean
  definition: JobDefinition
}

export interface PipelinePlan {
  stages: string[]
  /** In GitLab's order: by stage, then as written. */
  jobs: PlannedJob[]
  /** Variables `workflow:rules` added to the pipeline. */
  variables: Record<string, string>
}

export const WORKFLOW_FILTERED = 'Pipeline filtered out by workflow rules.'
export const NO_JOBS =
  'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.'

/** What `exists:` and `changes:` look at; without them both match. */
export interface RuleFacts {
  /** The paths of the pipeline commit's files. */
  files(): string[]
  /**
   * The paths a push changed (`Ci::Pipeline#modified_paths`); undefined where GitLab has none (not a
   * push, a new branch, a tag), and then `changes` matches.
   */
  changed(): string[] | undefined
}

/** `Clause::Exists::MAX_PATTERN_COMPARISONS`: past this many comparisons `exists` counts as matched. */
const MAX_PATTERN_COMPARISONS = 10_000

/** `Clause::Changes`: a changed path matches a glob, or there is nothing to compare. */
export function changesMatch(globs: string[], facts: RuleFacts | undefined): boolean {
  const changed = facts?.changed()
  return !changed || changed.some((path) => globs.some((glob) => fnmatch(glob, path)))
}

/** `Clause::Exists`: a file of the commit matches a glob. */
function existsMatch(globs: string[], facts: RuleFacts | undefined): boolean {
  if (!facts) return true
  const files = facts.files()
  if (files.length * globs.length > MAX_PATTERN_COMPARISONS) return true
  return globs.some((glob) => files.some((path) => fnmatch(glob, path)))
}

/** All of a rule's clauses; an expression that cannot be evaluated (a broken pattern) does not match. */
function matches(rule: CiRule, vars: Record<string, string>, facts?: RuleFacts): boolean {
  try {
    if (rule.if !== undefined && !evaluate(rule.if, vars)) return false
  } catch {
    return false
  }
  if (rule.changes && !changesMatch(rule.changes.map(expanding(vars)), facts)) return false
  return !rule.exists || existsMatch(rule.exists.map(expanding(vars)), facts)
}

/** Globs in `rules:changes` / `rules:exists` with the variables that are defined expanded. */
const expanding = (vars: Record<string, string>) => (glob: string) => expandExistingVariables(glob, vars)

/**
 * Plans a pipeline; `variables` are what its expressions see: the predefined ones (`CI_PIPELINE_SOURCE`,
 * `CI_COMMIT_REF_NAME`, ...) under the pipeline's own (trigger or API variables win over the YAML's).
 * Answers the plan or GitLab's error (`Pipeline filtered out by workflow rules.`).
 */
export function planPipeline(
  config: CompiledConfig,
  predefined: Record<string, string>,
  pipelineVariables: Record<string, string>,
  facts?: RuleFacts,
): { plan: PipelinePlan } | { error: string } {
  let globals = { ...predefined, ...config.variables, ...pipelineVariables }
  const added: Record<string, string> = {}
  if (config.workflow) {
    const rule = config.workflow.find((r) => matches(r, globals, facts))
    if (!rule || rule.when === 'never') return { error: WORKFLOW_FILTERED }
    Object.assign(added, rule.variables)
    globals = { ...predefined, ...config.variables, ...added, ...pipelineVariables }
  }
  const jobs: PlannedJob[] = []
  const roots = { ...config.variables, ...added }
  for (const job of config.jobs) {
    // The job sees the YAML's variables: the top-level ones and those of `workflow:rules` its
    // `inherit:variables` keeps (`Variables::Helpers.inherit_yaml_variables`), then its own.
    const kept = job.inheritVariables
    const inherited =
      kept === undefined
        ? roots
        : Object.fromEntries(Object.entries(roots).filter(([k]) => kept && kept.includes(k)))
    const definition: JobDefinition = {
      ...job.definition,
      variables: { ...inherited, ...job.definition.variables },
    }
    const seen = { ...predefined, ...inherited, ...job.definition.variables, ...pipelineVariables }
    if (!job.rules) {
      const only = job.only ?? (config.workflow ? undefined : DEFAULT_ONLY)
      const context = {
        ref: predefined.CI_COMMIT_REF_NAME ?? '',
        tag: predefined.CI_COMMIT_TAG !== undefined,
        source: predefined.CI_PIPELINE_SOURCE ?? '',
        projectPath: predefined.CI_PROJECT_PATH ?? '',
        variables: seen,
        changesMatch: (globs: string[]) => changesMatch(globs, facts),
      }
      if (!policyIncludes(only, job.except, context)) continue
    } else {
      const rule = job.rules.find((r) => matches(r, seen, facts))
      if (!rule || rule.when === 'never') continue
      const when = (rule.when ?? (job.whenSet ? job.definition.when : 'on_success')) as JobDefinition['when']
      definition.when = when
      // Manual jobs from rules do not allow failure unless told (`Seed::Build#rules_attributes`).
      definition.allow_failure =
        rule.allow_failure ?? (job.allowFailureSet ? job.definition.allow_failure : false)
      if (rule.start_in !== undefined) definition.start_in = rule.start_in
      if (when !== 'delayed') delete definition.start_in
      Object.assign(definition.variables, rule.variables)
      if (rule.needs) definition.needs = rule.needs
    }
    if (definition.environment) {
      // `expanded_environment_name` and `expanded_auto_stop_in`: the job's variables (each expanded in
      // turn), unknown ones to nothing.
      const known: Record<string, string> = {
        CI_JOB_NAME: job.name,
        CI_JOB_STAGE: job.stage,
        ...predefined,
        ...definition.variables,
        ...pipelineVariables,
      }
      for (const [k, v] of Object.entries(known)) known[k] = expandExistingVariables(v, known)
      const { name, auto_stop_in: autoStopIn } = definition.environment
      definition.environment = {
        ...definition.environment,
        name: expandVariables(name, known),
        ...(autoStopIn === undefined ? {} : { auto_stop_in: expandVariables(autoStopIn, known) }),
      }
    }
    jobs.push({
      name: job.name,
      stage: job.stage,
      stageIndex: config.stages.indexOf(job.stage),
      bridge: job.bridge,
      definition,
    })
  }
  if (jobs.length === 0) return { error: NO_JOBS }
  const present = new Set(jobs.map((j) => j.name))
  for (const job of jobs) {
    const optional = config.jobs.find((j) => j.name === job.name)?.optionalNeeds ?? []
    const needs = job.definition.needs
    if (!needs) continue
    const missing = needs.find((n) => !present.has(n) && !optional.includes(n))
    if (missing)
      return {
        error:
          `'${job.name}' job needs '${missing}' job, but '${missing}' does not exist in the pipeline. ` +
          'This might be because of the only, except, or rules keywords. ' +
          'To need a job that sometimes does not exist in the pipeline, use needs:optional.',
      }
    job.definition.needs = needs.filter((n) => present.has(n))
  }
  jobs.sort((a, b) => a.stageIndex - b.stageIndex)
  return { plan: { stages: config.stages, jobs, variables: added } }
}
