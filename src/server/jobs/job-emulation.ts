import { extractCoverage } from '../ci/coverage.js'
import { runJob, traceHeader } from '../ci/job-run.js'
import { ANSI, expand } from '../ci/job-script.js'
import { environmentSlug, guessTier } from '../ci/environment.js'
import { predefinedVariables } from '../ci/predefined-variables.js'
import { zipFiles } from '../archive/zip-writer.js'
import { refVariables, type RefVariable } from '../store/ci-variables.js'
import type { Store } from '../store/index.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'

/** Archives are kept in chunks of this size, the unit a download reads. */
export const ARTIFACT_CHUNK_BYTES = 256 * 1024

/** GitLab's default `default_artifacts_expire_in` (application setting): 30 days. */
const DEFAULT_EXPIRE_S = 30 * 24 * 3600

const UNIT_S: Record<string, number> = {
  s: 1,
  sec: 1,
  second: 1,
  m: 60,
  min: 60,
  minute: 60,
  h: 3600,
  hr: 3600,
  hour: 3600,
  d: 86400,
  day: 86400,
  w: 604800,
  week: 604800,
  mo: 2592000,
  month: 2592000,
  y: 31536000,
  yr: 31536000,
  year: 31536000,
}

/**
 * `artifacts:expire_in` in seconds (ChronicDuration as GitLab parses it: `1 week`, `3 days 4 hrs`,
 * a bare number is seconds); null for `never`, the default for text it cannot read.
 */
export function expireInSeconds(text: string | undefined): number | null {
  if (text === undefined) return DEFAULT_EXPIRE_S
  if (text.trim().toLowerCase() === 'never') return null
  let total = 0
  let read = false
  for (const m of text.toLowerCase().matchAll(/(\d+(?:\.\d+)?)\s*([a-z]*)/g)) {
    const unit = (m[2] as string).replace(/s$/, '') || 's'
    const factor = UNIT_S[unit]
    if (factor === undefined) continue
    total += Number(m[1]) * factor
    read = true
  }
  return read && total > 0 ? Math.round(total) : DEFAULT_EXPIRE_S
}

/** Where gitlab-runner writes a file variable's content: beside the project's directory. */
const fileVariablePath = (projectPath: string, key: string) => `/builds/${projectPath}.tmp/${key}`

/**
 * The instance's, groups' and project's CI/CD variables of `job`'s ref as they are now, sealed into the
 * job's state: GitLab hands a job its variables when a runner picks it (`Ci::RegisterJobService`), so a
 * change while it runs does not reach it.
 */
function pickVariables(store: Store, job: JobRow, pipeline: PipelineRow): void {
  const own = currentVariables(store, job, pipeline)
  store.jobOutputs.setState(job.id, { runner_variables: store.secrets.seal(JSON.stringify(own)) })
}

/** The CI/CD variables of the job's ref, and of its environment's scopes when it has one. */
const currentVariables = (store: Store, job: JobRow, pipeline: PipelineRow) =>
  refVariables(
    store,
    pipeline.project_id,
    pipeline.ref,
    pipeline.tag === 1,
    store.jobDefinitions.get(job.id)?.environment?.name || undefined,
  )

/** What `pickVariables` kept for `job`; read now for a job that started running before it kept any. */
function pickedVariables(store: Store, job: JobRow, pipeline: PipelineRow): RefVariable[] {
  const sealed = store.jobOutputs.state(job.id).runner_variables
  return sealed === null
    ? currentVariables(store, job, pipeline)
    : (JSON.parse(store.secrets.open(sealed)) as RefVariable[])
}

/**
 * The variables a job sees, weakest first (`Ci::Variables::Builder`): predefined, the definition's, the
 * instance's, groups' and project's as the job was picked with them (`own`), the pipeline's, the play's;
 * and the values to mask in its trace. A CI/CD variable's value is expanded against the others unless it
 * is raw (gitlab-runner's `JobVariables.Expand`); a file variable is the path of its file, which `cat` reads.
 */
function jobVariables(
  store: Store,
  job: JobRow,
  pipeline: PipelineRow,
  own: RefVariable[],
): { vars: Map<string, string>; files: Map<string, string>; masked: string[] } {
  const project = store.projects.get(pipeline.project_id)
  const vars = new Map<string, string>(
    project
      ? Object.entries(
          predefinedVariables({
            project,
            ref: pipeline.ref,
            sha: pipeline.sha,
            tag: pipeline.tag === 1,
            source: pipeline.source,
          }),
        )
      : [],
  )
  vars.set('CI_JOB_ID', String(job.id))
  vars.set('CI_JOB_NAME', job.name)
  vars.set('CI_JOB_STAGE', job.stage)
  vars.set('CI_JOB_TOKEN', '[MASKED]')
  vars.set('CI_PIPELINE_ID', String(pipeline.id))
  vars.set('CI_PIPELINE_IID', String(pipeline.iid))
  const definition = store.jobDefinitions.get(job.id)
  const environment = definition?.environment
  if (environment?.name) {
    // `Variables::Builder#predefined_variables` and `Ci::Build#persisted_environment_variables`.
    vars.set('CI_ENVIRONMENT_NAME', environment.name)
    vars.set('CI_ENVIRONMENT_SLUG', environmentSlug(environment.name))
    vars.set('CI_ENVIRONMENT_ACTION', environment.action)
    vars.set('CI_ENVIRONMENT_TIER', environment.deployment_tier ?? guessTier(environment.name))
    if (environment.url !== undefined) vars.set('CI_ENVIRONMENT_URL', environment.url)
  }
  for (const [k, v] of Object.entries(definition?.variables ?? {})) vars.set(k, v)
  const files = new Map<string, string>()
  for (const v of own) {
    if (v.variable_type !== 'file') vars.set(v.key, v.value)
    else {
      const path = fileVariablePath(project?.full_path ?? '', v.key)
      files.set(path, v.value)
      vars.set(v.key, path)
    }
  }
  for (const v of store.pipelines.variables(pipeline.id)) vars.set(v.key, v.value)
  const played = store.jobOutputs.state(job.id).variables
  for (const v of played ? (JSON.parse(played) as { key: string; value: string }[]) : [])
    vars.set(v.key, v.value)
  const before = new Map(vars)
  for (const v of own)
    if (!v.raw && v.variable_type === 'env_var' && vars.get(v.key) === v.value)
      vars.set(v.key, expand(v.value, before))
  // GitLab hands the URL over as written, for the runner to expand.
  const url = vars.get('CI_ENVIRONMENT_URL')
  if (url !== undefined && url === environment?.url) vars.set('CI_ENVIRONMENT_URL', expand(url, before))
  return { vars, files, masked: own.filter((v) => v.masked).map((v) => v.value) }
}

/** gitlab-runner's trace masking: each masked value, wherever it appears, becomes `[MASKED]`. */
function maskTrace(trace: string, masked: string[]): string {
  return masked.reduce((text, value) => text.split(value).join('[MASKED]'), trace)
}

/**
 * What a job leaves as the runner moves it (src/server/jobs/pipeline-runner.ts calls `moved` inside
 * the write that moves it): when it starts running, its trace's header and its CI/CD variables; when it
 * finishes running, the script's run (src/server/ci/job-run.ts) decides its status unless the seed's
 * `ci_outcome` or an emulator control says otherwise, and leaves the whole trace and the artifacts archive.
 */
export function jobEmulation(store: Store) {
  function finish(job: JobRow, next: JobRow, pipeline: PipelineRow): void {
    const startedAt = job.started_at ?? (next.finished_at as string)
    const finishedAt = next.finished_at as string
    if (next.status === 'canceled') {
      const header = store.jobOutputs.trace(job.id) ?? traceHeader(startedAt)
      store.jobOutputs.putTrace(job.id, `${header}${ANSI.boldRed}ERROR: Job failed: canceled${ANSI.reset}\n`)
      return
    }
    const definition = store.jobDefinitions.get(job.id)
    const { vars, files, masked } = jobVariables(store, job, pipeline, pickedVariables(store, job, pipeline))
    const run = runJob({
      name: job.name,
      ...(definition ? { definition } : {}),
      variables: vars,
      files,
      startedAt,
      finishedAt,
      ...(job.outcome === 'failed' ? { forced: 'failed' as const } : {}),
    })
    // `Ci::Build#expanded_environment_url`: what the environment's `external_url` becomes on success.
    const url = vars.get('CI_ENVIRONMENT_URL')
    if (url !== undefined) store.environments.expandJobUrl(job.id, url)
    next.status = run.status
    next.failure_reason = run.status === 'failed' ? 'script_failure' : null
    const trace = maskTrace(run.trace, masked)
    store.jobOutputs.putTrace(job.id, trace)
    // `Ci::Build#update_coverage`, as the build finishes.
    if (definition?.coverage !== undefined) next.coverage = extractCoverage(trace, definition.coverage)
    if (run.allowedFailure) store.jobOutputs.setState(job.id, { allow_failure: 1 })
    if (run.artifacts) {
      const mtime = new Date(finishedAt)
      const entries = run.artifacts.map((path) => ({ path, content: run.workspace.get(path) as Buffer }))
      const zip = zipFiles(entries.map((e) => ({ ...e, mtime })))
      const expire = expireInSeconds(definition?.artifacts?.expire_in)
      store.jobOutputs.putArtifact(
        {
          build_id: job.id,
          size: zip.length,
          created_at: finishedAt,
          expire_at: expire === null ? null : new Date(Date.parse(finishedAt) + expire * 1000).toISOString(),
        },
        zip,
        entries,
        ARTIFACT_CHUNK_BYTES,
      )
    }
  }

  return {
    /** `job` moves to `next` (changed here when the script decides its status). */
    moved(job: JobRow, next: JobRow): void {
      if (next.status === 'running' && job.status !== 'running' && next.started_at) {
        store.jobOutputs.putTrace(job.id, traceHeader(next.started_at))
        const pipeline = store.pipelines.byId(job.pipeline_id)
        if (pipeline) pickVariables(store, job, pipeline)
        return
      }
      if (job.status !== 'running' || next.status === 'running' || !next.finished_at) return
      const pipeline = store.pipelines.byId(job.pipeline_id)
      if (pipeline) finish(job, next, pipeline)
    },
  }
}
export type JobEmulation = ReturnType<typeof jobEmulation>
