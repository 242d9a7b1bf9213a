import { compileChildConfig, compileCiConfig, type CompiledConfig, type CompileResult } from '../ci/config.js'
import {
  type ArtifactFiles,
  CiConfigError,
  type IncludeSources,
  projectNotFound,
  type ProjectFiles,
} from '../ci/config-merge.js'
import { humanSize } from '../domain/human-size.js'
import type { RemoteInclude, RemoteIncludeFetcher } from '../jobs/remote-includes.js'
import { planPipeline, type PipelinePlan, type RuleFacts } from '../ci/pipeline-plan.js'
import { predefinedVariables, type PipelineFacts } from '../ci/predefined-variables.js'
import { filesOf, treeOfCommit, type FileEntry } from '../git/commit-files.js'
import { readFileAt } from '../git/read-file.js'
import { parseCommit } from '../git/trees.js'
import type { Store } from '../store/index.js'
import { Actor, type Access } from './access.js'
import { downloadsCode } from './ci-access.js'
import { resolveRef } from './refs.js'
import { refVariables } from '../store/ci-variables.js'
import type { VariableRow } from '../store/pipelines.js'
import type { ProjectRow } from '../store/projects.js'
import { oldestKeys } from '../domain/oldest-keys.js'

/** Where a pipeline's jobs come from: its `.gitlab-ci.yml`, the seed's `ci_jobs` shortcut, or nowhere. */
export type CiPlanOutcome =
  | { kind: 'plan'; plan: PipelinePlan }
  | { kind: 'shortcut' }
  /** GitLab refuses the pipeline; `yaml` marks a configuration error, which GitLab persists as failed. */
  | { kind: 'error'; message: string; yaml: boolean }

export interface CiPlanInput {
  project: ProjectRow
  /** Who runs the pipeline: `include: project` reads only what they may read. */
  userId: number | null
  ref: string
  sha: string
  tag: boolean
  source: string
  variables: VariableRow[]
  inputs?: Record<string, unknown>
  /** A child pipeline: these `trigger:include` entries instead of `.gitlab-ci.yml`. */
  childInclude?: unknown[]
  /** A child pipeline: its parent, whose jobs' artifacts `include: artifact` reads. */
  parent?: number
  /** A push's previous commit of the branch (`BLANK_SHA` for a new branch): what `changes:` compares with. */
  before?: string
  /** The `include: remote` files fetched for this pipeline (`fetchRemoteIncludes`), by URL. */
  remotes?: ReadonlyMap<string, RemoteInclude>
}

/** Planning met an `include: remote` not fetched yet: the caller fetches it and plans again. */
export class RemoteIncludeNeeded extends Error {
  constructor(readonly url: string) {
    super(`Remote file \`${url}\` was not fetched`)
  }
}

export const CI_CONFIG_PATH = '.gitlab-ci.yml'

/*
 * Compiled configurations by commit, child files and inputs: a commit's files never change (git objects
 * are content-addressed), and planning leaves a compiled configuration as it is, so pipelines of the same
 * commit (a poller triggering again, a child pipeline per parent) skip the YAML. A configuration that
 * read another project or a URL is not kept: what they hold moves, and what a user may read differs.
 * The oldest goes first.
 */
const compiledConfigs = new Map<string, CompileResult>()
const CACHED_CONFIGS = 32
const oldestOf = oldestKeys<string>()
function remember(key: string, compiled: CompileResult): void {
  if (compiledConfigs.size >= CACHED_CONFIGS) compiledConfigs.delete(oldestOf(compiledConfigs) as string)
  compiledConfigs.set(key, compiled)
}
export const MISSING_CONFIG = 'Missing CI config file'

/**
 * The plan of a new pipeline (`Ci::CreatePipelineService`'s chain: `Config::Content`, `Config::Process`,
 * `EvaluateWorkflowRules`, `Populate`): the `.gitlab-ci.yml` at the pipeline's commit, read with its
 * local includes from the same commit, its project includes as the pipeline's user may read them, and
 * its remote includes from `input.remotes` (one missing throws `RemoteIncludeNeeded`). A commit without
 * one falls back to the seed's `ci_jobs` shortcut when the project has `ci_config`, and is GitLab's
 * `Missing CI config file` otherwise.
 */
export function planFor(store: Store, access: Access, input: CiPlanInput): CiPlanOutcome {
  const read = (path: string) => readFileAt(store, input.sha, path)?.toString('utf8')
  const key = `${input.sha}\0${JSON.stringify(input.childInclude ?? null)}\0${JSON.stringify(input.inputs ?? {})}`
  let compiled = compiledConfigs.get(key)
  if (!compiled) {
    let external = false
    let variables: Record<string, string> | undefined
    const user = input.userId === null ? null : (store.users.get(input.userId) ?? null)
    const others = projectFiles(store, access, new Actor(user))
    const sources: IncludeSources = {
      projects: (path, ref) => {
        external = true
        return others(path, ref)
      },
      remote: (url) => {
        external = true
        const fetched = input.remotes?.get(url)
        if (!fetched) throw new RemoteIncludeNeeded(url)
        if ('error' in fetched) throw new CiConfigError(fetched.error)
        return fetched.text
      },
      variables: () => {
        external = true
        return (variables ??= includeVariables(store, input))
      },
    }
    const parent = input.parent
    if (parent !== undefined) {
      const read = artifactFiles(store, parent)
      sources.artifacts = (job, path) => {
        external = true
        return read(job, path)
      }
    }
    if (input.childInclude) compiled = compileChildConfig(input.childInclude, read, sources)
    else {
      const text = read(CI_CONFIG_PATH)
      if (text === undefined)
        return input.project.ci_config === 1
          ? { kind: 'shortcut' }
          : { kind: 'error', message: MISSING_CONFIG, yaml: false }
      compiled = compileCiConfig(text, read, input.inputs ?? {}, sources)
    }
    if (!external) remember(key, compiled)
  }
  if ('errors' in compiled)
    return { kind: 'error', message: compiled.errors[0] ?? 'Invalid configuration format', yaml: true }
  return planCompiled(store, input, compiled.config)
}

/**
 * The plan of a compiled configuration for `input`'s pipeline (`EvaluateWorkflowRules`, `Populate`): its
 * predefined variables, then `workflow:rules` and each job's `rules` or `only`/`except`.
 */
export function planCompiled(store: Store, input: CiPlanInput, config: CompiledConfig): CiPlanOutcome {
  // The instance's, groups' and project's variables under the pipeline's own, all over the YAML's.
  const own = Object.fromEntries(
    [...refVariables(store, input.project.id, input.ref, input.tag), ...input.variables]
      .filter((v) => v.variable_type !== 'file')
      .map((v) => [v.key, v.value]),
  )
  const planned = planPipeline(config, commitVariables(store, input), own, ruleFacts(store, input))
  return 'error' in planned
    ? { kind: 'error', message: planned.error, yaml: false }
    : { kind: 'plan', plan: planned.plan }
}

/** The predefined variables of `input`'s pipeline, with its commit's message and title. */
function commitVariables(store: Store, input: PipelineFacts): Record<string, string> {
  const predefined = predefinedVariables(input)
  const commit = store.gitObjects.get(input.sha)
  if (commit?.type === 'commit') {
    const message = parseCommit(commit.body).message
    predefined.CI_COMMIT_MESSAGE = message
    predefined.CI_COMMIT_TITLE = message.split('\n')[0] ?? ''
  }
  return predefined
}

/**
 * What `$VARIABLES` in `include` locations expand to (`Variables::Builder#config_variables`): the
 * predefined variables, the instance's, groups' and project's (protected ones on a protected ref only),
 * then the pipeline's own, file variables with their content.
 */
export function includeVariables(
  store: Store,
  input: PipelineFacts & { variables: readonly VariableRow[] },
): Record<string, string> {
  const vars = commitVariables(store, input)
  for (const v of refVariables(store, input.project.id, input.ref, input.tag)) vars[v.key] = v.value
  for (const v of input.variables) vars[v.key] = v.value
  return vars
}

/**
 * `include: project` (`External::File::Project`): the project's files at `ref` (a branch, a tag or a
 * commit; `HEAD` its default branch) for `actor`, who must be allowed `download_code` there.
 */
export function projectFiles(store: Store, access: Access, actor: Actor): ProjectFiles {
  return (path, ref) => {
    const project = store.projects.byPath(path)
    if (!project || !downloadsCode(store, access, actor, project)) throw projectNotFound(path)
    const sha = commitOf(store, project, ref)
    if (!sha) throw new CiConfigError(`Project \`${path}\` reference \`${ref}\` does not exist!`)
    return {
      key: `${project.id}@${sha}`,
      read: (file) => readFileAt(store, sha, file)?.toString('utf8'),
      at: { project: project.full_path, sha },
    }
  }
}

/** `max_artifacts_content_include_size`'s default (5 MiB): the largest archive, and file, a child includes. */
const MAX_ARTIFACT_INCLUDE_BYTES = 5 * 1024 * 1024

/**
 * `include: artifact` of a child pipeline (`File::Artifact`, `Gitlab::Ci::ArtifactFileReader`): the file
 * from the archive of the parent pipeline's job of that name (`find_job_with_archive_artifacts`: a build,
 * not retried, with an archive), both within GitLab's size limit; GitLab's errors otherwise. An expired
 * archive is read as GitLab reads it until its worker deletes it (`downloadable` is a file type, not a date).
 */
export function artifactFiles(store: Store, pipelineId: number): ArtifactFiles {
  const tooLarge = (what: string, size: number) =>
    new CiConfigError(
      `${what} is too large: ${humanSize(size)} exceeds maximum of ${humanSize(MAX_ARTIFACT_INCLUDE_BYTES)}`,
    )
  return (name, path) => {
    const job = store.pipelines
      .jobs(pipelineId)
      .find((j) => j.name === name && j.retried === 0 && !store.ciProcessables.isBridge(j.id))
    const archive = job && store.jobOutputs.artifact(job.id)
    if (!job || !archive)
      throw new CiConfigError(`Job \`${name}\` not found in parent pipeline or does not have artifacts!`)
    if (archive.size > MAX_ARTIFACT_INCLUDE_BYTES)
      throw tooLarge(`Artifacts archive for job \`${name}\``, archive.size)
    const file = store.jobOutputs.entry(job.id, path)
    // rubyzip finds `dir` as the archive's `dir/`: a folder is named as one, not as missing.
    if (!file && store.jobOutputs.hasEntriesUnder(job.id, path.replace(/\/+$/, '')))
      throw new CiConfigError(`Path \`${path}\` was expected to be a file but it was a directory!`)
    if (!file)
      throw new CiConfigError(`Path \`${path}\` does not exist inside the \`${name}\` artifacts archive!`)
    if (file.length > MAX_ARTIFACT_INCLUDE_BYTES)
      throw tooLarge(`The file \`${path}\` in job \`${name}\``, file.length)
    return Buffer.from(file).toString('utf8')
  }
}

/**
 * `Project#commit(ref)`: a commit's id, or a branch or tag name (git prefers the tag of a name both have).
 * An id must be the project's own: git objects are stored once for every project, and another project's
 * commit would show its files.
 */
export function commitOf(store: Store, project: ProjectRow, ref: string): string | undefined {
  const name = ref === 'HEAD' ? project.default_branch : ref
  if (!name) return undefined
  const own = (sha: string) =>
    store.repository.hasCommit(project.id, sha) || store.repository.refsAt(project.id, sha).length > 0
  if (/^[0-9a-f]{40}$/.test(name) && store.gitObjects.get(name)?.type === 'commit' && own(name)) return name
  const found = resolveRef(store, project.id, name)
  if (found !== 'ambiguous') return found?.sha
  return store.pipelines.refsNamed(project.id, name).find((r) => r.kind === 'tag')?.sha
}

/**
 * `input` with the `include: remote` files its configuration asks for fetched (none: `input` as it
 * is): planning stops at the first one missing, which is fetched, and starts again, each URL fetched once.
 */
export async function fetchRemoteIncludes<T extends CiPlanInput>(
  store: Store,
  access: Access,
  input: T,
  fetch: RemoteIncludeFetcher,
): Promise<T> {
  let remotes: Map<string, RemoteInclude> | undefined
  for (;;) {
    try {
      planFor(store, access, remotes ? { ...input, remotes } : input)
      return remotes ? { ...input, remotes } : input
    } catch (err) {
      if (!(err instanceof RemoteIncludeNeeded)) throw err
      remotes ??= new Map(input.remotes)
      remotes.set(err.url, await fetch(err.url))
    }
  }
}

/** The files of a commit by path (none when the store lacks it). */
function commitFiles(store: Store, sha: string): Map<string, FileEntry> {
  const tree = treeOfCommit(store.gitObjects, sha)
  return tree ? filesOf(store.gitObjects, tree) : new Map()
}

/**
 * What `rules:exists` and `changes` see, read only when a rule asks: the commit's files, and for a push
 * that moved a branch (`Ci::Pipeline#branch_updated?`: not a new branch, not a tag) the paths that differ
 * between its previous commit and this one (`push_details.modified_paths`).
 */
function ruleFacts(store: Store, input: CiPlanInput): RuleFacts {
  let files: Map<string, FileEntry> | undefined
  let changed: string[] | undefined | null = null
  const current = () => (files ??= commitFiles(store, input.sha))
  const modified = (): string[] | undefined => {
    const before = input.before
    if (input.source !== 'push' || input.tag || !before || /^0+$/.test(before)) return undefined
    const previous = commitFiles(store, before)
    const now = current()
    const differ = (a?: FileEntry, b?: FileEntry) => a?.sha !== b?.sha || a?.mode !== b?.mode
    const paths = [...now.keys()].filter((path) => differ(now.get(path), previous.get(path)))
    return [...paths, ...[...previous.keys()].filter((path) => !now.has(path))]
  }
  return {
    files: () => [...current().keys()],
    changed: () => (changed === null ? (changed = modified()) : changed),
  }
}
