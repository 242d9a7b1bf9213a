import { Document } from 'yaml'
import type { CiLintCreate, CiLintInclude, CiLintJob, CiLintQuery, CiLintResult } from '../../schema/index.js'
import { configWarnings, lintCiConfig, type CompiledConfig } from '../ci/config.js'
import {
  CiConfigError,
  type CiFileReader,
  type FileContext,
  type IncludedFile,
  type IncludeSources,
} from '../ci/config-merge.js'
import type { JobDefinition } from '../ci/job-definition.js'
import { commands, type CompiledJob } from '../ci/job-entry.js'
import { DEFAULT_ONLY } from '../ci/only-except.js'
import type { PipelinePlan } from '../ci/pipeline-plan.js'
import { isHash } from '../ci/yaml-documents.js'
import { readFileAt } from '../git/read-file.js'
import { forbidden, notFound } from '../grape/gitlab-errors.js'
import type { RemoteInclude, RemoteIncludeFetcher } from '../jobs/remote-includes.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, writable, type Actor } from './access.js'
import { ciAbilities, downloadsCode } from './ci-access.js'
import {
  CI_CONFIG_PATH,
  commitOf,
  includeVariables,
  planCompiled,
  projectFiles,
  RemoteIncludeNeeded,
} from './ci-plans.js'
import type { ServiceContext } from './context.js'
import { resolveRef, type ResolvedRef } from './refs.js'

/*
 * The CI Lint API (`lib/api/lint.rb`, `Gitlab::Ci::Lint#legacy_validate`: the static check, or with
 * `dry_run` a simulated push pipeline): a configuration compiled in a project's context (its
 * `include: local` files from a commit, `include: project` as the caller may read, `include: remote`
 * fetched), answered as `Entities::Ci::Lint::Result`. Nothing is stored.
 */

export interface CiLintService {
  /** `POST /projects/:id/ci/lint`: `create_pipeline` (403), the content checked against the default branch's head. */
  lintContent(actor: Actor, p: ProjectRow, params: CiLintCreate): Promise<CiLintResult>
  /** `GET /projects/:id/ci/lint`: `read_code` (403), the project's `.gitlab-ci.yml` at `content_ref`. */
  lintProject(actor: Actor, p: ProjectRow, params: CiLintQuery): Promise<CiLintResult>
}

export function ciLintService(ctx: ServiceContext, fetchRemote: RemoteIncludeFetcher): CiLintService {
  const { store, access, instance } = ctx

  /** The compiled result and what it read, with each remote include fetched once (compiled again after). */
  async function lint(
    actor: Actor,
    p: ProjectRow,
    text: string,
    sha: string | undefined,
    variables: () => Readonly<Record<string, string>>,
  ) {
    const remotes = new Map<string, RemoteInclude>()
    const fileUrl = (at: FileContext, kind: 'blob' | 'raw', path: string) =>
      `${instance.baseUrl}/${at.project}/-/${kind}/${at.sha}/${path}`
    const own = sha === undefined ? undefined : { project: p.full_path, sha }
    /** `File::Base#metadata`: a file is listed by its own project and commit, in its includer's context. */
    const listed = (file: IncludedFile): CiLintInclude => {
      const from = file.type === 'remote' ? undefined : (file.from ?? own)
      const context = file.context ?? own
      return {
        type: file.type,
        location: file.location,
        blob: from ? fileUrl(from, 'blob', file.location) : null,
        raw: file.type === 'remote' ? file.location : from ? fileUrl(from, 'raw', file.location) : null,
        extra: file.extra ?? {},
        context_project: context?.project ?? p.full_path,
        context_sha: context?.sha ?? null,
      }
    }
    const read: CiFileReader = (path) =>
      sha === undefined ? undefined : readFileAt(store, sha, path)?.toString('utf8')
    for (;;) {
      const includes: CiLintInclude[] = []
      const sources: IncludeSources = {
        projects: projectFiles(store, access, actor),
        remote: (url) => {
          const fetched = remotes.get(url)
          if (!fetched) throw new RemoteIncludeNeeded(url)
          if ('error' in fetched) throw new CiConfigError(fetched.error)
          return fetched.text
        },
        variables,
        included: (file) => void includes.push(listed(file)),
      }
      try {
        return { ...lintCiConfig(text, read, sources), includes }
      } catch (err) {
        if (!(err instanceof RemoteIncludeNeeded)) throw err
        remotes.set(err.url, await fetchRemote(err.url))
      }
    }
  }

  /** `create_pipeline`: an active Developer, the project not archived, the pipeline abilities left to them. */
  const createsPipeline = (actor: Actor, p: ProjectRow) =>
    actor.user !== null &&
    actor.user.state === 'active' &&
    writable(p) &&
    access.atLeast(actor, p, Level.developer) &&
    ciAbilities(store, access, actor, p).pipelines

  /** A result with nothing merged (the pipeline simulation stopped before the configuration). */
  const refused = (message: string, includeJobs: boolean | undefined): CiLintResult => ({
    valid: false,
    errors: [message],
    warnings: [],
    merged_yaml: null,
    includes: null,
    ...(includeJobs ? { jobs: [] } : {}),
  })

  /**
   * `legacy_validate`: the static check with the files of `at.sha` (a commit of `at.ref`, what include
   * locations see as `CI_COMMIT_REF_NAME`; never a tag pipeline), or with `dryRunRef` a push pipeline of
   * that ref simulated (`Ci::CreatePipelineService` with `dry_run`), its local includes read at the ref.
   */
  async function answer(
    actor: Actor,
    p: ProjectRow,
    text: string,
    at: { sha: string | undefined; ref: string },
    includeJobs: boolean | undefined,
    dryRunRef?: string,
  ): Promise<CiLintResult> {
    let ref: ResolvedRef | undefined
    if (dryRunRef !== undefined) {
      // `Chain::Validate::Abilities` and `Chain::Validate::Repository`, before the configuration is read.
      if (!createsPipeline(actor, p))
        return refused('Insufficient permissions to create a new pipeline', includeJobs)
      const found = resolveRef(store, p.id, dryRunRef)
      if (found === 'ambiguous') return refused('Ref is ambiguous', includeJobs)
      if (found === undefined) return refused('Reference not found', includeJobs)
      ref = found
    }
    const input = ref
      ? {
          project: p,
          userId: actor.user?.id ?? null,
          ref: ref.name,
          sha: ref.sha,
          tag: ref.kind === 'tag',
          source: 'push',
          variables: [],
        }
      : undefined
    let known: Record<string, string> | undefined
    const staticVariables = () => {
      // The static check's pipeline has no source.
      const { CI_PIPELINE_SOURCE: _none, ...rest } = includeVariables(store, {
        project: p,
        ref: at.ref,
        sha: at.sha ?? '',
        tag: false,
        source: '',
        variables: [],
      })
      return rest
    }
    const variables = () => (known ??= input ? includeVariables(store, input) : staticVariables())
    const { result, expanded, includes } = await lint(actor, p, text, ref ? ref.sha : at.sha, variables)
    let errors = 'errors' in result ? result.errors : []
    let jobs: CiLintJob[] = []
    if ('config' in result && expanded) {
      if (input) {
        const planned = planCompiled(store, input, result.config)
        if (planned.kind === 'plan') jobs = plannedJobs(planned.plan, expanded)
        else if (planned.kind === 'error') errors = [planned.message]
      } else jobs = staticJobs(result.config, expanded)
    }
    return {
      valid: errors.length === 0,
      errors,
      warnings: expanded ? configWarnings(expanded) : [],
      merged_yaml: expanded ? toYaml(expanded) : null,
      includes: expanded ? includes : null,
      ...(includeJobs ? { jobs } : {}),
    }
  }

  /** The default branch's head (`repository.root_ref_sha`); undefined for an empty repository. */
  const headOf = (p: ProjectRow) => (p.default_branch ? commitOf(store, p, p.default_branch) : undefined)

  return {
    lintContent(actor, p, params) {
      if (!createsPipeline(actor, p)) throw forbidden()
      const dryRunRef = params.dry_run ? (params.ref ?? p.default_branch ?? '') : undefined
      const at = { sha: headOf(p), ref: p.default_branch ?? '' }
      return answer(actor, p, params.content, at, params.include_jobs, dryRunRef)
    },

    lintProject(actor, p, params) {
      if (!downloadsCode(store, access, actor, p)) throw forbidden()
      const head = headOf(p)
      if (head === undefined) throw notFound('Repository')
      const wanted = params.content_ref ?? params.sha
      const sha = wanted === undefined ? head : commitOf(store, p, wanted)
      if (sha === undefined) throw notFound('Commit')
      const text = readFileAt(store, sha, CI_CONFIG_PATH)?.toString('utf8') ?? ''
      const dryRunRef = params.dry_run
        ? (params.dry_run_ref ?? params.ref ?? p.default_branch ?? '')
        : undefined
      // `Gitlab::Ci::Lint`'s ref: the branch or tag asked for, else the default branch.
      const named = wanted === undefined ? undefined : resolveRef(store, p.id, wanted)
      const at = { sha, ref: typeof named === 'object' ? named.name : (p.default_branch ?? '') }
      return answer(actor, p, text, at, params.include_jobs, dryRunRef)
    },
  }
}

/**
 * `Hash#to_yaml` as Psych writes it: a `---` document, YAML 1.1 (strings such as `yes`, `on`, `1` in single
 * quotes, so that GitLab reads the text back as the same strings), sequences not indented under their key,
 * `nil` as nothing. Long strings are folded where the `yaml` package folds them, not where Psych does.
 */
function toYaml(config: Record<string, unknown>): string {
  const doc = new Document(config, { version: '1.1' })
  return `---\n${doc.toString({ indentSeq: false, singleQuote: true, nullStr: '' })}`
}

/** Finds a job's hash in the expanded configuration; `parallel` jobs by the name they were expanded from. */
function rawJob(expanded: Record<string, unknown>, name: string): Record<string, unknown> {
  const candidates = [name, name.replace(/ \d+\/\d+$/, ''), name.replace(/: \[.*\]$/, '')]
  for (const c of candidates) {
    const value = expanded[c]
    if (isHash(value)) return value
  }
  return {}
}

/** The fields both job lists share: scripts and tags as written, `when` and `allow_failure` as compiled. */
function jobCore(expanded: Record<string, unknown>, name: string, stage: string, definition: JobDefinition) {
  const defaults = isHash(expanded.default) ? expanded.default : {}
  const raw = rawJob(expanded, name)
  const script = (key: 'before_script' | 'after_script') =>
    commands(raw[key] ?? defaults[key] ?? expanded[key]) ?? []
  const env = raw.environment
  return {
    raw,
    job: {
      name,
      stage,
      before_script: script('before_script'),
      script: commands(raw.script) ?? [],
      after_script: script('after_script'),
      tag_list: Array.isArray(raw.tags) ? raw.tags.map(String) : [],
      environment:
        typeof env === 'string' ? env : isHash(env) && typeof env.name === 'string' ? env.name : null,
      when: definition.when,
      allow_failure: definition.allow_failure === true,
    },
  }
}

/** `Gitlab::Ci::Lint#yaml_processor_result_to_jobs`: by stage, then in the file's order. */
function staticJobs(config: CompiledConfig, expanded: Record<string, unknown>): CiLintJob[] {
  const ruled = config.workflow !== undefined
  const one = (compiled: CompiledJob): CiLintJob => {
    const { raw, job } = jobCore(expanded, compiled.name, compiled.stage, compiled.definition)
    const needs = compiled.definition.needs
    const written = Array.isArray(raw.needs) ? raw.needs : []
    const artifacts = (name: string) =>
      !written.some((n) => isHash(n) && n.job === name && n.artifacts === false)
    return {
      ...job,
      only: (compiled.only ?? (ruled || compiled.rules ? null : DEFAULT_ONLY)) as CiLintJob['only'],
      except: (compiled.except ?? null) as CiLintJob['except'],
      needs:
        needs === null
          ? null
          : needs.map((name) => ({
              name,
              artifacts: artifacts(name),
              optional: compiled.optionalNeeds.includes(name),
            })),
    }
  }
  return config.stages.flatMap((stage) => config.jobs.filter((j) => j.stage === stage).map(one))
}

/** `Gitlab::Ci::Lint#dry_run_convert_to_jobs`: the simulated pipeline's jobs, without only, except, needs. */
const plannedJobs = (plan: PipelinePlan, expanded: Record<string, unknown>): CiLintJob[] =>
  plan.jobs.map((j) => jobCore(expanded, j.name, j.stage, j.definition).job)
