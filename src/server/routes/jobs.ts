import { Type } from '@sinclair/typebox'
import type { FastifyReply } from 'fastify'
import {
  AcceptedMessage,
  ArtifactsByRefQuery,
  Bridge,
  Job,
  JobCancelBody,
  JobPlayBody,
  JobScopeQuery,
} from '../../schema/index.js'
import { GitLabError } from '../grape/gitlab-errors.js'
import { streamedBody } from '../http/head-requests.js'
import type { ArtifactDownload, JobService } from '../services/jobs.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const JobPath = Type.Object({ id: Type.String(), job_id: Type.Integer() })
const PipelinePath = Type.Object({ id: Type.String(), pipeline_id: Type.Integer() })
const Binary = Type.String({ format: 'binary' })

/** An archive or one of its files as an attachment, streamed (Workhorse's `send-url`/`artifacts-entry`). */
function sendArtifact(reply: FastifyReply, d: ArtifactDownload): FastifyReply {
  return reply
    .header('content-type', d.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${d.filename.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(d.filename)}`,
    )
    .header('content-transfer-encoding', 'binary')
    .header('content-length', String(d.size))
    .send(streamedBody(reply.request, d.body))
}

/** The router's wildcard (`*`): what follows the route's fixed part, decoded. */
const wildcard = (params: unknown) => (params as { '*'?: string })['*'] ?? ''
const routeNotFound = () => new GitLabError(404, { error: '404 Not Found' })

/** `lib/api/ci/jobs.rb`, `lib/api/ci/job_artifacts.rb` and the bridges of `lib/api/ci/pipelines.rb`. */
export function jobRoutes(api: ApiContext, jobs: JobService): void {
  const { route } = api

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/jobs',
      jobToken: true,
      summary: "List a project's jobs, newest first (Reporter and up when the project's public_jobs is off)",
      auth: 'required',
      pathParams: IdPath,
      input: JobScopeQuery,
      response: { 200: Type.Array(Job) },
    },
    (h) => h.sendPage(jobs.list(h.actor, h.path.id, h.params)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/job',
      jobToken: true,
      summary: 'The running job whose CI/CD job token calls (404 Job Not Found for any other token)',
      auth: 'required',
      response: { 200: Job },
    },
    (h) => jobs.current(h.actor),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/jobs/:job_id',
      jobToken: true,
      summary: 'Read one job',
      auth: 'required',
      pathParams: JobPath,
      response: { 200: Job },
    },
    (h) => jobs.get(h.actor, h.path.id, h.path.job_id),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/jobs/:job_id/trace',
      jobToken: true,
      summary: "A job's log as text (ANSI colours and section markers as the runner wrote them)",
      auth: 'required',
      pathParams: JobPath,
      response: { 200: Type.String() },
    },
    (h) => {
      const { id, text } = jobs.trace(h.actor, h.path.id, h.path.job_id)
      return h.reply
        .header('content-disposition', `infile; filename="${id}.log"`)
        .type('text/plain')
        .send(text)
    },
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/jobs/:job_id/play',
      summary:
        'Start a manual or delayed job, with variables for its run (Developer); a trigger job answers as a bridge',
      auth: 'required',
      pathParams: JobPath,
      input: JobPlayBody,
      response: { 200: Type.Union([Job, Bridge]) },
    },
    (h) => jobs.play(h.actor, h.path.id, h.path.job_id, h.params),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/jobs/:job_id/retry',
      summary: 'Retry a finished job: a new job takes its place (Developer)',
      auth: 'required',
      pathParams: JobPath,
      response: { 201: Job },
    },
    (h) => h.reply.code(201).send(jobs.retry(h.actor, h.path.id, h.path.job_id)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/jobs/:job_id/cancel',
      summary: 'Cancel an unfinished job (Developer)',
      auth: 'required',
      pathParams: JobPath,
      input: JobCancelBody,
      response: { 201: Job },
    },
    (h) => h.reply.code(201).send(jobs.cancel(h.actor, h.path.id, h.path.job_id, h.params.force)),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/jobs/:job_id/erase',
      summary: "Erase a finished job's trace and artifacts (Maintainer, or the job's own Developer)",
      auth: 'required',
      pathParams: JobPath,
      response: { 201: Job },
    },
    (h) => h.reply.code(201).send(jobs.erase(h.actor, h.path.id, h.path.job_id)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/jobs/:job_id/artifacts',
      jobToken: true,
      summary: "Download a job's artifacts archive (a zip)",
      auth: 'optional',
      pathParams: JobPath,
      response: { 200: Binary },
    },
    (h) => sendArtifact(h.reply, jobs.artifacts(h.actor, h.path.id, h.path.job_id)),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/jobs/:job_id/artifacts/*',
      docUrl: '/api/v4/projects/:id/jobs/:job_id/artifacts/:artifact_path',
      jobToken: true,
      summary: "Download one file of a job's artifacts archive",
      auth: 'optional',
      pathParams: JobPath,
      response: { 200: Binary },
    },
    (h) =>
      sendArtifact(h.reply, jobs.artifactFile(h.actor, h.path.id, h.path.job_id, wildcard(h.req.params))),
  )

  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/jobs/:job_id/artifacts/keep',
      summary: "Keep a job's artifacts: they no longer expire (Developer; 404 once they expired)",
      auth: 'required',
      pathParams: JobPath,
      response: { 200: Job },
    },
    (h) => jobs.keepArtifacts(h.actor, h.path.id, h.path.job_id),
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/jobs/:job_id/artifacts',
      summary: "Delete a job's artifacts, its log kept (Maintainer; 204 also when it has none)",
      auth: 'required',
      pathParams: JobPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      jobs.deleteArtifacts(h.actor, h.path.id, h.path.job_id)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/artifacts',
      summary:
        'Delete the artifacts of every job of the project, except those of pipelines that keep theirs (Maintainer)',
      auth: 'required',
      pathParams: IdPath,
      response: { 202: AcceptedMessage },
    },
    (h) => {
      jobs.deleteProjectArtifacts(h.actor, h.path.id)
      return h.reply.code(202).send({ message: '202 Accepted' })
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/jobs/artifacts/*',
      docUrl: '/api/v4/projects/:id/jobs/artifacts/:ref_name/download',
      jobToken: true,
      summary:
        "The artifacts of the ref's latest successful pipeline's job named `job`: `.../download` the archive, `.../raw/:artifact_path` one file",
      auth: 'optional',
      pathParams: IdPath,
      input: ArtifactsByRefQuery,
      response: { 200: Binary },
    },
    (h) => {
      // The ref may hold slashes (`requirements: { ref_name: /.+/ }`): split at the last `/raw/`.
      const rest = wildcard(h.req.params)
      const raw = rest.lastIndexOf('/raw/')
      if (rest.endsWith('/download') && rest.length > '/download'.length) {
        const found = jobs.latestByRef(h.actor, h.path.id, rest.slice(0, -'/download'.length), h.params.job)
        return sendArtifact(h.reply, found.archive())
      }
      if (raw <= 0) throw routeNotFound()
      const found = jobs.latestByRef(h.actor, h.path.id, rest.slice(0, raw), h.params.job)
      return sendArtifact(h.reply, found.entry(rest.slice(raw + '/raw/'.length)))
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/pipelines/:pipeline_id/bridges',
      jobToken: true,
      summary: "List a pipeline's trigger jobs (bridges) and the pipelines they started",
      pathParams: PipelinePath,
      input: JobScopeQuery,
      response: { 200: Type.Array(Bridge) },
    },
    (h) => h.sendPage(jobs.bridges(h.actor, h.path.id, h.path.pipeline_id, h.params)),
  )
}
