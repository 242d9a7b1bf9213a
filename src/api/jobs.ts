import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import { Bridge, type JobPlayBody, type JobScopeQuery } from '../schema/job.js'
import { Job } from '../schema/pipeline.js'
import { AcceptedMessage } from '../schema/project-export.js'
import type { CallOptions, Http, Query } from './http.js'
import { path } from './path.js'
import { streamDownload, type ExportDownload } from './project-exports.js'

/** A download under way: the body as a stream (never buffered), its file name and length when sent. */
export type JobDownload = ExportDownload

/**
 * `lib/api/ci/jobs.rb` and `lib/api/ci/job_artifacts.rb`: a project's jobs, their traces and
 * artifacts, and `lib/api/ci/pipelines.rb`'s bridges (trigger jobs). The artifact calls also take a
 * CI/CD job token (`headers: { 'job-token': token }` on a client without a token of its own).
 */
export function jobs(http: Http) {
  const download = (p: string, options: CallOptions) => streamDownload(http, p, options)

  return {
    /** `GET /projects/:id/jobs`, lazily, newest first (retried jobs too); `scope` one status or several. */
    list: (
      project: ResourceRef,
      query: Omit<JobScopeQuery, 'page' | 'per_page'> = {},
      options: CallOptions = {},
    ) => http.paginate<Job>(path`/projects/${project}/jobs`, { ...options, query: query as Query }),
    /** `GET /job`: the running job of the client's CI/CD job token (`tokenType: 'job'`); 404 for any other token. */
    current: (options: CallOptions = {}) => http.request('GET', '/job', { ...options, response: Job }),
    /** `GET /projects/:id/jobs/:job_id`. */
    get: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      http.request('GET', path`/projects/${project}/jobs/${jobId}`, { ...options, response: Job }),
    /** `GET /projects/:id/jobs/:job_id/trace`: the log as text, ANSI sequences and section markers kept. */
    async trace(project: ResourceRef, jobId: number, options: CallOptions = {}): Promise<string> {
      const p = path`/projects/${project}/jobs/${jobId}/trace`
      const res = await http.rawWhole('GET', p, {
        ...options,
        headers: { accept: 'text/plain', ...options.headers },
      })
      if (res.status >= 300) await http.read('GET', p, res)
      return res.body.text()
    },
    /**
     * `GET .../jobs/:job_id/trace` as a stream, for a reader that keeps only part of a log (which may
     * be many megabytes): the caller must consume or destroy `body`.
     */
    traceStream: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      download(path`/projects/${project}/jobs/${jobId}/trace`, {
        ...options,
        headers: { accept: 'text/plain', ...options.headers },
      }),
    /**
     * `POST .../play` (Developer): starts a manual job, with variables for its run. A trigger job
     * answers as a bridge (`downstream_pipeline`, no runner or artifacts).
     */
    play: (project: ResourceRef, jobId: number, body: JobPlayBody = {}, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/jobs/${jobId}/play`, {
        ...options,
        json: body,
        response: Type.Union([Job, Bridge]),
      }),
    /** `POST .../retry` (Developer): a new job in the old one's place; answers with the new job. */
    retry: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/jobs/${jobId}/retry`, { ...options, response: Job }),
    /** `POST .../cancel` (Developer). */
    cancel: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/jobs/${jobId}/cancel`, { ...options, response: Job }),
    /** `POST .../erase` (Maintainer): removes the trace and the artifacts of a finished job. */
    erase: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/jobs/${jobId}/erase`, { ...options, response: Job }),
    /** `GET .../jobs/:job_id/artifacts`: the archive (a zip), streamed. */
    artifacts: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      download(path`/projects/${project}/jobs/${jobId}/artifacts`, options),
    /** `GET .../jobs/:job_id/artifacts/*artifact_path`: one file of the archive, streamed. */
    artifactFile: (project: ResourceRef, jobId: number, artifactPath: string, options: CallOptions = {}) =>
      download(`${path`/projects/${project}/jobs/${jobId}/artifacts`}/${encodePath(artifactPath)}`, options),
    /** `POST .../jobs/:job_id/artifacts/keep` (Developer): the artifacts no longer expire; 404 once they did. */
    keepArtifacts: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      http.request('POST', path`/projects/${project}/jobs/${jobId}/artifacts/keep`, {
        ...options,
        response: Job,
      }),
    /** `DELETE .../jobs/:job_id/artifacts` (Maintainer): the artifacts go, the log stays; 204, with or without any. */
    deleteArtifacts: (project: ResourceRef, jobId: number, options: CallOptions = {}) =>
      http.request<void>('DELETE', path`/projects/${project}/jobs/${jobId}/artifacts`, options),
    /**
     * `DELETE /projects/:id/artifacts` (Maintainer): every job's artifacts but those of the pipelines that
     * keep theirs (each ref's latest successful one, while `keep_latest_artifact` is on); GitLab's 202 message.
     */
    deleteProjectArtifacts: (project: ResourceRef, options: CallOptions = {}) =>
      http.request('DELETE', path`/projects/${project}/artifacts`, { ...options, response: AcceptedMessage }),
    /** `GET /projects/:id/jobs/artifacts/:ref_name/download?job=`: the latest successful job's archive. */
    artifactsByRef: (project: ResourceRef, ref: string, job: string, options: CallOptions = {}) =>
      download(path`/projects/${project}/jobs/artifacts/${ref}/download`, { ...options, query: { job } }),
    /** `GET /projects/:id/jobs/artifacts/:ref_name/raw/*artifact_path?job=`: one file of that archive. */
    artifactFileByRef: (
      project: ResourceRef,
      ref: string,
      job: string,
      artifactPath: string,
      options: CallOptions = {},
    ) =>
      download(`${path`/projects/${project}/jobs/artifacts/${ref}/raw`}/${encodePath(artifactPath)}`, {
        ...options,
        query: { job },
      }),
    /** `GET /projects/:id/pipelines/:pipeline_id/bridges`, lazily: trigger jobs and their downstream pipelines. */
    bridges: (
      project: ResourceRef,
      pipelineId: number,
      query: Omit<JobScopeQuery, 'page' | 'per_page'> = {},
      options: CallOptions = {},
    ) =>
      http.paginate<Bridge>(path`/projects/${project}/pipelines/${pipelineId}/bridges`, {
        ...options,
        query: query as Query,
      }),
  }
}
export type JobsApi = ReturnType<typeof jobs>

/** An artifact path in a URL: each segment encoded, the slashes kept (GitLab's `*artifact_path`). */
const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/')
