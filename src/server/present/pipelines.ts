import type {
  DetailedStatus,
  Job,
  Pipeline,
  PipelineBasic,
  PipelineListItem,
  PipelineSource,
  PipelineStatus,
  PipelineWithMetadata,
} from '../../schema/index.js'
import type { JobRow, PipelineRow } from '../store/pipelines.js'
import type { ProjectRow } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import type { HistoryCommit } from '../git/history.js'
import type { Instance } from './context.js'
import { artifactExpired } from '../domain/artifact-expiry.js'
import { presentCommit } from './repository.js'
import { presentUser } from './users.js'

/** icon suffix, text, label and group of each status (`Gitlab::Ci::Status::*`; pipelines say Blocked/Delayed). */
const LOOKS: Record<string, [string, string, string, string]> = {
  created: ['created', 'Created', 'created', 'created'],
  waiting_for_resource: ['pending', 'Waiting', 'waiting for resource', 'waiting-for-resource'],
  preparing: ['preparing', 'Preparing', 'preparing', 'preparing'],
  waiting_for_callback: ['pending', 'Waiting', 'waiting for callback', 'waiting-for-callback'],
  pending: ['pending', 'Pending', 'pending', 'pending'],
  running: ['running', 'Running', 'running', 'running'],
  success: ['success', 'Passed', 'passed', 'success'],
  failed: ['failed', 'Failed', 'failed', 'failed'],
  canceling: ['canceled', 'Canceling', 'canceling', 'canceling'],
  canceled: ['canceled', 'Canceled', 'canceled', 'canceled'],
  skipped: ['skipped', 'Skipped', 'skipped', 'skipped'],
  manual: ['manual', 'Blocked', 'waiting for manual action', 'manual'],
  scheduled: ['scheduled', 'Delayed', 'waiting for delayed job', 'scheduled'],
}

/** What a job left and its state beyond `ci_builds` (src/server/store/job-outputs.ts), as shown. */
export interface JobOutputs {
  allowFailure: boolean
  erasedAt: string | null
  /** Who played it (a manual job shows its player). */
  player?: UserRow
  artifact?: { size: number; expire_at: string | null }
  /** The build's `artifacts_expire_at` once its archive is gone (expired or deleted). */
  goneArtifactsExpireAt?: string | null
  /** The finished job's trace, in bytes (GitLab lists it as an artifact once archived). */
  traceSize?: number
  /** The pipeline's commit, when the repository holds it. */
  commit?: HistoryCommit
}
const NO_OUTPUTS: JobOutputs = { allowFailure: false, erasedAt: null }

const ms = (a: string | null, b: string | null) => (a && b ? Date.parse(b) - Date.parse(a) : null)

/**
 * Shapes pipelines and jobs (`lib/api/entities/ci/pipeline.rb`, `lib/api/entities/ci/job.rb`). Favicons are
 * our short asset paths (GitLab's carry a content digest); pipelines have no name. `user` is the pipeline's
 * user, which the service loads; `coverageOf` the mean coverage of its current statuses (`Ci::Pipeline#coverage`:
 * its jobs' and its posted statuses').
 */
export function pipelinePresenter(
  instance: Instance,
  coverageOf: (pipelineId: number) => number | null = () => null,
) {
  const webBase = (project: ProjectRow) => `${instance.baseUrl}/${project.full_path}`
  const present = (row: UserRow | undefined) => (row ? presentUser(row, instance) : null)

  function detailedStatus(project: ProjectRow, row: PipelineRow): DetailedStatus {
    const [icon, text, label, group] =
      LOOKS[row.status] ?? (LOOKS.created as [string, string, string, string])
    return {
      icon: `status_${icon}`,
      text,
      label,
      group,
      tooltip: label,
      has_details: true,
      details_path: `/${project.full_path}/-/pipelines/${row.id}`,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_status_${icon}.png`,
    }
  }

  function basic(project: ProjectRow, row: PipelineRow): PipelineBasic {
    return {
      id: row.id,
      iid: row.iid,
      project_id: row.project_id,
      sha: row.sha,
      ref: row.ref,
      status: row.status as PipelineStatus,
      source: row.source as PipelineSource,
      created_at: row.created_at,
      updated_at: row.updated_at,
      web_url: `${webBase(project)}/-/pipelines/${row.id}`,
    }
  }

  /** `yamlErrors`: the configuration error GitLab kept with a pipeline it persisted as failed. */
  function full(
    project: ProjectRow,
    row: PipelineRow,
    user: UserRow | undefined,
    yamlErrors: string | null = null,
  ): Pipeline {
    const duration = row.finished_at ? ms(row.started_at, row.finished_at) : null
    const queued = ms(row.created_at, row.started_at)
    const coverage = coverageOf(row.id)
    return {
      ...basic(project, row),
      before_sha: '0000000000000000000000000000000000000000',
      tag: row.tag === 1,
      yaml_errors: yamlErrors,
      user: present(user),
      started_at: row.started_at,
      finished_at: row.finished_at,
      committed_at: null,
      duration: duration === null ? null : Math.round(duration / 1000),
      queued_duration: queued === null ? null : queued / 1000,
      // `PipelinePresenter#coverage`: two decimals, as a string.
      coverage: coverage === null ? null : coverage.toFixed(2),
      detailed_status: detailedStatus(project, row),
    }
  }

  return {
    basic,
    full,
    listItem: (project: ProjectRow, row: PipelineRow): PipelineListItem => ({
      ...basic(project, row),
      name: null,
    }),
    withMetadata: (
      project: ProjectRow,
      row: PipelineRow,
      user: UserRow | undefined,
      yamlErrors: string | null = null,
    ): PipelineWithMetadata => ({
      ...full(project, row, user, yamlErrors),
      name: null,
    }),
    /** A job; running and pending durations are measured up to `now`, as GitLab measures them. */
    job(
      project: ProjectRow,
      pipeline: PipelineRow,
      user: UserRow | undefined,
      job: JobRow,
      now: string,
      outputs: JobOutputs = NO_OUTPUTS,
    ): Job {
      const end = job.finished_at ?? now
      const running = job.started_at ? ms(job.started_at, end) : null
      const queued = job.queued_at ? ms(job.queued_at, job.started_at ?? now) : null
      const { artifact } = outputs
      const author = present(outputs.player ?? user)
      return {
        id: job.id,
        status: job.status as PipelineStatus,
        stage: job.stage,
        name: job.name,
        ref: pipeline.ref,
        tag: pipeline.tag === 1,
        coverage: job.coverage,
        allow_failure: outputs.allowFailure,
        created_at: job.created_at,
        started_at: job.started_at,
        finished_at: job.finished_at,
        erased_at: outputs.erasedAt,
        duration: running === null ? null : running / 1000,
        queued_duration: queued === null ? null : queued / 1000,
        user: author,
        commit: outputs.commit ? presentCommit(outputs.commit, project.full_path, instance) : null,
        pipeline: basic(project, pipeline),
        ...(job.status === 'failed' ? { failure_reason: job.failure_reason ?? 'unknown_failure' } : {}),
        web_url: `${webBase(project)}/-/jobs/${job.id}`,
        project: { ci_job_token_scope_enabled: false },
        // `if: job.artifacts?`: not past its `expire_at`, even while a locked pipeline keeps the file.
        ...(artifact && !artifactExpired(artifact.expire_at, now)
          ? { artifacts_file: { filename: 'artifacts.zip', size: artifact.size } }
          : {}),
        artifacts: [
          ...(artifact
            ? [{ file_type: 'archive', size: artifact.size, filename: 'artifacts.zip', file_format: 'zip' }]
            : []),
          ...(outputs.traceSize !== undefined
            ? [{ file_type: 'trace', size: outputs.traceSize, filename: 'job.log', file_format: null }]
            : []),
        ],
        runner: null,
        runner_manager: null,
        artifacts_expire_at: artifact ? artifact.expire_at : (outputs.goneArtifactsExpireAt ?? null),
        archived: false,
        tag_list: [],
      }
    },
  }
}
export type PipelinePresenter = ReturnType<typeof pipelinePresenter>
